import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthService } from '../../../server/auth/auth-service.ts';
import { createHttpApp } from '../../../server/http/app.ts';
import type { Store } from '../../../server/store/store.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const publicIcon = readFileSync(new URL('../../../public/favicon.ico', import.meta.url));

describe('favicon on the exchange server', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(); // no built client
  });
  afterAll(async () => {
    await t?.server.close();
  });

  it('serves the icon under /session/ and at the root, from public/ when the client is not built', async () => {
    for (const path of ['/session/favicon.ico', '/favicon.ico']) {
      const response = await fetch(`http://127.0.0.1:${t.server.port}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe('image/x-icon');
      const body = Buffer.from(await response.arrayBuffer());
      expect(body.subarray(0, 4), path).toEqual(Buffer.from([0, 0, 1, 0])); // an ICO header
      expect(body.equals(publicIcon), path).toBe(true);
    }
    const svg = await fetch(`http://127.0.0.1:${t.server.port}/session/favicon.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(await svg.text()).toContain('<svg');
  });

  it('the icon is a real ICO with 16, 32 and 48 px images', () => {
    expect(publicIcon.readUInt16LE(4)).toBe(3);
    expect([0, 1, 2].map((index) => publicIcon.readUInt8(6 + index * 16))).toEqual([16, 32, 48]);
  });
});

describe('favicon with a built client', () => {
  const clientDir = mkdtempSync(join(tmpdir(), 'client-'));
  afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

  it("serves the build's icon under /session/ and at the root (no route clash with the static files)", async () => {
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(clientDir, 'favicon.ico'), Buffer.from([0, 0, 1, 0, 9, 9]));
    const app = await createHttpApp({ store: {} as Store, auth: {} as AuthService, clientDir });
    try {
      for (const url of ['/session/favicon.ico', '/favicon.ico']) {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        expect(response.rawPayload.equals(Buffer.from([0, 0, 1, 0, 9, 9])), url).toBe(true);
      }
      // The build has no SVG icon here: public/'s stands in.
      expect((await app.inject({ method: 'GET', url: '/session/favicon.svg' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
