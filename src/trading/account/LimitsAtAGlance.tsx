import { FormattedMessage, useIntl } from 'react-intl';
import { limitUsagePercent, type ClientLimits } from '../../../protocol/account.ts';
import { formatAmount } from './amounts.ts';
import { UsageBar } from './UsageBar.tsx';
import './Account.css';

/** Home page: each client's trading limit, exposure and headroom, with the usage bar. */
export function LimitsAtAGlance({ limits, amountDecimals }: { limits: readonly ClientLimits[]; amountDecimals: number }) {
  const intl = useIntl();
  if (limits.length === 0) {
    return (
      <p className="muted">
        <FormattedMessage id="home.limits.noClients" />
      </p>
    );
  }
  const money = (row: ClientLimits, value: number) => formatAmount(intl, value, amountDecimals, row.currency);
  return (
    <ul className="glance-list">
      {limits.map((row) => {
        const percent = limitUsagePercent(row.exposure, row.tradingLimit);
        return (
          <li key={row.client.code}>
            <div className="glance-head">
              <strong className="mono">{row.client.code}</strong>
              <span className="muted small">
                {percent === null ? <FormattedMessage id="account.limits.noLimit" /> : <FormattedMessage id="home.limits.used" values={{ percent }} />}
              </span>
            </div>
            {percent !== null && <UsageBar exposure={row.exposure} tradingLimit={row.tradingLimit} showValue={false} />}
            <dl className="glance-figures">
              <div>
                <dt>
                  <FormattedMessage id="home.limits.tradingLimit" />
                </dt>
                <dd>{row.tradingLimit === null ? '—' : money(row, row.tradingLimit)}</dd>
              </div>
              <div>
                <dt>
                  <FormattedMessage id="home.limits.exposure" />
                </dt>
                <dd>{money(row, row.exposure)}</dd>
              </div>
              <div>
                <dt>
                  <FormattedMessage id="home.limits.available" />
                </dt>
                <dd>{row.tradingLimit === null ? '—' : money(row, row.tradingLimit - row.exposure)}</dd>
              </div>
            </dl>
          </li>
        );
      })}
    </ul>
  );
}
