/**
 * The client's one error model lives with its one HTTP client (streams/api.ts): ApiCallError with a
 * code of protocol's catalogue (or the network pseudo code) and its params. These names stay for
 * the views that import them from here.
 */
import type { ErrorParamValue } from '../../streams/api.ts';

export { ApiCallError as ApiRequestError, NETWORK_ERROR, toClientError as toApiError, type ErrorParamValue } from '../../streams/api.ts';

/** What a message can be made of: any code (one the client does not know says 'Error: {code}') and params. */
export interface ApiErrorLike {
  code: string;
  params?: Readonly<Record<string, ErrorParamValue>> | undefined;
}
