import { errorResponseSchema } from '../../protocol/reference.ts';
import { activeToken, endSession } from '../auth/session.ts';
import { loadingBar } from '../components/loading-bar.ts';
import { ApiRequestError, NETWORK_ERROR } from './errors.ts';

/** The REST API lives under the app's base path (SPEC §7 paths are relative to it). */
export const API_BASE = '/session/api';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  token?: string | null;
  signal?: AbortSignal;
}

/** Validates a success body; returns null when it does not match the contract. */
export type BodyParser<T> = (body: unknown) => T | null;

/** For answers without a body (204). */
export const noBody: BodyParser<true> = () => true;

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/**
 * One JSON request. Resolves with the parsed body; rejects with ApiRequestError carrying the
 * server's `{ error: { code, params } }`, NETWORK_ERROR when the server cannot be reached, or
 * UNKNOWN_ERROR when the answer is not what the contract says. Every request runs under the loading
 * bar (which only shows after its 200 ms throttle, so only long requests show it).
 */
export async function requestJson<T>(path: string, parse: BodyParser<T>, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;

  const done = loadingBar.start();
  try {
    let response: Response;
    try {
      response = await fetch(`${API_BASE}${path}`, {
        method: options.method ?? 'GET',
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw new ApiRequestError(NETWORK_ERROR);
    }

    const body = await readJson(response);
    if (!response.ok) {
      const refusal = errorResponseSchema.safeParse(body);
      if (refusal.success) throw new ApiRequestError(refusal.data.error.code, refusal.data.error.params, response.status);
      throw new ApiRequestError('UNKNOWN_ERROR', {}, response.status);
    }
    const parsed = parse(body);
    if (parsed === null) throw new ApiRequestError('UNKNOWN_ERROR', {}, response.status);
    return parsed;
  } finally {
    done();
  }
}

export function isTokenError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError && error.code.startsWith('AUTH_TOKEN_');
}

/**
 * A request as the signed-in user. SPEC §7: a request is blocked (never sent) when the token has
 * expired (500 ms early, SPEC §4); a token the server refuses ends the session.
 */
export async function authedRequest<T>(path: string, parse: BodyParser<T>, options: Omit<RequestOptions, 'token'> = {}): Promise<T> {
  const token = activeToken();
  if (!token) throw new ApiRequestError('AUTH_TOKEN_EXPIRED', {}, 401);
  try {
    return await requestJson(path, parse, { ...options, token });
  } catch (error) {
    if (isTokenError(error)) endSession('expired');
    throw error;
  }
}
