/**
 * Soak against the REAL exchange server (issue 4, "Done when"): the real connection module over
 * real sockets (`ws`) signs in, follows the GSPOT-DA book, and its socket is killed and restored 100
 * times while two brokers keep placing, crossing and cancelling orders over REST. Half the kills are
 * made by the client (ws terminate: no close handshake), half by the server side (its TCP socket
 * destroyed); every fourth cycle also loses one book delta on the way first, so the client meets real
 * sequence gaps too.
 *
 * Checked:
 * - after each recovery (the book fresh again, on a new connection), with the order flow held still,
 *   the client's book equals the server's snapshot (REST GET /books/<asset> and the publisher's own);
 * - every book the client ever showed equals the server's book at that seq (server-side record,
 *   taken by a sequencer listener), so no delta was applied across a gap or onto a stale book;
 * - between two emissions a fresh book only ever moves by one seq (a delta) or by a snapshot;
 * - each kill marked the book stale at once, and it stayed stale until a snapshot while the server
 *   went on without it (stale marks >= 100).
 */
import { afterAll, expect, it } from 'vitest';
import { destinations } from '../../protocol/destinations.ts';
import type { BookLevel } from '../../protocol/market-data.ts';
import { book$, type BookView } from '../../streams/book.ts';
import { createConnection, type Connection, type ConnectionState } from '../../streams/connection.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { seededRandom } from './fake-stomp-server.ts';
import { realSocketFactory, serverSockets } from './real-socket.ts';

const ASSET = 'GSPOT-DA';
const CYCLES = 100;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until(what: string, predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

interface Levels {
  bids: BookLevel[];
  asks: BookLevel[];
}

/**
 * Random orders from two brokers over REST: bids 149.90..150.05, asks 149.96..150.10 (so they cross
 * now and then), quantities 10..100, a third of the actions cancel one of the broker's own live orders.
 * `hold()` waits for the requests in flight and stops new ones until `release()`.
 */
class OrderFlow {
  private stopped = false;
  private held = false;
  private inFlight = 0;
  private resume: (() => void) | undefined;
  private workers: Promise<void>[] = [];
  private keySeq = 0;
  readonly counts = { added: 0, traded: 0, cancelled: 0, refused: new Map<string, number>() };

  constructor(
    private readonly t: TestServer,
    private readonly brokers: Array<{ token: string; clients: string[] }>,
    private readonly random: () => number,
  ) {}

  start(): void {
    this.workers = this.brokers.map((broker) => this.work(broker));
  }

  private async work(broker: { token: string; clients: string[] }): Promise<void> {
    const live: string[] = [];
    while (!this.stopped) {
      if (this.held) {
        await new Promise<void>((resolve) => {
          const previous = this.resume;
          this.resume = () => {
            previous?.();
            resolve();
          };
        });
        continue;
      }
      this.inFlight += 1;
      try {
        await this.act(broker, live);
      } finally {
        this.inFlight -= 1;
      }
    }
  }

  private async act(broker: { token: string; clients: string[] }, live: string[]): Promise<void> {
    const r = this.random();
    if (live.length > 0 && (r < 0.33 || live.length > 12)) {
      const [orderId] = live.splice(Math.floor(this.random() * live.length), 1);
      const response = await this.t.post(`/orders/${orderId}/cancel`, {}, broker.token);
      if (response.status === 200) this.counts.cancelled += 1;
      else this.refused(response.body?.error?.code);
      return;
    }
    const way = this.random() < 0.5 ? 'bid' : 'ask';
    const price = way === 'bid' ? 14_990 + Math.floor(this.random() * 16) : 14_996 + Math.floor(this.random() * 15);
    const qty = 10 * (1 + Math.floor(this.random() * 10));
    const clientCode = broker.clients[Math.floor(this.random() * broker.clients.length)]!;
    const body = { idempotencyKey: `soak-${++this.keySeq}-${way}`, assetId: ASSET, way, price, qty, validityType: 'day', clientCode };
    const response = await this.t.post('/orders', body, broker.token);
    if (response.status !== 201) {
      this.refused(response.body?.error?.code);
      return;
    }
    this.counts.added += 1;
    const order = response.body.order as { orderId: string; status: string };
    if (order.status === 'traded') this.counts.traded += 1;
    else live.push(order.orderId);
  }

  private refused(code: unknown): void {
    const key = String(code);
    this.counts.refused.set(key, (this.counts.refused.get(key) ?? 0) + 1);
  }

  /** Resolves once no request is in flight; no new one starts until release(). */
  async hold(): Promise<void> {
    this.held = true;
    await until('the order flow to settle', () => this.inFlight === 0);
  }

  release(): void {
    this.held = false;
    const resume = this.resume;
    this.resume = undefined;
    resume?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.release();
    await Promise.all(this.workers);
  }
}

let t: TestServer | undefined;
let connection: Connection | undefined;
let stopFlow: (() => Promise<void>) | undefined;
afterAll(async () => {
  await stopFlow?.();
  if (connection) await connection.disconnect({ timeoutMs: 500 });
  await t?.server.close();
});

it('kills and restores the socket 100 times while orders flow; after each recovery the book equals the server snapshot', { timeout: 90_000 }, async () => {
  const started = Date.now();
  t = await startTestServer();
  const server = t;
  const token1 = await server.login('broker1');
  const token2 = await server.login('broker2');
  // The watching client: a read-only terminal of the gas spot market.
  let watcherToken = await server.login('terminal1');

  // The book as published after every seq, folded on the server side from the engine's level events
  // (our sequencer listener runs right after the market-data publisher's, which flushes one delta
  // per command batch with conflateMs 0). Independent of the client's fold.
  const truth = new Map<number, Levels>();
  const published = { seq: server.server.marketData.snapshot(ASSET).seq, bid: new Map<number, BookLevel>(), ask: new Map<number, BookLevel>() };
  const levelsOf = (): Levels => ({
    bids: [...published.bid.values()].sort((a, b) => b.price - a.price),
    asks: [...published.ask.values()].sort((a, b) => a.price - b.price),
  });
  expect(published.seq, 'a fresh server: empty book').toBe(0);
  truth.set(0, levelsOf());
  server.server.sequencer.onEvents((events) => {
    let changed = false;
    for (const event of events) {
      if (event.type !== 'level' || event.assetId !== ASSET) continue;
      changed = true;
      if (event.qty === 0) published[event.way].delete(event.price);
      else published[event.way].set(event.price, { price: event.price, qty: event.qty, orders: event.orders });
    }
    if (!changed) return;
    published.seq += 1;
    truth.set(published.seq, levelsOf());
  });

  // getToken: reuses the token, and signs in again every 25th attempt (a fresh TOTP step each time).
  let tokenCalls = 0;
  let signIns = 1;
  const sockets = realSocketFactory();
  const serverSide = serverSockets(server.server.app.server);
  connection = createConnection({
    url: `ws://127.0.0.1:${server.server.port}/session/ws`,
    getToken: async () => {
      tokenCalls += 1;
      if (tokenCalls % 25 === 0) {
        watcherToken = await server.login('terminal1');
        signIns += 1;
      }
      return watcherToken;
    },
    webSocketFactory: sockets.webSocketFactory,
    // The gateway offers 10 s heart-beats; asking 1 s keeps our side cheap. Drops here are noticed
    // by the socket closing at once, not by heart-beat loss.
    heartbeatMs: 1_000,
    connectTimeoutMs: 2_000,
    backoff: { initialMs: 20, maxMs: 200, jitter: 0.5 },
  });
  const states: ConnectionState[] = [];
  connection.connectionState$.subscribe((state) => states.push(state));
  const errors: string[] = [];
  connection.errors$.subscribe((error) => errors.push(JSON.stringify(error)));
  const views: BookView[] = [];
  const resubscribes: string[] = [];
  const subscription = book$(connection, ASSET, { onResubscribe: (reason) => resubscribes.push(reason) }).subscribe((view) => views.push(view));
  const latest = (): BookView => views.at(-1)!;
  const generation = (): number => (connection!.state.status === 'connected' ? connection!.state.generation : -1);

  connection.connect();
  await until('the first snapshot', () => !latest().stale);

  const flow = new OrderFlow(server, [
    { token: token1, clients: ['RO-HIDRO', 'RO-GAZEST'] },
    { token: token2, clients: ['RO-TERMO'] },
  ], seededRandom(2026));
  flow.start();
  stopFlow = () => flow.stop();

  const random = seededRandom(77);
  let behind = 0;
  let gapCycles = 0;
  let checkpoints = 0;
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    await sleep(5 + Math.floor(random() * 25)); // deltas flow
    if (cycle % 4 === 3) {
      // A book delta lost on the way: the next one is a gap.
      const gaps = latest().gaps;
      sockets.loseNextDelta(destinations.book(ASSET));
      await until(`a gap in cycle ${cycle}`, () => latest().gaps > gaps);
      await until(`the resync after the gap in cycle ${cycle}`, () => !latest().stale);
      gapCycles += 1;
    }
    const before = latest();
    expect(before.stale).toBe(false);
    const generationBefore = generation();
    const viewsBefore = views.length;
    const killed = cycle % 2 === 0 ? sockets.killFromClient() : serverSide.dropLatest();
    expect(killed, `socket killed in cycle ${cycle}`).toBe(true);
    await until(`stale after the kill in cycle ${cycle}`, () => latest().stale);
    // Frames already on the way before the close still count; the close itself marks the book
    // stale at once, keeping the last good seq and levels.
    const markAt = views.findIndex((view, i) => i >= viewsBefore && view.stale);
    expect(views[markAt]).toMatchObject({ stale: true, staleReason: 'reconnect', seq: views[markAt - 1]!.seq, bids: views[markAt - 1]!.bids, asks: views[markAt - 1]!.asks });
    await until(`recovery in cycle ${cycle}`, () => generation() > generationBefore && !latest().stale);
    const recovered = views.slice(markAt).find((view) => !view.stale)!;
    expect(recovered.snapshots, 'the recovery came with a fresh snapshot').toBe(before.snapshots + 1);
    if (recovered.seq! > views[markAt]!.seq!) behind += 1; // the server moved on while the book was stale

    // Checkpoint: hold the order flow still, let the last deltas arrive, compare with the server.
    await flow.hold();
    const serverSnapshot = server.server.marketData.snapshot(ASSET);
    await until(`seq ${serverSnapshot.seq} in cycle ${cycle}`, () => latest().seq === serverSnapshot.seq && !latest().stale);
    const rest = await server.get(`/books/${ASSET}`, watcherToken);
    expect(rest.status).toBe(200);
    expect(rest.body.seq).toBe(serverSnapshot.seq);
    const mine = latest();
    expect({ seq: mine.seq, bids: mine.bids, asks: mine.asks }).toEqual({ seq: rest.body.seq, bids: rest.body.bids, asks: rest.body.asks });
    expect({ bids: mine.bids, asks: mine.asks }).toEqual({ bids: serverSnapshot.bids, asks: serverSnapshot.asks });
    expect({ bids: mine.bids, asks: mine.asks }).toEqual(truth.get(serverSnapshot.seq));
    checkpoints += 1;
    flow.release();
  }
  await flow.stop();
  subscription.unsubscribe();

  // Every book shown equals the published book at its seq, except right after a snapshot: the
  // server's snapshot is the engine's live book, which can hold commands executed but not yet
  // journaled and published (seq s, levels of s + k); the next deltas bring the book back in line
  // (absolute levels), and once in line it stays so until the next stale mark.
  let applied = 0;
  let staleMarks = 0;
  let snapshotsTaken = 0;
  let aheadViews = 0;
  let longestAhead = 0;
  let run = 0;
  let inLine = false;
  for (const [i, view] of views.entries()) {
    if (view.seq === null) continue;
    expect(truth.has(view.seq), `published book at seq ${view.seq}`).toBe(true);
    const same = JSON.stringify({ bids: view.bids, asks: view.asks }) === JSON.stringify(truth.get(view.seq));
    if (view.stale) continue; // its seq and levels are checked with the transitions below
    const previous = views[i - 1];
    const fromSnapshot = previous !== undefined && view.snapshots > previous.snapshots;
    if (fromSnapshot) {
      inLine = same;
      run = same ? 0 : 1;
    } else if (inLine) {
      expect({ bids: view.bids, asks: view.asks }, `book at seq ${view.seq}`).toEqual(truth.get(view.seq));
    } else if (same) {
      inLine = true;
      run = 0;
    } else run += 1;
    if (!same) aheadViews += 1;
    longestAhead = Math.max(longestAhead, run);
  }
  // Transitions: a fresh book moves only by one delta (seq + 1) or by a snapshot; stale keeps its seq.
  for (let i = 1; i < views.length; i++) {
    const previous = views[i - 1]!;
    const next = views[i]!;
    if (next.snapshots > previous.snapshots) {
      expect(next.snapshots).toBe(previous.snapshots + 1);
      expect(next.stale).toBe(false);
      snapshotsTaken += 1;
    } else if (next.stale) {
      expect(previous.stale, 'one stale mark per episode').toBe(false);
      expect(next.seq).toBe(previous.seq);
      staleMarks += 1;
    } else {
      expect(previous.stale, 'no delta applied to a stale book').toBe(false);
      expect(next.seq, 'no delta applied across a gap').toBe(previous.seq! + 1);
      applied += 1;
    }
  }
  const last = latest();
  const reconnectMarks = views.filter((v, i) => i > 0 && v.stale && !views[i - 1]!.stale && v.staleReason === 'reconnect').length;
  const gapMarks = views.filter((v, i) => i > 0 && v.stale && !views[i - 1]!.stale && v.staleReason === 'gap').length;
  const connects = states.filter((s) => s.status === 'connected').length;
  const elapsedMs = Date.now() - started;
  const figures = {
    cycles: CYCLES,
    connects,
    socketsOpened: sockets.created,
    staleMarks,
    reconnectMarks,
    gapMarks,
    behindWhileStale: behind,
    snapshots: snapshotsTaken + 1,
    deltasApplied: applied,
    deltasDropped: last.droppedDeltas,
    deltasLost: sockets.lost,
    viewsAheadOfSeq: aheadViews,
    longestAhead,
    checkpoints,
    serverSeq: server.server.marketData.snapshot(ASSET).seq,
    orders: { ...flow.counts, refused: Object.fromEntries(flow.counts.refused) },
    tokenCalls,
    signIns,
    elapsedMs,
  };
  console.log('[soak]', JSON.stringify(figures));

  expect(longestAhead, 'a snapshot ahead of its seq is caught up within a few deltas').toBeLessThanOrEqual(10);
  expect(checkpoints).toBe(CYCLES);
  expect(reconnectMarks).toBe(CYCLES);
  expect(gapMarks).toBe(gapCycles);
  expect(last.gaps).toBe(gapCycles);
  expect(staleMarks).toBeGreaterThanOrEqual(100);
  expect(connects).toBe(CYCLES + 1);
  expect(resubscribes.filter((r) => r === 'gap')).toHaveLength(gapCycles);
  // A fresh token was asked for before every connect attempt.
  expect(tokenCalls).toBeGreaterThanOrEqual(CYCLES + 1);
  // Orders really flowed while the sockets were dying: the server went on without the client.
  expect(behind).toBeGreaterThan(CYCLES / 2);
  expect(flow.counts.added).toBeGreaterThan(CYCLES);
  expect(flow.counts.traded + flow.counts.cancelled).toBeGreaterThan(0);
  expect(errors.filter((e) => e.includes('"kind":"payload"'))).toEqual([]);
  expect(elapsedMs).toBeLessThan(60_000);
  serverSide.stop();
});
