/** The client's one HTTP client: success, refusals typed by the catalogue, no answer, a broken answer. */
import { describe, expect, it } from 'vitest';
import { ApiCallError, NETWORK_ERROR, requestJson, toClientError } from '../../streams/api.ts';
import { ApiRequestError } from '../../src/api/errors.ts';

const json = (status: number, body: unknown) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ok = (body: unknown) => (body as { ok?: boolean } | undefined)?.ok === true ? (body as { ok: true }) : undefined;

async function refusalOf(promise: Promise<unknown>): Promise<ApiCallError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiCallError;
  }
  throw new Error('expected a refusal');
}

describe('requestJson', () => {
  it('sends the method, body and bearer token to the base URL and returns the parsed body', async () => {
    const seen: Array<[string, RequestInit]> = [];
    const fetchImpl = (async (url: string, init: RequestInit) => {
      seen.push([url, init]);
      return json(200, { ok: true });
    }) as unknown as typeof fetch;
    const body = await requestJson({ fetch: fetchImpl, baseUrl: '/api' }, '/x', ok, { method: 'PUT', body: { a: 1 }, token: 'jwt' });
    expect(body).toEqual({ ok: true });
    expect(seen[0]![0]).toBe('/api/x');
    expect(seen[0]![1]).toMatchObject({ method: 'PUT', body: '{"a":1}', headers: { Authorization: 'Bearer jwt', 'Content-Type': 'application/json' } });
  });

  it('throws the catalogue code and params of a refusal, with the HTTP status', async () => {
    const fetchImpl = (async () => json(409, { error: { code: 'SESSION_PHASE_FORBIDS', params: { phase: 'closed' } } })) as typeof fetch;
    const error = await refusalOf(requestJson({ fetch: fetchImpl }, '/x', ok, { method: 'POST' }));
    expect(error).toBeInstanceOf(ApiCallError);
    // The app's name for it is the same class: one error model.
    expect(error).toBeInstanceOf(ApiRequestError);
    expect([error.code, error.params, error.status]).toEqual(['SESSION_PHASE_FORBIDS', { phase: 'closed' }, 409]);
  });

  it('keeps a code it does not know as UNKNOWN_ERROR naming it', async () => {
    const fetchImpl = (async () => json(418, { error: { code: 'BRAND_NEW_CODE', params: {} } })) as typeof fetch;
    const error = await refusalOf(requestJson({ fetch: fetchImpl }, '/x', ok, { method: 'GET' }));
    expect([error.code, error.params]).toEqual(['UNKNOWN_ERROR', { code: 'BRAND_NEW_CODE' }]);
    expect(toClientError({ code: 'ALSO_NEW', params: { a: 1 } })).toEqual({ code: 'UNKNOWN_ERROR', params: { code: 'ALSO_NEW' } });
  });

  it('says NETWORK_ERROR when nothing answers, UNKNOWN_ERROR for an answer off the contract, and lets an abort through', async () => {
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    expect((await refusalOf(requestJson({ fetch: down }, '/x', ok, { method: 'GET' }))).code).toBe(NETWORK_ERROR);
    const odd = (async () => json(200, { something: 'else' })) as typeof fetch;
    expect((await refusalOf(requestJson({ fetch: odd }, '/x', ok, { method: 'GET' }))).code).toBe('UNKNOWN_ERROR');
    const garbled = (async () => new Response('<html>', { status: 502 })) as typeof fetch;
    expect((await refusalOf(requestJson({ fetch: garbled }, '/x', ok, { method: 'GET' }))).status).toBe(502);
    const aborted = (async () => {
      throw new DOMException('aborted', 'AbortError');
    }) as typeof fetch;
    await expect(requestJson({ fetch: aborted }, '/x', ok, { method: 'GET' })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
