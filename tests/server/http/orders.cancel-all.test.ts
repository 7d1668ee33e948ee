/**
 * POST /orders/cancel-all (the kill switch) on PGlite: it cancels only the user's clients' orders,
 * narrows to a market, asset or client, answers what it had to leave with the code, is idempotent
 * under an Idempotency-Key, and a restart's replay of the journal reaches the same state hash.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const GAS = 'GSPOT-DA';
const POWER = 'ESPOT-DA-BASE';
let serial = 0;

async function place(t: TestServer, token: string, clientCode: string, assetId = GAS, price = 14_000): Promise<string> {
  const answer = await t.post('/orders', { idempotencyKey: `kill-${String(++serial).padStart(6, '0')}`, assetId, way: 'bid', price, qty: 10, validityType: 'GTC', clientCode }, token);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.order.orderId as string;
}

async function liveIds(t: TestServer, token: string): Promise<string[]> {
  const answer = await t.get('/orders/mine', token);
  return (answer.body.items as Array<{ orderId: string }>).map((order) => order.orderId).sort();
}

function cancelAll(t: TestServer, token: string, body?: unknown, idempotencyKey?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  return fetch(`${t.api}/orders/cancel-all`, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (response) => ({
    status: response.status,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- asserted field by field
    body: (await response.json()) as any,
  }));
}

describe('POST /orders/cancel-all', () => {
  let t: TestServer;
  let broker1: string;
  let broker2: string;
  let admin: string;
  beforeAll(async () => {
    t = await startTestServer();
    broker1 = await t.login('broker1');
    broker2 = await t.login('broker2');
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t?.server.close();
  });

  it("cancels only the user's clients' orders, narrowed by asset, market or client", async () => {
    const hidroGas = await place(t, broker1, 'RO-HIDRO');
    const gazestGas = await place(t, broker1, 'RO-GAZEST');
    const hidroPower = await place(t, broker1, 'RO-HIDRO', POWER, 30_000);
    const other = await place(t, broker2, 'RO-TERMO');

    const byAsset = await cancelAll(t, broker1, { assetId: POWER });
    expect(byAsset.status).toBe(200);
    expect(byAsset.body).toMatchObject({ cancelled: [hidroPower], refused: [] });
    expect(byAsset.body.seq).toBeGreaterThan(0);

    const byClient = await cancelAll(t, broker1, { clientCode: 'RO-GAZEST' });
    expect(byClient.body.cancelled).toEqual([gazestGas]);
    const otherMarket = await cancelAll(t, broker1, { marketId: 'EL-SPOT' });
    expect(otherMarket.body.cancelled).toEqual([]);

    // No body at all: everything of broker1's clients; broker2's order stays.
    const rest = await cancelAll(t, broker1);
    expect(rest.status).toBe(200);
    expect(rest.body.cancelled).toEqual([hidroGas]);
    expect(await liveIds(t, broker1)).toEqual([]);
    expect(await liveIds(t, broker2)).toContain(other);
    // The read model files the command's cancel events as any cancel's.
    expect(await t.server.projector.flushed(5_000)).toBe(true);
    const history = (await t.get('/orders/mine?history=true', broker1)).body.items as Array<{ orderId: string; status: string }>;
    expect(history.filter((o) => [hidroGas, gazestGas, hidroPower].includes(o.orderId)).map((o) => o.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    await cancelAll(t, broker2);
  });

  it('refuses another broker\'s client, an administrator, a read-only user and unknown fields', async () => {
    const foreign = await cancelAll(t, broker1, { clientCode: 'RO-TERMO' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toEqual({ code: 'ACCOUNT_CLIENT_FORBIDDEN', params: { clientCode: 'RO-TERMO' } });
    const byAdmin = await cancelAll(t, admin, {});
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error.code).toBe('FORBIDDEN');
    const terminal = await cancelAll(t, await t.login('terminal1'), {});
    expect(terminal.body.error).toEqual({ code: 'FORBIDDEN', params: { scope: 'trading:write' } });
    const unknown = await cancelAll(t, broker1, { all: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('REQUEST_INVALID');
    const badKey = await cancelAll(t, broker1, {}, 'x');
    expect(badKey.body.error).toMatchObject({ code: 'REQUEST_INVALID', params: { field: 'idempotencyKey' } });
    expect((await t.post('/orders/cancel-all', {})).status).toBe(401);
  });

  it('leaves the orders of a suspended asset, answered with the code', async () => {
    const suspendedOne = await place(t, broker1, 'RO-HIDRO', POWER, 30_000);
    const gas = await place(t, broker1, 'RO-HIDRO');
    const phase = (p: string) => t.post('/admin/markets/EL-SPOT/phase', { phase: p, assetId: POWER }, admin);
    expect((await phase('suspend')).status).toBe(204);
    try {
      const answer = await cancelAll(t, broker1);
      expect(answer.body.cancelled).toEqual([gas]);
      expect(answer.body.refused).toEqual([{ orderId: suspendedOne, code: 'SESSION_SUSPENDED', params: {} }]);
      expect(await liveIds(t, broker1)).toEqual([suspendedOne]);
    } finally {
      expect((await phase('resume')).status).toBe(204);
    }
    expect((await cancelAll(t, broker1)).body.cancelled).toEqual([suspendedOne]);
  });

  it('an Idempotency-Key makes a retry answer what the first call did, without cancelling again', async () => {
    const first = await place(t, broker1, 'RO-HIDRO');
    const answer = await cancelAll(t, broker1, {}, 'kill-switch-0001');
    expect(answer.body.cancelled).toEqual([first]);
    const later = await place(t, broker1, 'RO-HIDRO');
    const retry = await cancelAll(t, broker1, {}, 'kill-switch-0001');
    expect(retry.body).toEqual(answer.body);
    expect(await liveIds(t, broker1)).toEqual([later]);
    const reused = await cancelAll(t, broker1, { assetId: GAS }, 'kill-switch-0001');
    expect(reused.body.error.code).toBe('ORDER_IDEMPOTENCY_KEY_REUSED');
    expect((await cancelAll(t, broker1, {}, 'kill-switch-0002')).body.cancelled).toEqual([later]);
  });
});

describe('cancel-all in the journal', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'exchange-cancel-all-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('a restart replays it to the same state hash and live orders', async () => {
    const first = await startTestServer({ dataDir });
    let hash: string;
    let kept: string;
    try {
      const token = await first.login('broker1');
      await place(first, token, 'RO-HIDRO');
      await place(first, token, 'RO-GAZEST');
      kept = await place(first, token, 'RO-HIDRO', POWER, 30_000);
      const answer = await cancelAll(first, token, { marketId: 'GAS-SPOT' });
      expect(answer.body.cancelled).toHaveLength(2);
      hash = first.server.sequencer.engine.stateHash();
    } finally {
      await first.server.close();
    }
    const second = await startTestServer({ dataDir });
    try {
      second.clock.advance(first.clock.now() - second.clock.now() + 1000);
      expect(second.server.sequencer.engine.stateHash()).toBe(hash);
      expect(second.server.sequencer.engine.validateInternalState()).toEqual([]);
      expect(await liveIds(second, await second.login('broker1'))).toEqual([kept]);
    } finally {
      await second.server.close();
    }
  });
});
