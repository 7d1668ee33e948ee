import { useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { AssetSpecification } from '../../../protocol/reference.ts';
import { useUser } from '../../auth/use-auth.ts';
import { formatCalendarDate, formatMinor } from '../../i18n/format.ts';
import { summarizeTrades, type ClientTrades, type TradesSummary } from './trades-summary.ts';
import { useMarketSession, useOwnAssetTrades } from './session-live.ts';

/** The user's clients' trades on the asset this session, per client code, with a total row. */
export function TradesSummaryView({ asset, summary, sessionDate }: { asset: AssetSpecification; summary: TradesSummary | null; sessionDate: string | null }) {
  const intl = useIntl();
  const price = (value: number | null) => (value === null ? '—' : formatMinor(intl, value, asset.priceDecimals));
  const quantity = (value: number) => formatMinor(intl, value, asset.quantityDecimals);
  const cells = (row: ClientTrades) => (
    <>
      <td className="align-end">{row.count}</td>
      <td className="align-end">{quantity(row.boughtQty)}</td>
      <td className="align-end">{price(row.avgBuyPrice)}</td>
      <td className="align-end">{quantity(row.soldQty)}</td>
      <td className="align-end">{price(row.avgSellPrice)}</td>
      <td className="align-end">{price(row.avgPrice)}</td>
    </>
  );
  return (
    <section className="card session-widget trades-summary" aria-labelledby="trades-summary-title" aria-busy={summary === null}>
      <div className="card-header">
        <h2 id="trades-summary-title">
          <FormattedMessage id="sessionPanels.trades.title" />
        </h2>
        {sessionDate && (
          <span className="muted small">
            <FormattedMessage id="sessionPanels.trades.note" values={{ currency: asset.currency, date: formatCalendarDate(intl, sessionDate) }} />
          </span>
        )}
      </div>
      {summary === null ? (
        <p className="muted">
          <FormattedMessage id="sessionPanels.trades.loading" />
        </p>
      ) : summary.rows.length === 0 ? (
        <p className="muted">
          <FormattedMessage id="sessionPanels.trades.empty" />
        </p>
      ) : (
        <div className="data-table">
          <div className="data-table-scroll">
            <table aria-label={intl.formatMessage({ id: 'sessionPanels.trades.table' }, { asset: asset.code })}>
              <thead>
                <tr>
                  <th scope="col">
                    <FormattedMessage id="sessionPanels.trades.client" />
                  </th>
                  <th scope="col" className="align-end">
                    <FormattedMessage id="sessionPanels.trades.count" />
                  </th>
                  <th scope="col" className="align-end">
                    <FormattedMessage id="sessionPanels.trades.bought" values={{ unit: asset.unit }} />
                  </th>
                  <th scope="col" className="align-end">
                    <FormattedMessage id="sessionPanels.trades.avgBuy" />
                  </th>
                  <th scope="col" className="align-end">
                    <FormattedMessage id="sessionPanels.trades.sold" values={{ unit: asset.unit }} />
                  </th>
                  <th scope="col" className="align-end">
                    <FormattedMessage id="sessionPanels.trades.avgSell" />
                  </th>
                  <th scope="col" className="align-end">
                    <FormattedMessage id="sessionPanels.trades.avg" />
                  </th>
                </tr>
              </thead>
              <tbody className="mono">
                {summary.rows.map((row) => (
                  <tr key={row.clientCode} data-client-code={row.clientCode}>
                    <th scope="row">{row.clientCode}</th>
                    {cells(row)}
                  </tr>
                ))}
              </tbody>
              {summary.rows.length > 1 && (
                <tfoot className="mono">
                  <tr className="trades-summary-total">
                    <th scope="row">
                      <FormattedMessage id="sessionPanels.trades.total" />
                    </th>
                    {cells(summary.total)}
                  </tr>
                </tfoot>
              )}
            </table>
          </div>
        </div>
      )}
    </section>
  );
}

const noCodes: readonly string[] = [];

export function TradesSummaryCard({ asset }: { asset: AssetSpecification }) {
  const clientCodes = useUser()?.clientCodes ?? noCodes;
  const trades = useOwnAssetTrades(asset.id);
  const sessionDate = useMarketSession(asset.marketId)?.sessionDate ?? null;
  const summary = useMemo(() => (trades === null ? null : summarizeTrades(trades, clientCodes, asset.id, sessionDate)), [trades, clientCodes, asset.id, sessionDate]);
  return <TradesSummaryView asset={asset} summary={summary} sessionDate={sessionDate} />;
}
