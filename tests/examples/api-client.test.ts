import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUser, startTestServer, type TestServer } from '../helpers/test-server.ts';

// The example client of examples/api-client.ts, run as a customer runs it (tsx, a child process)
// against the real server; what it did is checked in the server's own state.
const SCRIPT = join(import.meta.dirname, '../../examples/api-client.ts');
const asset = 'GSPOT-DA';
let t: TestServer;

beforeAll(async () => {
  // A conflation window as in production: the local book follows conflated deltas.
  t = await startTestServer({ conflateMs: 20 });
});
afterAll(async () => {
  await t?.server.close();
});

function runExample(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], { env: { ...process.env, ...env }, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('examples/api-client.ts against the real server', () => {
  it('signs in with a code, keeps the book, places an order with an idempotency key and cancels it, then exits 0', async () => {
    // The server's clock is the test's: the code is the one valid on it (the script would compute one from a secret).
    t.clock.nextTotpStep();
    const run = await runExample({
      EXCHANGE_URL: `http://127.0.0.1:${t.server.port}`,
      EXCHANGE_USER: 'broker1',
      EXCHANGE_PASSWORD: demoUser('broker1').password,
      EXCHANGE_CODE: t.codeFor('broker1'),
      ASSET_ID: asset,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('book snapshot seq');
    expect(run.stdout).toContain('local book');

    // The order the script names, by its idempotency key, is known to the server: placed once, cancelled.
    const [, orderId, key] = /placed order (\d+) \(key ([\w-]+)\)/.exec(run.stdout) ?? [];
    expect(orderId).toBeDefined();
    const user = await t.server.store.users.findByUsername('broker1');
    expect(user).not.toBeNull();
    expect(t.server.sequencer.idempotentResult(user!.id, key!)?.orderId).toBe(Number(orderId));
    expect(t.server.sequencer.engine.getOrder(Number(orderId))).toBeUndefined();

    const token = await t.login('broker1');
    const events = await t.get(`/orders/${orderId}/events`, token);
    expect(events.status).toBe(200);
    expect(events.body.order).toMatchObject({ orderId, assetId: asset, way: 'bid', status: 'cancelled' });
    expect(events.body.events.map((event: { kind: string }) => event.kind)).toEqual(['created', 'cancelled']);
    // One order only, though the script sent it twice with the same key.
    const history = await t.get(`/orders/history?assetId=${asset}`, token);
    expect(history.body.items.map((order: { orderId: string }) => order.orderId)).toEqual([orderId]);
    const book = await t.get(`/books/${asset}`, token);
    expect(book.body.bids).toEqual([]);
  });

  it('exits 1 with the refusal code when the sign-in is refused', async () => {
    const run = await runExample({
      EXCHANGE_URL: `http://127.0.0.1:${t.server.port}`,
      EXCHANGE_USER: 'broker2',
      EXCHANGE_PASSWORD: 'Wrong#2026pass',
      EXCHANGE_CODE: '000000',
      ASSET_ID: asset,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/failed: POST \/login: 401 AUTH_/);
  });
});
