import type { IntlShape } from 'react-intl';
import { toDisplayNumber } from '../../../protocol/decimal.ts';

/** A money amount in minor units as the locale writes it, with its currency ('4.000,00 RON' / 'RON 4,000.00'). */
export function formatAmount(intl: IntlShape, minor: number, decimals: number, currency: string): string {
  return intl.formatNumber(toDisplayNumber(minor, decimals), {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
}
