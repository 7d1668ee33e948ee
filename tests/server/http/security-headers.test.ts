import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

/** The CSP directives of a header, by name. */
function directives(csp: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

describe('security headers on every kind of response', () => {
  let t: TestServer;
  let clientDir: string;
  let origin: string;
  let token: string;
  beforeAll(async () => {
    // A stand-in for the Vite build: index.html and one hashed asset.
    clientDir = mkdtempSync(join(tmpdir(), 'security-headers-client-'));
    mkdirSync(join(clientDir, 'assets'));
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><html><head><script type="module" src="/session/assets/index-abc.js"></script></head><body></body></html>');
    writeFileSync(join(clientDir, 'assets', 'index-abc.js'), 'console.log(1);');
    t = await startTestServer({ clientDir });
    origin = `http://127.0.0.1:${t.server.port}`;
    token = await t.login('broker1');
  });
  afterAll(async () => {
    await t?.server.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const responses = () => [
    { name: 'the page', path: '/session/trading', init: {}, status: 200, api: false },
    { name: 'the page asked with HEAD', path: '/session/trading', init: { method: 'HEAD' }, status: 200, api: false },
    { name: 'a static file', path: '/session/assets/index-abc.js', init: {}, status: 200, api: false },
    { name: 'an API route', path: '/session/api/user/info', init: { headers: { authorization: `Bearer ${token}` } }, status: 200, api: true },
    { name: 'an API refusal', path: '/session/api/user/info', init: {}, status: 401, api: true },
    { name: 'an API 404', path: '/session/api/no/such/route', init: {}, status: 404, api: true },
    { name: 'a 404 outside the app', path: '/elsewhere', init: {}, status: 404, api: false },
    { name: 'a document download', path: '/session/api/assets/GSPOT-DA/documents/nope.pdf', init: {}, status: 404, api: true },
  ];

  it('every response carries the CSP, nosniff, DENY framing and a referrer policy', async () => {
    for (const { name, path, init, status } of responses()) {
      const response = await fetch(origin + path, init);
      expect(response.status, name).toBe(status);
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('default-src'), name).toEqual(["'self'"]);
      expect(csp.get('script-src'), name).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors'), name).toEqual(["'none'"]);
      expect(csp.get('object-src'), name).toEqual(["'none'"]);
      expect(csp.get('connect-src'), name).toEqual(["'self'", `ws://127.0.0.1:${t.server.port}`, `wss://127.0.0.1:${t.server.port}`]);
      expect(csp.has('upgrade-insecure-requests'), name).toBe(false);
      // Nothing anywhere may run strings as code.
      expect([...csp.values()].flat(), name).not.toContain("'unsafe-eval'");
      expect(response.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), name).toBe('DENY');
      expect(response.headers.get('referrer-policy'), name).toBe('no-referrer');
    }
  });

  it('API answers, refusals included, are never cached; the page and its files keep their own caching', async () => {
    for (const { name, path, init, api } of responses()) {
      const response = await fetch(origin + path, init);
      if (api) expect(response.headers.get('cache-control'), name).toBe('no-store');
      else expect(response.headers.get('cache-control') ?? '', name).not.toBe('no-store');
    }
    const page = await fetch(`${origin}/session/`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
  });

  it('a Host header that is not a host name is left out of connect-src instead of being echoed', async () => {
    const { request } = await import('node:http');
    const csp = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: t.server.port, path: '/session/', headers: { host: "evil.example; script-src 'unsafe-inline'" } }, (response) => {
        response.resume();
        resolve(String(response.headers['content-security-policy']));
      });
      req.on('error', reject);
      req.end();
    });
    expect(directives(csp).get('connect-src')).toEqual(["'self'"]);
    expect(directives(csp).get('script-src')).toEqual(["'self'"]);
  });

  it('each Host gets its own socket sources, also after more hosts than the headers are remembered for', async () => {
    const { request } = await import('node:http');
    const cspFor = (host: string) =>
      new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: t.server.port, path: '/session/api/health', headers: { host } }, (response) => {
          response.resume();
          resolve(String(response.headers['content-security-policy']));
        });
        req.on('error', reject);
        req.end();
      });
    const hosts = Array.from({ length: 70 }, (_, i) => `desk-${i}.example:8080`);
    for (const host of [...hosts, hosts[0]!, hosts[69]!, hosts[1]!]) {
      expect(directives(await cspFor(host)).get('connect-src'), host).toEqual(["'self'", `ws://${host}`, `wss://${host}`]);
    }
  });

  it('a request the HTTP parser refuses is answered in the catalogue with nosniff and no-store', async () => {
    const { connect } = await import('node:net');
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(t.server.port, '127.0.0.1', () => socket.write('POST /session/api/login HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(raw).toMatch(/\r\nCache-Control: no-store\r\n/);
    expect(raw).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).error.code).toBe('REQUEST_INVALID');
  });
});
