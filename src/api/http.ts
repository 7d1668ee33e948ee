import { requestFile, requestJson as requestJsonOnce, type DownloadedFile } from '../../streams/api.ts';
import { activeToken, endSession } from '../auth/session.ts';
import { loadingBar } from '../components/loading-bar.ts';
import { ApiRequestError } from './errors.ts';

/** The REST API lives under the app's base path (SPEC §7 paths are relative to it). */
export const API_BASE = '/session/api';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  token?: string | null;
  signal?: AbortSignal;
  /** Extra headers (an Idempotency-Key). */
  headers?: Readonly<Record<string, string>>;
}

/** Validates a success body; returns null when it does not match the contract. */
export type BodyParser<T> = (body: unknown) => T | null;

/** For answers without a body (204). */
export const noBody: BodyParser<true> = () => true;

/**
 * One JSON request through the client's one HTTP client (streams/api.ts requestJson), under the
 * loading bar (which only shows after its 200 ms throttle, so only long requests show it).
 */
export async function requestJson<T>(path: string, parse: BodyParser<T>, options: RequestOptions = {}): Promise<T> {
  const done = loadingBar.start();
  try {
    return await requestJsonOnce({ baseUrl: API_BASE }, path, parse, {
      method: options.method ?? 'GET',
      body: options.body,
      token: options.token,
      signal: options.signal,
      headers: options.headers,
    });
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

/** A file (a PDF) as the signed-in user, under the loading bar; refusals as authedRequest's. */
export async function authedDownload(path: string, accept: string, signal?: AbortSignal): Promise<DownloadedFile> {
  const token = activeToken();
  if (!token) throw new ApiRequestError('AUTH_TOKEN_EXPIRED', {}, 401);
  const done = loadingBar.start();
  try {
    return await requestFile({ baseUrl: API_BASE }, path, accept, { token, signal });
  } catch (error) {
    if (isTokenError(error)) endSession('expired');
    throw error;
  } finally {
    done();
  }
}
