/**
 * Default REST calls behind the machines' injected actors (auth): fetch with the protocol schemas.
 * Every failure is thrown as an ApiCallError carrying the server's `{ code, params }`.
 */
import {
  loginResponseSchema,
  userInfoSchema,
  type LoginRequest,
  type LoginResponse,
  type ResetExpiredPasswordRequest,
  type UserInfo,
} from '../protocol/auth.ts';
import { orderUpdateSchema, type Order, type OrderUpdate } from '../protocol/market-data.ts';
import type { AddOrderRequest, ModifyOrderRequest } from '../protocol/orders.ts';
import { isErrorCode, type ErrorCode } from '../protocol/error-codes.ts';
import { errorResponseSchema } from '../protocol/reference.ts';

export type ErrorParamValue = string | number;

/** Pseudo code for a request that got no answer: 'Cannot reach server!'. */
export const NETWORK_ERROR = 'CLIENT_NETWORK_ERROR';

/** The codes a client error carries: the protocol catalogue's, and the network pseudo code. */
export type ClientErrorCode = ErrorCode | typeof NETWORK_ERROR;

/**
 * A refusal as the client keeps it: a catalogue code (or the network pseudo code) and its
 * parameters. A code this client does not know (a newer server's) arrives as UNKNOWN_ERROR with the
 * server's code in `params.code`, so the message can still name it.
 */
export interface ClientError {
  code: ClientErrorCode;
  params: Record<string, ErrorParamValue>;
}

/** The error every REST call of the client throws: one error model for the app and the machines. */
export class ApiCallError extends Error implements ClientError {
  readonly code: ClientErrorCode;
  readonly params: Record<string, ErrorParamValue>;
  /** HTTP status; 0 when the server could not be reached. */
  readonly status: number;
  constructor(code: ClientErrorCode, params: Record<string, ErrorParamValue> = {}, status = 0) {
    super(code);
    this.name = 'ApiCallError';
    this.code = code;
    this.params = params;
    this.status = status;
  }
}

/** A code and params from anywhere (the wire, a thrown error) as a ClientError. */
export function clientErrorOf(code: string, params: Record<string, ErrorParamValue> = {}): ClientError {
  if (code === NETWORK_ERROR || isErrorCode(code)) return { code, params };
  return { code: 'UNKNOWN_ERROR', params: { code } };
}

/** Anything thrown by a call, as `{ code, params }` (unknown shapes become UNKNOWN_ERROR). */
export function toClientError(error: unknown): ClientError {
  if (error && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string') {
    const params = (error as { params?: unknown }).params;
    return clientErrorOf((error as { code: string }).code, params && typeof params === 'object' ? { ...(params as Record<string, ErrorParamValue>) } : {});
  }
  return { code: 'UNKNOWN_ERROR', params: {} };
}

export interface ApiOptions {
  /** Default '/session/api'. */
  baseUrl?: string;
  fetch?: typeof fetch;
}

export interface RequestInit {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  token?: string | null | undefined;
  signal?: AbortSignal | undefined;
  /** Extra request headers (an Idempotency-Key). */
  headers?: Readonly<Record<string, string>> | undefined;
}

/** A multipart body (a contract upload) goes as it is: fetch sets its Content-Type with the boundary. */
function isFormBody(body: unknown): body is FormData {
  return typeof FormData !== 'undefined' && body instanceof FormData;
}

/**
 * One JSON request: the client's only HTTP call. Resolves with the body `parse` accepts; rejects with
 * ApiCallError carrying the server's `{ error: { code, params } }`, NETWORK_ERROR when the server
 * cannot be reached, or UNKNOWN_ERROR when the answer is not what the contract says. An abort is
 * rethrown as it is.
 */
export async function requestJson<T>(options: ApiOptions, path: string, parse: (body: unknown) => T | null | undefined, init: RequestInit): Promise<T> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
  const requestBody: BodyInit | undefined = init.body === undefined ? undefined : isFormBody(init.body) ? init.body : JSON.stringify(init.body);
  if (typeof requestBody === 'string') headers['Content-Type'] = 'application/json';
  if (init.token) headers['Authorization'] = `Bearer ${init.token}`;
  let response: Response;
  try {
    response = await doFetch(`${options.baseUrl ?? '/session/api'}${path}`, {
      method: init.method,
      headers,
      ...(requestBody !== undefined ? { body: requestBody } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    });
  } catch (cause) {
    if (cause && typeof cause === 'object' && (cause as { name?: unknown }).name === 'AbortError') throw cause;
    throw new ApiCallError(NETWORK_ERROR);
  }
  let body: unknown;
  if (response.status !== 204) {
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
  }
  if (!response.ok) {
    const refusal = errorResponseSchema.safeParse(body);
    if (!refusal.success) throw new ApiCallError('UNKNOWN_ERROR', {}, response.status);
    const { code, params } = clientErrorOf(refusal.data.error.code, refusal.data.error.params);
    throw new ApiCallError(code, params, response.status);
  }
  const parsed = parse(body);
  if (parsed === undefined || parsed === null) throw new ApiCallError('UNKNOWN_ERROR', {}, response.status);
  return parsed;
}

/** A downloaded file: its bytes, and the name the server gave it (Content-Disposition), if a plain one. */
export interface DownloadedFile {
  body: Blob;
  fileName: string | null;
}

/**
 * One file download (a PDF note or report) through the same client: the body as a Blob when the
 * answer is 2xx and of the expected type; refusals as requestJson rejects them.
 */
export async function requestFile(options: ApiOptions, path: string, accept: string, init: Pick<RequestInit, 'token' | 'signal'>): Promise<DownloadedFile> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const headers: Record<string, string> = { Accept: `${accept}, application/json` };
  if (init.token) headers['Authorization'] = `Bearer ${init.token}`;
  let response: Response;
  try {
    response = await doFetch(`${options.baseUrl ?? '/session/api'}${path}`, { method: 'GET', headers, ...(init.signal ? { signal: init.signal } : {}) });
  } catch (cause) {
    if (cause && typeof cause === 'object' && (cause as { name?: unknown }).name === 'AbortError') throw cause;
    throw new ApiCallError(NETWORK_ERROR);
  }
  if (!response.ok) {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    const refusal = errorResponseSchema.safeParse(body);
    if (!refusal.success) throw new ApiCallError('UNKNOWN_ERROR', {}, response.status);
    const { code, params } = clientErrorOf(refusal.data.error.code, refusal.data.error.params);
    throw new ApiCallError(code, params, response.status);
  }
  if (!(response.headers.get('Content-Type') ?? '').startsWith(accept)) throw new ApiCallError('UNKNOWN_ERROR', {}, response.status);
  // Only a plain name is taken (no path, no quoting tricks); anything else leaves the name to the caller.
  const named = /filename="([A-Za-z0-9_.-]{1,200})"/.exec(response.headers.get('Content-Disposition') ?? '');
  return { body: await response.blob(), fileName: named?.[1] ?? null };
}

export interface AuthApi {
  login(request: LoginRequest, signal?: AbortSignal): Promise<LoginResponse>;
  userInfo(token: string, signal?: AbortSignal): Promise<UserInfo>;
  resetExpiredPassword(request: ResetExpiredPasswordRequest, signal?: AbortSignal): Promise<LoginResponse>;
}

export function createAuthApi(options: ApiOptions = {}): AuthApi {
  return {
    login: (request, signal) =>
      requestJson(options, '/login', (b) => loginResponseSchema.safeParse(b).data, { method: 'POST', body: request, signal }),
    userInfo: (token, signal) => requestJson(options, '/user/info', (b) => userInfoSchema.safeParse(b).data, { method: 'GET', token, signal }),
    resetExpiredPassword: (request, signal) =>
      requestJson(options, '/password/reset-expired', (b) => loginResponseSchema.safeParse(b).data, { method: 'POST', body: request, signal }),
  };
}

/** What an order ticket sends. */
export type OrderSubmission =
  | { mode: 'add'; request: AddOrderRequest }
  | { mode: 'modify'; orderId: string; request: ModifyOrderRequest }
  | { mode: 'cancel' | 'suspend' | 'activate'; orderId: string };

export interface OrdersApi {
  /** POST /orders, PATCH /orders/:id, POST /orders/:id/{cancel,suspend,activate}: the order as it stands. */
  submit(submission: OrderSubmission, signal?: AbortSignal): Promise<Order>;
}

/**
 * Order calls with the current token. `getToken` returns null when requests are blocked (no session
 * or the token is expired: auth's requestToken); the call is then refused with AUTH_TOKEN_EXPIRED
 * without reaching the network.
 */
export function createOrdersApi(options: ApiOptions & { getToken: () => string | null; onReply?: (update: OrderUpdate) => void }): OrdersApi {
  // The reply is the order with the journal seq its state stands at: handed to onReply (the user's
  // orders take it like a queue update, the higher seq winning), the order to the caller.
  const parseOrder = (body: unknown) => {
    const update = orderUpdateSchema.safeParse(body).data;
    if (update) options.onReply?.(update);
    return update?.order;
  };
  return {
    submit(submission, signal) {
      const token = options.getToken();
      if (!token) return Promise.reject(new ApiCallError('AUTH_TOKEN_EXPIRED', {}, 0));
      switch (submission.mode) {
        case 'add':
          return requestJson(options, '/orders', parseOrder, { method: 'POST', body: submission.request, token, signal });
        case 'modify':
          return requestJson(options, `/orders/${encodeURIComponent(submission.orderId)}`, parseOrder, { method: 'PATCH', body: submission.request, token, signal });
        default:
          return requestJson(options, `/orders/${encodeURIComponent(submission.orderId)}/${submission.mode}`, parseOrder, { method: 'POST', token, signal });
      }
    },
  };
}
