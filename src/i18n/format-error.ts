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

function displayValue(intl: IntlShape, name: string, value: ErrorParamValue | undefined): ErrorParamValue {
  if (value === undefined || value === null) return MISSING_PARAM;
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
  const key = `error.${error.code}` as MessageKey;
  if (!isErrorCode(error.code) || !(key in intl.messages)) {
    return intl.formatMessage({ id: 'error.client.unknownCode' }, { code: error.code });
  }
  const values: Record<string, ErrorParamValue> = {};
  for (const name of errorCatalogue[error.code].params as readonly string[]) {
    values[name] = displayValue(intl, name, error.params?.[name]);
  }
  return intl.formatMessage({ id: key }, values);
}
