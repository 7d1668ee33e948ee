import type { IntlShape } from 'react-intl';
import { errorCatalogue, isErrorCode } from '../../protocol/error-codes.ts';
import { NETWORK_ERROR, type ApiErrorLike, type ErrorParamValue } from '../api/errors.ts';
import type { MessageKey } from './messages/index.ts';

/** Params that carry an ISO timestamp; shown in exchange time (SPEC §3: EET). */
const TIMESTAMP_PARAMS = new Set(['validity', 'endsAt']);
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const EXCHANGE_TIME_ZONE = 'Europe/Bucharest';

/** Placeholder for a declared param the server left out, so a message never shows `{bound}`. */
const MISSING_PARAM = '…';
/** Qualifiers a message reads well without ('0.05 RON' or '0.05'): left out when absent or empty. */
const OPTIONAL_PARAMS = new Set(['currency', 'unit']);

/**
 * Params that carry a decimal as the server writes it ("1000.000", "0.05"): shown in the locale's
 * number format with the same decimals ("1.000,000" in Romanian), so a step or a bound reads as the
 * ticket's own numbers do.
 */
const DECIMAL_PARAMS = new Set(['step', 'min', 'max', 'bound', 'previous', 'quantity', 'limit', 'excess', 'maxDecrease', 'amountToDeposit', 'settlementPrice']);
const PLAIN_DECIMAL = /^-?\d+(?:\.(\d+))?$/;

/** A decimal param in the locale's format; anything else as it is. */
export function displayDecimal(intl: IntlShape, value: ErrorParamValue): ErrorParamValue {
  if (typeof value !== 'string') return value;
  const match = PLAIN_DECIMAL.exec(value);
  if (!match) return value;
  const decimals = match[1]?.length ?? 0;
  return intl.formatNumber(Number(value), { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** Params of a message in the locale's formats: decimals by name, the rest as they are. */
export function displayParams(intl: IntlShape, params: Record<string, ErrorParamValue> | undefined): Record<string, ErrorParamValue> {
  const values: Record<string, ErrorParamValue> = {};
  for (const [name, value] of Object.entries(params ?? {})) values[name] = DECIMAL_PARAMS.has(name) ? displayDecimal(intl, value) : value;
  return values;
}

function displayValue(intl: IntlShape, name: string, value: ErrorParamValue | undefined): ErrorParamValue {
  if (OPTIONAL_PARAMS.has(name) && (value === undefined || value === null)) return '';
  if (value === undefined || value === null) return MISSING_PARAM;
  if (DECIMAL_PARAMS.has(name)) return displayDecimal(intl, value);
  if (TIMESTAMP_PARAMS.has(name) && typeof value === 'string' && ISO_DATE_TIME.test(value)) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) {
      return intl.formatDate(date, { dateStyle: 'short', timeStyle: 'medium', timeZone: EXCHANGE_TIME_ZONE });
    }
  }
  return value;
}

/**
 * The user's message for a refusal: `error.<CODE>` filled with the code's params.
 * Network failure -> 'Cannot reach server!'; a code not in the catalogue -> 'Error: {code}'.
 */
export function formatApiError(intl: IntlShape, error: ApiErrorLike): string {
  if (error.code === NETWORK_ERROR) return intl.formatMessage({ id: 'error.client.network' });
  // A code this client does not know comes as UNKNOWN_ERROR with the server's code (streams/api.ts).
  const unknown = error.code === 'UNKNOWN_ERROR' ? error.params?.['code'] : undefined;
  if (typeof unknown === 'string') return intl.formatMessage({ id: 'error.client.unknownCode' }, { code: unknown });
  const key = `error.${error.code}` as MessageKey;
  if (!isErrorCode(error.code) || !(key in intl.messages)) {
    return intl.formatMessage({ id: 'error.client.unknownCode' }, { code: error.code });
  }
  const values: Record<string, ErrorParamValue> = {};
  for (const name of errorCatalogue[error.code].params as readonly string[]) {
    values[name] = displayValue(intl, name, error.params?.[name]);
  }
  return tidy(intl.formatMessage({ id: key }, values));
}

/** No space left before punctuation or at the ends where an optional qualifier was empty. */
export function tidy(text: string): string {
  return text.replace(/ +(?=[.,;:!?)]|$)/g, '').replace(/ {2,}/g, ' ').trim();
}
