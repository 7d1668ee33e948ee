import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

describe('refusals Fastify makes before any hook runs', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.server.close();
  });

  it('a URL the router cannot decode is 400 REQUEST_INVALID in the catalogue, with the security headers (found by the route fuzzer)', async () => {
    for (const path of ['/session/api/orders/%ff', '/session/api/workspaces/%ff', '/session/api/assets/%2e%2e/documents/%']) {
      const response = await fetch(`${t.api.replace('/session/api', '')}${path}`);
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toEqual({ error: { code: 'REQUEST_INVALID', params: { field: 'url', issue: 'malformed' } } });
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('cache-control'), path).toBe('no-store');
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });

  it('a path parameter over the router limit is 400 REQUEST_INVALID naming the URL', async () => {
    const response = await fetch(`${t.api}/orders/${'a'.repeat(300)}/events`);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toEqual({ code: 'REQUEST_INVALID', params: { field: 'url', issue: 'too_long' } });
  });
});
