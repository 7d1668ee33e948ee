import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverHealthSchema, type ServerHealth } from '../../../protocol/health.ts';
import { createPostgresSchema, postgresUrl, type PostgresSchema } from '../../helpers/postgres-schema.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

/**
 * Fault: PostgreSQL stops and comes back during trading (docs/reliability.md, "Faults").
 * The exchange reaches PostgreSQL through a TCP proxy the test controls: cutting it closes every
 * open connection and refuses new ones, as a stopped server does; restoring it listens again.
 */
const asset = 'GSPOT-DA';
const ORDERS_DURING_OUTAGE = 40;

class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** The database "stops": open connections are cut, new ones refused. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    const closed = new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

let t: TestServer;
let proxy: TcpProxy;
let schema: PostgresSchema;
let token1: string;
let token2: string;

async function health(): Promise<ServerHealth> {
  // The answer the client's badge parses (src/api/health.ts): the contract is checked on every call.
  return serverHealthSchema.parse((await t.get('/health')).body);
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  schema = await createPostgresSchema();
  const target = new URL(postgresUrl);
  proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  await proxy.open();
  t = await startTestServer({ databaseUrl: schema.url(proxy.port) });
  token1 = await t.login('broker1');
  token2 = await t.login('broker2');
});

afterAll(async () => {
  await t?.server.close();
  await proxy?.cut();
  await schema?.drop();
});

describe('PostgreSQL stops and comes back during trading', () => {
  it('acknowledges every order from the journal, reports degraded, then writes every row once', async () => {
    // Each broker's first request caches its user: afterwards the order path needs no database.
    let key = 0;
    const order = (token: string, way: 'bid' | 'ask', price: number, clientCode: string) =>
      t.post('/orders', { idempotencyKey: `outage-${String(++key).padStart(6, '0')}`, assetId: asset, way, price, qty: 10, validityType: 'day', clientCode }, token);
    expect((await order(token1, 'ask', 20_000, 'RO-HIDRO')).status).toBe(201);
    expect((await order(token2, 'bid', 10_000, 'RO-TERMO')).status).toBe(201);
    await t.server.projector.settled();
    expect(await health()).toMatchObject({ status: 'ok', readModels: { status: 'ok', behindBy: 0 } });

    // Every order event the listeners get from here on must end up in order_events exactly once.
    const fromSeq = t.server.sequencer.lastJournalSeq;
    let expectedOrderEvents = 0;
    let expectedTrades = 0;
    t.server.sequencer.onEvents((events) => {
      for (const event of events) {
        if (event.type === 'order') expectedOrderEvents++;
        if (event.type === 'trade') expectedTrades++;
      }
    });

    await proxy.cut();
    const acked: Array<{ orderId: string; status: string; ms: number }> = [];
    let refused = 0;
    let sawDegraded = false;
    for (let index = 0; index < ORDERS_DURING_OUTAGE; index++) {
      // Asks rest at 150.00; every third order is a bid that crosses one of them (a trade while the database is away).
      const crossing = index % 3 === 2;
      const started = performance.now();
      const reply = crossing ? await order(token2, 'bid', 15_000, 'RO-TERMO') : await order(token1, 'ask', 15_000, 'RO-HIDRO');
      const ms = performance.now() - started;
      if (reply.status === 201) acked.push({ orderId: reply.body.order.orderId, status: reply.body.order.status, ms });
      else refused++;
      if (index % 5 === 0) sawDegraded ||= (await health()).status === 'degraded';
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await until(async () => (await health()).status === 'degraded', 5_000, 'degraded health');
    const during = await health();
    expect(during.readModels).toMatchObject({ status: 'degraded' });
    expect(during.readModels.behindBy).toBeGreaterThan(0);
    expect(during.journal.status).toBe('ok');
    // Reads that need the database answer with the catalogue's 503, not a 500.
    const history = await t.get(`/orders/history?assetId=${asset}`, token1);
    expect(history.status).toBe(503);
    expect(history.body.error).toEqual({ code: 'SERVICE_UNAVAILABLE', params: {} });
    // The book still answers (engine).
    expect((await t.get(`/books/${asset}`, token1)).status).toBe(200);

    await proxy.open();
    await until(async () => {
      const now = await health();
      return now.status === 'ok' && now.readModels.behindBy === 0;
    }, 15_000, 'read models to catch up');

    const stored = await schema.query<{ order_id: string; status: string }>('select order_id::text, status from orders where order_id = any($1::bigint[])', [acked.map((a) => a.orderId)]);
    const storedStatus = new Map(stored.map((row) => [row.order_id, row.status]));
    const lost = acked.filter((a) => !storedStatus.has(a.orderId)).length;
    // Each order's row holds its state now: the engine's for a live order, else traded (a resting ask may have traded since its reply; nothing was cancelled).
    const mismatched = acked.filter((a) => storedStatus.has(a.orderId) && storedStatus.get(a.orderId) !== (t.server.sequencer.engine.getOrder(Number(a.orderId))?.status ?? 'traded')).length;
    const [events] = await schema.query<{ rows: string; distinct_rows: string }>(
      'select count(*)::text as rows, count(distinct (order_id, kind, at, data))::text as distinct_rows from order_events where journal_seq > $1',
      [fromSeq],
    );
    const [trades] = await schema.query<{ rows: string }>('select count(*)::text as rows from transactions');
    const [watermark] = await schema.query<{ journal_seq: string }>("select journal_seq::text from projection_watermark where name = 'trading'");
    const slowest = Math.max(...acked.map((a) => a.ms));
    console.log(
      `database-outage: tried ${ORDERS_DURING_OUTAGE} orders with PostgreSQL away, acked ${acked.length}, refused ${refused}, slowest ack ${slowest.toFixed(0)} ms; ` +
        `after restore lost ${lost}, mismatched ${mismatched}, order events ${events!.rows}/${expectedOrderEvents}, transactions ${trades!.rows}/${expectedTrades}`,
    );
    expect(sawDegraded || during.status === 'degraded').toBe(true);
    expect(refused).toBe(0);
    expect(acked).toHaveLength(ORDERS_DURING_OUTAGE);
    // No ack waited for the database (the pool's connect timeout is 5 s).
    expect(slowest).toBeLessThan(2_000);
    expect(acked.filter((a) => a.status === 'traded').length).toBeGreaterThan(0);
    expect(lost).toBe(0);
    expect(mismatched).toBe(0);
    expect(Number(events!.rows)).toBe(expectedOrderEvents);
    expect(Number(events!.distinct_rows)).toBe(expectedOrderEvents);
    expect(Number(trades!.rows)).toBe(expectedTrades);
    expect(Number(watermark!.journal_seq)).toBe(t.server.sequencer.lastJournalSeq);
    expect((await t.get(`/orders/history?assetId=${asset}&limit=500`, token1)).status).toBe(200);
  }, 30_000);
});
