import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CancelAllRequest, CancelAllResult } from '../../../protocol/orders.ts';
import { cancelAllOrders } from '../../api/orders.ts';
import { useDialogs } from '../../components/dialogs/DialogProvider.tsx';
import { formatApiError } from '../../i18n/format-error.ts';

export interface CancelAllButtonProps {
  /** Only this asset's orders (the asset's page); all of the user's otherwise. */
  assetId?: string;
  /** Live orders in view: nothing to cancel disables the button. */
  count: number;
  disabled?: boolean;
  /** The call (tests give their own). */
  cancelAll?: (filter: CancelAllRequest, idempotencyKey: string) => Promise<CancelAllResult>;
}

/**
 * The kill switch of the orders panel: behind the confirmation dialog, one POST /orders/cancel-all,
 * then what it did (n cancelled, and each order it had to leave with the reason). One key per
 * confirmed click, so a retried request cancels once.
 */
export function CancelAllButton({ assetId, count, disabled = false, cancelAll = cancelAllOrders }: CancelAllButtonProps) {
  const intl = useIntl();
  const dialogs = useDialogs();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CancelAllResult | null>(null);

  const run = async () => {
    const confirmed = await dialogs.confirm({
      title: <FormattedMessage id="orders.cancelAll.title" />,
      description: <FormattedMessage id={assetId === undefined ? 'orders.cancelAll.description' : 'orders.cancelAll.descriptionAsset'} values={{ count }} />,
      confirmLabel: <FormattedMessage id="orders.cancelAll.confirm" />,
      tone: 'danger',
    });
    if (!confirmed) return;
    setBusy(true);
    setResult(null);
    try {
      setResult(await cancelAll(assetId === undefined ? {} : { assetId }, globalThis.crypto.randomUUID()));
    } catch (error) {
      dialogs.showError(error, <FormattedMessage id="orders.cancelAll.title" />);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="cancel-all">
      <button type="button" className="button button-danger" onClick={() => void run()} disabled={disabled || busy || count === 0}>
        <FormattedMessage id={assetId === undefined ? 'orders.cancelAll.button' : 'orders.cancelAll.buttonAsset'} />
      </button>
      {result && (
        <div className="cancel-all-result" role="status">
          <FormattedMessage id="orders.cancelAll.result" values={{ cancelled: result.cancelled.length, refused: result.refused.length }} />
          {result.refused.length > 0 && (
            <ul>
              {result.refused.map((refusal) => (
                <li key={refusal.orderId}>
                  <FormattedMessage
                    id="orders.cancelAll.refusedOrder"
                    values={{ orderId: refusal.orderId, reason: formatApiError(intl, { code: refusal.code, params: refusal.params }) }}
                  />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
