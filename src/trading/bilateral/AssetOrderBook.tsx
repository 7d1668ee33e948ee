import { useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { filter, type Observable } from 'rxjs';
import type { AssetSpecification } from '../../../protocol/reference.ts';
import type { WorkflowChange } from '../../../protocol/workflows.ts';
import { sharedWorkflowChanges$ } from '../../../streams/workflows.ts';
import { useUser } from '../../auth/use-auth.ts';
import { useRealtime } from '../../realtime/RealtimeProvider.tsx';
import { OrderBook, type OrderBookProps } from '../OrderBook.tsx';
import { usePartnersOnly } from './partners-only.ts';
import { useTradeableLevels } from './use-tradeable-levels.ts';

export interface AssetOrderBookProps extends Omit<OrderBookProps, 'asset' | 'tradeable' | 'partnersOnly' | 'status'> {
  asset: AssetSpecification;
  /**
   * The user's workflow changes (destinations.workflows): a whitelist change asks again what the clients
   * may trade with. Default: the connection's shared participant queue (streams/workflows.ts).
   */
  workflowChanges$?: Observable<WorkflowChange> | undefined;
}

/** Whitelist changes only: a relation made or ended changes what the clients may trade with. */
export function whitelistChangesOf(workflowChanges$: Observable<WorkflowChange>): Observable<WorkflowChange> {
  return workflowChanges$.pipe(filter((change) => change.instance.kind === 'whitelist'));
}

/**
 * The book of an asset. On a bilateral asset (whitelist-restricted: orders match only between partners)
 * it says so in a badge, marks the quantity the user's clients may not trade with, and offers the
 * "Only partners' orders" filter (kept per user); on any other asset it is the plain book and asks
 * the server nothing.
 */
export function AssetOrderBook({ asset, book, workflowChanges$, ...rest }: AssetOrderBookProps) {
  const intl = useIntl();
  const user = useUser();
  const username = user?.username ?? null;
  const bilateral = asset.bilateral === true;
  const [partnersOnly, setPartnersOnly] = usePartnersOnly(username);
  const connection = useRealtime()?.connection ?? null;
  // Subscribed (by the hook) only while a bilateral book of a user with clients is shown.
  const changes$ = workflowChanges$ ?? (connection ? sharedWorkflowChanges$(connection, 'participant') : undefined);
  const whitelistChanges$ = useMemo(() => (changes$ ? whitelistChangesOf(changes$) : undefined), [changes$]);
  const { tradeable, failed } = useTradeableLevels({ assetId: asset.id, bilateral, bookSeq: book.seq, username, clientCodes: user?.clientCodes ?? noClients, whitelistChanges$ });
  if (!bilateral) return <OrderBook {...rest} book={book} asset={asset} />;
  const badge = intl.formatMessage({ id: 'book.bilateralTitle' });
  const status = (
    <>
      <span className="badge badge-bilateral" role="note" aria-label={badge} title={badge}>
        <FormattedMessage id="book.bilateral" />
      </span>
      {(user?.clientCodes.length ?? 0) > 0 && (
        <label className="book-partners-only">
          <input type="checkbox" checked={partnersOnly} onChange={(event) => setPartnersOnly(event.currentTarget.checked)} />
          <FormattedMessage id="book.partnersOnly" />
        </label>
      )}
      {tradeable && (
        <span className="muted small">
          {tradeable.clientCode === null ? <FormattedMessage id="book.tradeableAllClients" /> : <FormattedMessage id="book.tradeableClient" values={{ clientCode: tradeable.clientCode }} />}
        </span>
      )}
      {failed && (
        <span className="muted small">
          <FormattedMessage id="book.tradeableUnavailable" />
        </span>
      )}
    </>
  );
  return <OrderBook {...rest} book={book} asset={asset} tradeable={tradeable} partnersOnly={partnersOnly} status={status} />;
}

const noClients: readonly string[] = [];
