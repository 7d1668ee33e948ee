/**
 * npm run bench:fanout — 1,000 STOMP clients on loopback watch one book while 1,000 orders/s change it
 * for 30 s. Measures the delay from an order's acknowledgement to a client having the book that
 * results, and checks that every client ends with the server's book.
 *
 * How the delay is seen: every 50 ms the order flow also places a probe, a resting bid at a price no
 * other order uses; each client notes when that level first appears in its book. The delay is that
 * moment minus the probe's acknowledgement. The server runs in its own process with its default book
 * conflation (CONFLATE_MS, 20 ms); the clients and the order flow run here.
 *
 * Environment: FANOUT_CLIENTS (1000), FANOUT_ORDERS_PER_S (1000), FANOUT_SECONDS (30).
 */
import { WebSocket } from 'ws';
import type { BookMessage, BookSnapshot } from '../protocol/index.ts';
import { destinations } from '../protocol/index.ts';
import { percentile, startBenchServer } from './bench-server.ts';

const clientCount = Number(process.env.FANOUT_CLIENTS ?? 1000);
const ordersPerSecond = Number(process.env.FANOUT_ORDERS_PER_S ?? 1000);
const seconds = Number(process.env.FANOUT_SECONDS ?? 30);
const assetId = 'GSPOT-WD';

/** A bare STOMP subscriber that folds the book and notes when probe levels appear. */
class BookClient {
  readonly bids = new Map<number, number>();
  readonly asks = new Map<number, number>();
  seq = -1;
  gaps = 0;
  readonly seenAt = new Map<number, number>();
  private socket!: WebSocket;

  constructor(private readonly probes: Set<number>) {}

  open(token: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket = new WebSocket(`ws://127.0.0.1:${port}/session/ws`, ['v12.stomp']);
      this.socket.on('open', () => {
        this.socket.send(`CONNECT\naccept-version:1.2\nhost:localhost\nheart-beat:0,0\nAuthorization:Bearer ${token}\n\n\0`);
        this.socket.send(`SUBSCRIBE\nid:0\ndestination:${destinations.book(assetId)}\nreceipt:ready\n\n\0`);
      });
      this.socket.on('message', (data: Buffer) => {
        const text = data.toString();
        if (text.startsWith('RECEIPT')) resolve();
        else if (text.startsWith('MESSAGE')) this.onBook(JSON.parse(text.slice(text.indexOf('\n\n') + 2, text.lastIndexOf('\0'))) as BookMessage);
        else if (text.startsWith('ERROR')) reject(new Error(text));
      });
      this.socket.on('error', reject);
    });
  }

  private onBook(message: BookMessage): void {
    const now = performance.now();
    if (message.type === 'snapshot') {
      this.bids.clear();
      this.asks.clear();
      for (const level of message.bids) this.bids.set(level.price, level.qty);
      for (const level of message.asks) this.asks.set(level.price, level.qty);
      this.seq = message.seq;
      return;
    }
    if (message.seq !== this.seq + 1) this.gaps++;
    this.seq = message.seq;
    for (const change of message.changes) {
      const side = change.side === 'bid' ? this.bids : this.asks;
      if (change.qty === 0) side.delete(change.price);
      else side.set(change.price, change.qty);
      if (change.side === 'bid' && change.qty > 0 && this.probes.has(change.price) && !this.seenAt.has(change.price)) this.seenAt.set(change.price, now);
    }
  }

  equals(snapshot: BookSnapshot): boolean {
    const same = (mine: Map<number, number>, theirs: BookSnapshot['bids']) =>
      mine.size === theirs.length && theirs.every((level) => mine.get(level.price) === level.qty);
    return same(this.bids, snapshot.bids) && same(this.asks, snapshot.asks);
  }

  close(): void {
    this.socket.terminate();
  }
}


const server = await startBenchServer('fanout', 64);
const { call, signIn } = server;
const port = server.port;
try {
  const trader = { token: await signIn('broker1'), clients: ['RO-HIDRO', 'RO-GAZEST'] };
  const counterparty = { token: await signIn('broker2'), clients: ['RO-TERMO'] };
  const watcherToken = await signIn('admin');

  const probes = new Set<number>();
  const clients: BookClient[] = [];
  for (let index = 0; index < clientCount; index += 50) {
    const batch = Array.from({ length: Math.min(50, clientCount - index) }, () => new BookClient(probes));
    await Promise.all(batch.map((client) => client.open(watcherToken)));
    clients.push(...batch);
  }
  console.log(`${clients.length} STOMP clients subscribed to ${destinations.book(assetId)}`);

  // The order flow: paced sends, a probe every 50 ms at its own price (below everything else).
  const probeAck = new Map<number, number>();
  let sent = 0;
  let acked = 0;
  let refused = 0;
  const refusals = new Map<string, number>();
  const pending = new Set<Promise<void>>();
  const started = performance.now();
  const intervalMs = 1000 / ordersPerSecond;
  let probePrice = 5_000;
  let lastProbe = 0;
  while (performance.now() - started < seconds * 1000) {
    const due = Math.floor((performance.now() - started) / intervalMs);
    while (sent < due) {
      const n = sent++;
      const isProbe = performance.now() - lastProbe >= 50;
      let body: Record<string, unknown>;
      let price: number;
      if (isProbe) {
        lastProbe = performance.now();
        price = probePrice++;
        probes.add(price);
        body = { idempotencyKey: `probe-${price}`, assetId, way: 'bid', price, qty: 10, validityType: 'day', clientCode: 'RO-HIDRO' };
      } else {
        const way = n % 2 === 0 ? 'bid' : 'ask';
        const offset = ((n * 7919) % 21) - 8;
        price = way === 'bid' ? 15_000 - offset : 15_000 + offset;
        const who = way === 'bid' ? trader : counterparty;
        body = { idempotencyKey: `flow-${String(n).padStart(8, "0")}`, assetId, way, price, qty: 10 * (1 + (n % 5)), validityType: 'day', clientCode: who.clients[n % who.clients.length] };
      }
      const token = body.clientCode === 'RO-TERMO' ? counterparty.token : trader.token;
      const done = call('POST', '/orders', body, token).then((result) => {
        if (result.status === 201) {
          acked++;
          if (isProbe) probeAck.set(price, performance.now());
        } else {
          refused++;
          const code = result.body?.error?.code ?? String(result.status);
          refusals.set(code, (refusals.get(code) ?? 0) + 1);
        }
      });
      pending.add(done);
      void done.finally(() => pending.delete(done));
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 1000)); // let the last conflated deltas arrive

  const server = (await call('GET', `/books/${assetId}`, undefined, watcherToken)).body as BookSnapshot;
  const equal = clients.filter((client) => client.equals(server)).length;
  const gaps = clients.reduce((sum, client) => sum + client.gaps, 0);
  const delays: number[] = [];
  let missing = 0;
  for (const client of clients) {
    for (const [price, ackAt] of probeAck) {
      const seen = client.seenAt.get(price);
      if (seen === undefined) missing++;
      else delays.push(Math.max(0, seen - ackAt));
    }
  }
  delays.sort((a, b) => a - b);
  const p50 = percentile(delays, 50);
  const p99 = percentile(delays, 99);
  const booksEqual = equal === clients.length && missing === 0;
  console.log(`orders: ${acked} acknowledged, ${refused} refused, ${(acked / elapsed).toFixed(0)}/s over ${elapsed.toFixed(1)} s; ${probeAck.size} probes`);
  if (refusals.size > 0) console.log(`refusals: ${[...refusals].map(([code, n]) => `${code} ${n}`).join(', ')}`);
  console.log(`clients with the server's book at the end: ${equal}/${clients.length}; sequence gaps seen: ${gaps}; probe sightings missing: ${missing}`);
  console.log(`ack -> client has the book: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms over ${delays.length} samples`);
  console.log(`bench:fanout clients=${clients.length} orders_per_s=${Math.round(acked / elapsed)} books_equal=${booksEqual} p50_ms=${p50.toFixed(1)} p99_ms=${p99.toFixed(1)}`);
  for (const client of clients) client.close();
} finally {
  await server.stop();
}
