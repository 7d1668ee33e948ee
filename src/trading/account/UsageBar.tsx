import { useIntl } from 'react-intl';
import { LIMIT_WARNING_PERCENT, limitUsagePercent } from '../../../protocol/account.ts';

export type UsageLevel = 'normal' | 'warning' | 'over';

/** Above LIMIT_WARNING_PERCENT the bar takes the warning colour; at or over the limit the error colour. */
export function usageLevel(percent: number): UsageLevel {
  if (percent >= 100) return 'over';
  return percent > LIMIT_WARNING_PERCENT ? 'warning' : 'normal';
}

/** Exposure against the trading limit as a bar with its percentage; nothing without a limit. */
export function UsageBar({ exposure, tradingLimit, showValue = true }: { exposure: number; tradingLimit: number | null; showValue?: boolean }) {
  const intl = useIntl();
  const percent = limitUsagePercent(exposure, tradingLimit);
  if (percent === null) return <span className="muted">{intl.formatMessage({ id: 'account.limits.noLimit' })}</span>;
  const level = usageLevel(percent);
  const label = intl.formatMessage({ id: 'account.limits.usageOf' }, { percent });
  return (
    <span className={`usage usage-${level}`} title={level === 'normal' ? label : intl.formatMessage({ id: 'account.limits.warning' }, { percent: LIMIT_WARNING_PERCENT })}>
      <span className="usage-track" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.min(percent, 100)} data-level={level}>
        <span className="usage-fill" style={{ width: `${Math.min(percent, 100)}%` }} />
      </span>
      {showValue && <span className="usage-value">{intl.formatNumber(percent / 100, { style: 'percent' })}</span>}
    </span>
  );
}
