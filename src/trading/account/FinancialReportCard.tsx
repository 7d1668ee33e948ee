import { useId, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { CLEARING_AMOUNT_DECIMALS, type FinancialInfo, type FinancialReport, type MarginParts } from '../../../protocol/clearing.ts';
import { toApiError } from '../../api/errors.ts';
import { fetchFinancialInfo, fetchFinancialReports } from '../../clearing/clearing-api.ts';
import { useClearingData, type ClearingChangeKind } from '../../clearing/clearing-live.ts';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { formatApiError } from '../../i18n/format-error.ts';
import { formatExchangeDateTime, formatMinor } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/messages/index.ts';
import { formatAmount } from './amounts.ts';
import './FinancialReport.css';

/** What moves margins: every clearing change but a nomination, and (withTrading) own orders and trades. */
const MARGIN_CHANGES: readonly ClearingChangeKind[] = ['settlement', 'payment', 'margin_call', 'warranty', 'settlement_price'];

const marginRows: ReadonlyArray<{ key: 'initialMargin' | 'variationMargin' | 'deliveryMargin'; label: MessageKey }> = [
  { key: 'initialMargin', label: 'clearing.report.initialMargin' },
  { key: 'variationMargin', label: 'clearing.report.variationMargin' },
  { key: 'deliveryMargin', label: 'clearing.report.deliveryMargin' },
];
const partColumns: ReadonlyArray<{ key: keyof MarginParts; label: MessageKey }> = [
  { key: 'orderPart', label: 'clearing.report.orderPart' },
  { key: 'transactionPart', label: 'clearing.report.transactionPart' },
  { key: 'unlocked', label: 'clearing.report.unlocked' },
  { key: 'total', label: 'clearing.report.total' },
];

function Money({ intl, report, value, decimals }: { intl: IntlShape; report: FinancialReport; value: number | null; decimals: number }) {
  return <span className="mono">{value === null ? '—' : formatAmount(intl, value, decimals, report.currency)}</span>;
}

/** One client's portfolio margins: the three margins in parts, the limits, and the margin call with and without the unpaid amounts. */
function ClientReport({ report, decimals }: { report: FinancialReport; decimals: number }) {
  const intl = useIntl();
  const money = (value: number | null) => <Money intl={intl} report={report} value={value} decimals={decimals} />;
  const views = [
    { key: 'withoutUnpaid', label: 'clearing.report.withoutUnpaid', figures: report.withoutUnpaid },
    { key: 'withUnpaid', label: 'clearing.report.withUnpaid', figures: report.withUnpaid },
  ] as const;
  return (
    <div className="financial-report">
      <table className="figures-table" aria-label={intl.formatMessage({ id: 'clearing.report.margins' }, { client: report.clientCode })}>
        <thead>
          <tr>
            <th scope="col">
              <FormattedMessage id="clearing.report.margin" />
            </th>
            {partColumns.map((column) => (
              <th key={column.key} scope="col" className="align-end">
                <FormattedMessage id={column.label} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {marginRows.map((row) => (
            <tr key={row.key}>
              <th scope="row">
                <FormattedMessage id={row.label} />
              </th>
              {partColumns.map((column) => (
                <td key={column.key} className="align-end">
                  {money(report[row.key][column.key])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="figures-list">
        <div>
          <dt>
            <FormattedMessage id="clearing.report.clearingLimit" />
          </dt>
          <dd>{money(report.clearingLimit)}</dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="clearing.report.tradingLimit" />
          </dt>
          <dd>{report.tradingLimit === null ? <FormattedMessage id="account.limits.noLimit" /> : money(report.tradingLimit)}</dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="clearing.report.totalExposure" />
          </dt>
          <dd>{money(report.totalExposure)}</dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="clearing.report.unpaidAmount" />
          </dt>
          <dd>{money(report.unpaidAmount)}</dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="clearing.report.engineFunds" />
          </dt>
          <dd>{report.engineFunds === null ? <FormattedMessage id="account.limits.notChecked" /> : money(report.engineFunds)}</dd>
        </div>
      </dl>
      <table className="figures-table margin-call-table" aria-label={intl.formatMessage({ id: 'clearing.report.marginCallTable' }, { client: report.clientCode })}>
        <thead>
          <tr>
            <td />
            {views.map((view) => (
              <th key={view.key} scope="col" className="align-end">
                <FormattedMessage id={view.label} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">
              <FormattedMessage id="clearing.report.currentMarginRequirement" />
            </th>
            {views.map((view) => (
              <td key={view.key} className="align-end">
                {money(view.figures.currentMarginRequirement)}
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row">
              <FormattedMessage id="clearing.report.creditLimitOrMarginCall" />
            </th>
            {views.map((view) => (
              <td key={view.key} className="align-end">
                {view.figures.marginCall > 0 ? (
                  <span className="margin-call">
                    <FormattedMessage id="clearing.report.marginCall" values={{ amount: formatAmount(intl, view.figures.marginCall, decimals, report.currency) }} />
                  </span>
                ) : (
                  <FormattedMessage id="clearing.report.creditLimit" values={{ amount: formatAmount(intl, view.figures.creditLimit, decimals, report.currency) }} />
                )}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/** The restrictions clearing places on the client: the imbalance one and the tradeable quantity, per asset. */
function ClientInfo({ info }: { info: FinancialInfo }) {
  const intl = useIntl();
  const asset = (assetId: string) => (assetId === '*' ? intl.formatMessage({ id: 'clearing.info.everyAsset' }) : assetId);
  const quantity = (value: number | null, decimals: number) => (value === null ? intl.formatMessage({ id: 'clearing.info.noLimit' }) : formatMinor(intl, value, decimals));
  return (
    <div className="financial-info">
      <h3 className="subheading">
        <FormattedMessage id="clearing.info.title" />
      </h3>
      <InfoTable
        titleId="clearing.info.imbalance"
        columns={[{ id: 'clearing.col.asset' }, { id: 'clearing.col.way' }, { id: 'clearing.info.quantity', end: true }]}
        emptyId="clearing.info.noImbalance"
        rows={info.imbalance.map((row) => ({
          key: `${row.assetId}:${row.way}`,
          cells: [asset(row.assetId), <FormattedMessage key="way" id={enumLabelKey('way', row.way)} />, formatMinor(intl, row.quantity, row.quantityDecimals)],
        }))}
      />
      <InfoTable
        titleId="clearing.info.tradeableQuantity"
        columns={[{ id: 'clearing.col.asset' }, { id: 'clearing.info.bid', end: true }, { id: 'clearing.info.ask', end: true }]}
        emptyId="clearing.info.noTradeableLimit"
        rows={info.tradeableQuantity.map((row) => ({
          key: row.assetId,
          cells: [asset(row.assetId), quantity(row.bid, row.quantityDecimals), quantity(row.ask, row.quantityDecimals)],
        }))}
      />
    </div>
  );
}

/** A small captioned table of the financial info: the first column an asset, figures aligned to the end. */
function InfoTable({ titleId, columns, emptyId, rows }: { titleId: MessageKey; columns: Array<{ id: MessageKey; end?: boolean }>; emptyId: MessageKey; rows: Array<{ key: string; cells: ReactNode[] }> }) {
  const intl = useIntl();
  const cellClass = (index: number) => (index === 0 ? 'mono' : columns[index]?.end ? 'align-end mono' : undefined);
  return (
    <table className="figures-table" aria-label={intl.formatMessage({ id: titleId })}>
      <caption>
        <FormattedMessage id={titleId} />
      </caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.id} scope="col" className={column.end ? 'align-end' : undefined}>
              <FormattedMessage id={column.id} />
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={columns.length} className="muted">
              <FormattedMessage id={emptyId} />
            </td>
          </tr>
        ) : (
          rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, index) => (
                <td key={index} className={cellClass(index)}>
                  {cell}
                </td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

/**
 * SPEC §3 Financial report (portfolio margins) and financial info, per client, beside the limits;
 * fetched again when clearing reports a change or the user's orders and trades move the margins.
 */
export function FinancialReportCard() {
  const intl = useIntl();
  const selectId = useId();
  const reports = useClearingData(fetchFinancialReports, MARGIN_CHANGES, { withTrading: true });
  const infos = useClearingData(fetchFinancialInfo, MARGIN_CHANGES, { withTrading: true });
  const [chosen, setChosen] = useState<string | null>(null);
  const items = reports.data?.items ?? [];
  const report = items.find((item) => item.clientCode === chosen) ?? items[0];
  const info = report ? infos.data?.items.find((item) => item.clientCode === report.clientCode) : undefined;
  const decimals = reports.data?.amountDecimals ?? CLEARING_AMOUNT_DECIMALS;
  const error = reports.status === 'error' ? reports.error : infos.status === 'error' ? infos.error : null;
  return (
    <section className="card grid-span-all" aria-labelledby="financial-report-title">
      <div className="card-header">
        <h2 id="financial-report-title">
          <FormattedMessage id="clearing.report.title" />
        </h2>
        <span className="financial-report-meta muted small">
          {items.length > 1 && (
            <>
              <label htmlFor={selectId}>
                <FormattedMessage id="clearing.col.client" />
              </label>
              <select id={selectId} value={report?.clientCode ?? ''} onChange={(event) => setChosen(event.target.value)}>
                {items.map((item) => (
                  <option key={item.clientCode} value={item.clientCode}>
                    {item.clientCode} · {item.clientName}
                  </option>
                ))}
              </select>
            </>
          )}
          {report && <FormattedMessage id="account.figures.updatedAt" values={{ time: formatExchangeDateTime(intl, report.at) }} />}
        </span>
      </div>
      {error !== null && (
        <div className="alert alert-error" role="alert">
          {formatApiError(intl, toApiError(error))}{' '}
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => {
              reports.reload();
              infos.reload();
            }}
          >
            <FormattedMessage id="clearing.retry" />
          </button>
        </div>
      )}
      {report ? (
        <div className="financial-report-body">
          <ClientReport report={report} decimals={decimals} />
          {info && <ClientInfo info={info} />}
        </div>
      ) : reports.status === 'loading' ? (
        <p className="spinner-line muted">
          <span className="spinner" aria-hidden="true" />
          <FormattedMessage id="table.loading" />
        </p>
      ) : (
        error === null && (
          <p className="muted">
            <FormattedMessage id="clearing.report.empty" />
          </p>
        )
      )}
    </section>
  );
}
