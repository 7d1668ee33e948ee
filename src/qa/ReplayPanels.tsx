import { FormattedMessage, useIntl } from 'react-intl';
import type { Checkpoint } from '../../machines/session-dump.ts';
import { FRAME_LIST_CAP, type PassedFrame } from './replay-controller.ts';

/** The machine states of the replayed session: connection, phases, the book's stream, every order's lifecycle. */
export function MachinesPanel({ state }: { state: Checkpoint | null }) {
  const intl = useIntl();
  const orders = Object.entries(state?.orders ?? {});
  const dash = '—';
  return (
    <section className="card qa-machines" aria-labelledby="qa-machines-title" data-testid="qa-machines">
      <h2 id="qa-machines-title">
        <FormattedMessage id="qa.machines.title" />
      </h2>
      <dl className="qa-facts">
        <dt>
          <FormattedMessage id="qa.machines.connection" />
        </dt>
        <dd data-machine="connection">
          <code>{state ? `${state.connection.state} · attempt ${state.connection.attempt} · generation ${state.connection.generation}` : dash}</code>
        </dd>
        <dt>
          <FormattedMessage id="qa.machines.marketPhase" />
        </dt>
        <dd data-machine="market-phase">
          <code>{state?.phase.market ?? dash}</code>
        </dd>
        <dt>
          <FormattedMessage id="qa.machines.assetPhase" />
        </dt>
        <dd data-machine="asset-phase">
          <code>{state?.phase.asset ?? dash}</code>
        </dd>
        <dt>
          <FormattedMessage id="qa.machines.book" />
        </dt>
        <dd data-machine="book">
          {state ? (
            <>
              <FormattedMessage id="qa.machines.bookValue" values={{ seq: state.book.seq ?? dash, snapshots: state.book.snapshots, gaps: state.book.gaps }} />
              {state.book.stale && (
                <>
                  {' · '}
                  <FormattedMessage id="qa.machines.stale" values={{ reason: state.book.staleReason ?? dash }} />
                </>
              )}
            </>
          ) : (
            dash
          )}
        </dd>
        <dt>
          <FormattedMessage id="qa.machines.errors" />
        </dt>
        <dd>{state?.errors ?? 0}</dd>
      </dl>
      <h3>
        <FormattedMessage id="qa.machines.orders" />
      </h3>
      {orders.length === 0 ? (
        <p className="muted small">
          <FormattedMessage id="qa.machines.noOrders" />
        </p>
      ) : (
        <table className="qa-table" aria-label={intl.formatMessage({ id: 'qa.machines.orders' })}>
          <tbody>
            {orders.map(([orderId, order]) => (
              <tr key={orderId} data-order-id={orderId}>
                <td className="mono">{orderId}</td>
                <td>{order.way}</td>
                <td>
                  <code>{order.machine}</code>
                </td>
                <td className="mono">
                  {order.tradedQty}/{order.qty}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The latest frames delivered (capped), newest first. */
export function FramesPanel({ frames }: { frames: readonly PassedFrame[] }) {
  const intl = useIntl();
  const newestFirst = [...frames].reverse();
  return (
    <section className="card qa-frames" aria-labelledby="qa-frames-title">
      <div className="card-header">
        <h2 id="qa-frames-title">
          <FormattedMessage id="qa.frames.title" />
        </h2>
        <span className="muted small">
          <FormattedMessage id="qa.frames.capped" values={{ cap: FRAME_LIST_CAP }} />
        </span>
      </div>
      {frames.length === 0 ? (
        <p className="muted small">
          <FormattedMessage id="qa.frames.none" />
        </p>
      ) : (
        <div className="qa-frames-scroll">
          <table className="qa-table" aria-label={intl.formatMessage({ id: 'qa.frames.title' })}>
            <thead>
              <tr>
                <th>{intl.formatMessage({ id: 'qa.frames.index' })}</th>
                <th>{intl.formatMessage({ id: 'qa.frames.time' })}</th>
                <th>{intl.formatMessage({ id: 'qa.frames.command' })}</th>
                <th>{intl.formatMessage({ id: 'qa.frames.destination' })}</th>
                <th>{intl.formatMessage({ id: 'qa.frames.body' })}</th>
              </tr>
            </thead>
            <tbody>
              {newestFirst.map((frame) => (
                <tr key={frame.index}>
                  <td className="mono">{frame.index + 1}</td>
                  <td className="mono">{frame.t}</td>
                  <td className="mono">{frame.command}</td>
                  <td className="mono">{frame.destination ?? ''}</td>
                  <td className="mono qa-body" title={frame.body}>
                    {frame.body.length > 120 ? `${frame.body.slice(0, 120)}…` : frame.body}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
