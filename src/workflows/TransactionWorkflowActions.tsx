import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { canTrade, type TradingUser } from '../../machines/permissions.ts';
import { formatDecimal, isMultipleOf, parseDecimal } from '../../protocol/decimal.ts';
import type { Transaction } from '../../protocol/market-data.ts';
import type { AssetSpecification } from '../../protocol/reference.ts';
import { toApiError } from '../api/errors.ts';
import { useCanAct } from '../auth/use-auth.ts';
import { useDialogs } from '../components/dialogs/DialogProvider.tsx';
import { displayParams, formatApiError } from '../i18n/format-error.ts';
import { formatMinor } from '../i18n/format.ts';
import { ContractUploadDialog } from './ContractUploadDialog.tsx';
import { createIntentKeys, requestMarginActivation, requestTransfer } from './workflow-api.ts';
import { WorkflowFormDialog } from './WorkflowFormDialog.tsx';

type TransactionRow = Pick<Transaction, 'transactionId' | 'buyer' | 'seller' | 'qty'>;

/**
 * Whether a transaction's workflows are the user's to start: a participant (buyer or seller among the
 * user's clients) who can trade (machines/permissions.ts). The administrator never starts them; it
 * approves them; nor on a transaction already transferred (superseded). The server checks again
 * (TRANSFER_NOT_PARTICIPANT, CONTRACT_NOT_PARTICIPANT, TRANSFER_ALREADY_DONE).
 */
export function mayStartTransactionWorkflows(transaction: Pick<Transaction, 'buyer' | 'seller' | 'status'>, user: TradingUser | null): boolean {
  if (!user || !canTrade(user)) return false;
  // Transferred to CCP: its children carry the quantity, and the server refuses a new transfer (TRANSFER_ALREADY_DONE).
  if (transaction.status === 'superseded') return false;
  return user.clientCodes.includes(transaction.buyer) || user.clientCodes.includes(transaction.seller);
}

/** Transfer to the central counterparty: the quantity (all of it by default; less splits the transaction), then the confirmation. */
function TransferDialog({ transaction, asset, onClose, onDone }: { transaction: TransactionRow; asset: AssetSpecification | undefined; onClose: () => void; onDone: (message: string) => void }) {
  const intl = useIntl();
  const dialogs = useDialogs();
  const decimals = asset?.quantityDecimals ?? 0;
  const step = asset?.quantityStep ?? 1;
  const [text, setText] = useState(() => formatDecimal(transaction.qty, decimals));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [keys] = useState(() => createIntentKeys());
  const parsed = parseDecimal(text.trim().replace(',', '.'), decimals);
  // All of it is always a valid transfer; a part keeps to the asset's quantity step (it splits the transaction).
  const valid = parsed.ok && (parsed.value === transaction.qty || (parsed.value > 0 && parsed.value < transaction.qty && isMultipleOf(parsed.value, step)));
  const problem = valid
    ? null
    : intl.formatMessage(
        { id: 'validation.quantityRange' },
        displayParams(intl, { min: formatDecimal(step, decimals), max: formatDecimal(transaction.qty, decimals), unit: asset?.unit ?? '' }),
      );

  async function submit() {
    if (!valid || !parsed.ok) return;
    const qty = parsed.value;
    const confirmed = await dialogs.confirm({
      title: intl.formatMessage({ id: 'workflow.tx.transfer' }),
      description: intl.formatMessage({ id: 'workflow.transfer.confirm' }, { transactionId: transaction.transactionId, qty: formatMinor(intl, qty, decimals), unit: asset?.unit ?? '' }),
      confirmLabel: intl.formatMessage({ id: 'transfer.action.request' }),
    });
    if (!confirmed) return;
    setBusy(true);
    setError(null);
    try {
      const request = qty === transaction.qty ? { transactionId: transaction.transactionId } : { transactionId: transaction.transactionId, qty };
      await requestTransfer(request, keys.keyFor(JSON.stringify(request)));
      keys.done();
      onDone(intl.formatMessage({ id: 'workflow.transfer.requested' }, { transactionId: transaction.transactionId }));
      onClose();
    } catch (cause) {
      setError(formatApiError(intl, toApiError(cause)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <WorkflowFormDialog
      open
      onClose={onClose}
      busy={busy}
      error={error}
      title={<FormattedMessage id="workflow.transfer.dialogTitle" values={{ transactionId: transaction.transactionId }} />}
      description={<FormattedMessage id="workflow.transfer.dialogDescription" />}
      submitLabel={<FormattedMessage id="transfer.action.request" />}
      onSubmit={() => void submit()}
    >
      <div className={problem ? 'field field-invalid' : 'field'}>
        <label htmlFor="transfer-qty">{asset ? intl.formatMessage({ id: 'workflow.field.quantityIn' }, { unit: asset.unit }) : intl.formatMessage({ id: 'clearing.col.quantity' })}</label>
        <input id="transfer-qty" inputMode="decimal" value={text} onChange={(event) => setText(event.target.value)} aria-invalid={problem ? true : undefined} />
        {problem ? (
          <span className="field-error">{problem}</span>
        ) : (
          <span className="field-hint">
            <FormattedMessage id="workflow.transfer.all" values={{ qty: formatMinor(intl, transaction.qty, decimals) }} />
          </span>
        )}
      </div>
    </WorkflowFormDialog>
  );
}

/** A transaction row's workflow starters: transfer to CCP, margin exposure activation, contract upload. */
export function TransactionWorkflowActions({ transaction, asset }: { transaction: TransactionRow; asset: AssetSpecification | undefined }) {
  const intl = useIntl();
  const dialogs = useDialogs();
  const canAct = useCanAct();
  const [open, setOpen] = useState<'transfer' | 'contract' | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'done' | 'error'; text: string } | null>(null);
  const [marginKeys] = useState(() => createIntentKeys());
  const id = transaction.transactionId;

  async function activateMargin() {
    const confirmed = await dialogs.confirm({
      title: intl.formatMessage({ id: 'workflow.tx.activateMargin' }),
      description: intl.formatMessage({ id: 'workflow.margin.confirm' }, { transactionId: id }),
      confirmLabel: intl.formatMessage({ id: 'workflow.action.activate' }),
    });
    if (!confirmed) return;
    setBusy(true);
    setMessage(null);
    try {
      await requestMarginActivation(id, marginKeys.keyFor(id));
      marginKeys.done();
      setMessage({ kind: 'done', text: intl.formatMessage({ id: 'workflow.margin.requested' }, { transactionId: id }) });
    } catch (cause) {
      setMessage({ kind: 'error', text: formatApiError(intl, toApiError(cause)) });
    } finally {
      setBusy(false);
    }
  }

  const button = (key: 'transfer' | 'margin' | 'contract', full: string, short: string, onClick: () => void) => (
    <button type="button" className="button button-secondary button-small" data-action={key} aria-label={full} title={full} disabled={busy || !canAct} onClick={onClick}>
      {short}
    </button>
  );
  return (
    <span className="workflow-row-actions">
      <span className="workflow-row-buttons">
        {button('transfer', intl.formatMessage({ id: 'workflow.tx.transferOf' }, { transactionId: id }), intl.formatMessage({ id: 'workflow.tx.transferShort' }), () => setOpen('transfer'))}
        {button('margin', intl.formatMessage({ id: 'workflow.tx.marginOf' }, { transactionId: id }), intl.formatMessage({ id: 'workflow.tx.marginShort' }), () => void activateMargin())}
        {button('contract', intl.formatMessage({ id: 'workflow.tx.contractOf' }, { transactionId: id }), intl.formatMessage({ id: 'workflow.tx.contractShort' }), () => setOpen('contract'))}
      </span>
      {/* Under the buttons, wrapped to their width: the cell never grows past the buttons nor cuts the text. */}
      {message && (
        <span className={`workflow-row-message ${message.kind === 'error' ? 'field-error small' : 'muted small'}`} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </span>
      )}
      {open === 'transfer' && <TransferDialog transaction={transaction} asset={asset} onClose={() => setOpen(null)} onDone={(text) => setMessage({ kind: 'done', text })} />}
      {open === 'contract' && (
        <ContractUploadDialog
          open
          transactionId={id}
          onClose={() => setOpen(null)}
          onUploaded={() => setMessage({ kind: 'done', text: intl.formatMessage({ id: 'workflow.contract.uploaded' }, { transactionId: id }) })}
        />
      )}
    </span>
  );
}
