/** The client's view of a refusal: a catalogue code (or a client-side pseudo code) and its params. */
export type ErrorParamValue = string | number;

export interface ApiErrorLike {
  code: string;
  params?: Readonly<Record<string, ErrorParamValue>> | undefined;
}

/** Pseudo code for a request that never got an answer (fetch rejected): 'Cannot reach server!'. */
export const NETWORK_ERROR = 'CLIENT_NETWORK_ERROR';

export class ApiRequestError extends Error implements ApiErrorLike {
  readonly code: string;
  readonly params: Readonly<Record<string, ErrorParamValue>>;
  /** HTTP status, or 0 when the server could not be reached. */
  readonly status: number;

  constructor(code: string, params: Record<string, ErrorParamValue> = {}, status = 0) {
    super(code);
    this.name = 'ApiRequestError';
    this.code = code;
    this.params = params;
    this.status = status;
  }
}

/** Anything thrown by a request, as something formatApiError can render. */
export function toApiError(error: unknown): ApiErrorLike {
  if (error instanceof ApiRequestError) return error;
  return { code: 'UNKNOWN_ERROR', params: {} };
}
