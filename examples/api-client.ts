/**
 * An example client of the exchange's API: sign in with a verification code, keep a local order book
 * from a STOMP snapshot and its deltas, place an order with an idempotency key, see it in the local
 * book, cancel it, and see it leave. Copy it and make it yours.
 *
 *   npx tsx examples/api-client.ts
 *
 * Settings (environment variables; the defaults suit `npm start` on this machine):
 *   EXCHANGE_URL          http://127.0.0.1:8080
 *   EXCHANGE_USER         broker1
 *   EXCHANGE_PASSWORD     the user's password (default: the demo user's, from fixtures/demo/users.json)
 *   EXCHANGE_CODE         a six-digit verification code, or instead
 *   EXCHANGE_TOTP_SECRET  the base32 secret of the user's authenticator, to compute the code
 *                         (default: the demo user's secret)
 *   ASSET_ID              GSPOT-DA
 *   EXCHANGE_CLIENT       the client to trade for (default: the user's first)
 *
 * Prices and quantities are integers in the asset's minor units (GET /assets/{id} gives the steps).
 * The documents: /session/api/openapi.json (REST) and /session/api/asyncapi.json (STOMP).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { Client, type StompSubscription } from '@stomp/stompjs';
import { WebSocket } from 'ws';

const baseUrl = (process.env.EXCHANGE_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const api = `${baseUrl}/session/api`;
const username = process.env.EXCHANGE_USER ?? 'broker1';
const assetId = process.env.ASSET_ID ?? 'GSPOT-DA';
const WAIT_MS = 10_000;

const log = (message: string) => console.log(`[${new Date().toISOString().slice(11, 23)}] ${message}`);

// --- Sign-in ------------------------------------------------------------------------------------

/** The demo users' passwords and secrets, when run inside the repository (never in production). */
function demoUser(): { password: string; totpSecret: string } | undefined {
  const file = new URL('../fixtures/demo/users.json', import.meta.url);
  if (!existsSync(file)) return undefined;
  const { users } = JSON.parse(readFileSync(file, 'utf8')) as { users: Array<{ username: string; password: string; totpSecret: string }> };
  return users.find((user) => user.username === username);
}

/** RFC 6238 (what authenticator apps compute): HMAC-SHA1 of the 30-second step, 6 digits. */
function totp(base32Secret: string, now = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32Secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)));
  const hmac = createHmac('sha1', key).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0xf;
  return String((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

let token = '';

/** One REST call: JSON in and out, the bearer token, and the catalogue code of a refusal in the error. */
async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(api + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = (await response.json()) as T & { error?: { code: string; params: unknown } };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${answer.error?.code ?? ''} ${JSON.stringify(answer.error?.params ?? {})}`);
  return answer;
}

// --- The local book -----------------------------------------------------------------------------

interface Level {
  price: number;
  qty: number;
  orders: number;
}
type BookMessage =
  | { type: 'snapshot'; seq: number; bids: Level[]; asks: Level[] }
  | { type: 'delta'; seq: number; changes: Array<Level & { side: 'bid' | 'ask' }> };

/**
 * An asset's book from /topic/book.{assetId}: the snapshot sent on SUBSCRIBE, then each delta whose
 * seq is the next one. A delta with seq at or below the book's repeats what it has (skipped); one
 * beyond the next means deltas were lost: subscribe again for a fresh snapshot.
 */
class LocalBook {
  seq: number | null = null;
  readonly bids = new Map<number, Level>();
  readonly asks = new Map<number, Level>();
  private subscription: StompSubscription | null = null;
  private readonly watchers = new Set<() => void>();

  constructor(
    private readonly stomp: Client,
    private readonly destination: string,
  ) {}

  subscribe(): void {
    this.seq = null;
    this.subscription = this.stomp.subscribe(this.destination, (frame) => this.apply(JSON.parse(frame.body) as BookMessage));
  }

  private apply(message: BookMessage): void {
    if (message.type === 'snapshot') {
      this.bids.clear();
      this.asks.clear();
      for (const level of message.bids) this.bids.set(level.price, level);
      for (const level of message.asks) this.asks.set(level.price, level);
      this.seq = message.seq;
      log(`book snapshot seq ${message.seq}: ${message.bids.length} bid and ${message.asks.length} ask levels`);
    } else {
      if (this.seq === null || message.seq <= this.seq) return;
      if (message.seq !== this.seq + 1) {
        log(`book gap: expected delta ${this.seq + 1}, got ${message.seq}; subscribing again for a fresh snapshot`);
        this.subscription?.unsubscribe();
        this.subscribe();
        return;
      }
      for (const { side, price, qty, orders } of message.changes) {
        const levels = side === 'bid' ? this.bids : this.asks;
        // Each change carries the level's absolute quantity: 0 removes it.
        if (qty === 0) levels.delete(price);
        else levels.set(price, { price, qty, orders });
      }
      this.seq = message.seq;
    }
    for (const watcher of this.watchers) watcher();
  }

  best(side: 'bid' | 'ask'): number | undefined {
    const prices = [...(side === 'bid' ? this.bids : this.asks).keys()];
    return prices.length === 0 ? undefined : side === 'bid' ? Math.max(...prices) : Math.min(...prices);
  }

  /** Resolves once `condition` holds on the book (checked now and after every change). */
  until(condition: () => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.seq === null || !condition()) return;
        this.watchers.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.watchers.delete(check);
        reject(new Error(`the local book did not show ${what} within ${WAIT_MS} ms`));
      }, WAIT_MS);
      this.watchers.add(check);
      check();
    });
  }
}

// --- The script ---------------------------------------------------------------------------------

interface OrderReply {
  seq: number;
  order: { orderId: string; status: string; price: number | null; qty: number; offeredQty: number };
}

async function main(): Promise<void> {
  const demo = demoUser();
  const password = process.env.EXCHANGE_PASSWORD ?? demo?.password;
  const secret = process.env.EXCHANGE_TOTP_SECRET ?? demo?.totpSecret;
  const code = process.env.EXCHANGE_CODE ?? (secret ? totp(secret) : undefined);
  if (!password || !code) throw new Error('set EXCHANGE_PASSWORD and EXCHANGE_CODE (or EXCHANGE_TOTP_SECRET)');

  // 1. Sign in: a code works once (AUTH_CODE_ALREADY_USED: wait for the next one); a token lasts up to 30 minutes.
  const login = await call<{ token: string; expiresAt: string }>('POST', '/login', { username, password, code });
  token = login.token;
  const me = await call<{ clientCodes: string[] }>('GET', '/user/info');
  const clientCode = process.env.EXCHANGE_CLIENT ?? me.clientCodes[0];
  if (!clientCode) throw new Error(`${username} acts for no client`);
  const spec = await call<{ priceStep: number; minPrice: number; minQuantity: number; priceDecimals: number; quantityDecimals: number; currency: string; unit: string }>('GET', `/assets/${assetId}`);
  const shown = (minor: number, decimals: number) => (minor / 10 ** decimals).toFixed(decimals);
  log(`signed in as ${username} (token until ${login.expiresAt}), trading for ${clientCode} on ${assetId}`);

  // 2. STOMP over a WebSocket, the token in CONNECT; then the book of the asset.
  const stomp = new Client({
    webSocketFactory: () => new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/session/ws`, ['v12.stomp']),
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
  });
  await new Promise<void>((resolve, reject) => {
    stomp.onConnect = () => resolve();
    stomp.onStompError = (frame) => reject(new Error(`STOMP ERROR ${frame.headers.code ?? ''}: ${frame.body}`));
    stomp.onWebSocketError = () => reject(new Error(`cannot reach ${baseUrl}`));
    stomp.activate();
  });
  log('STOMP connected');
  const book = new LocalBook(stomp, `/topic/book.${assetId}`);
  book.subscribe();
  await book.until(() => true, 'a snapshot');

  try {
    // 3. A bid at the lowest price the asset allows (a whole number of price steps, above zero):
    //    far from the market, it rests in the book without trading.
    const step = spec.priceStep;
    const price = Math.max(Math.ceil(spec.minPrice / step) * step, step);
    const qty = spec.minQuantity;
    if (price >= (book.best('ask') ?? Infinity)) throw new Error(`an ask at ${price} would trade with the example's bid`);
    const before = book.bids.get(price)?.qty ?? 0;

    // The key makes the order safe to send again: a retry (a timeout, a lost answer) with the same
    // key and body answers the first order instead of placing a second one.
    const idempotencyKey = `example-${randomUUID()}`;
    const request = { idempotencyKey, assetId, clientCode, way: 'bid', price, qty, validityType: 'day' };
    const placed = await call<OrderReply>('POST', '/orders', request);
    log(`placed order ${placed.order.orderId} (key ${idempotencyKey}): bid ${shown(qty, spec.quantityDecimals)} ${spec.unit} at ${shown(price, spec.priceDecimals)} ${spec.currency} (qty ${qty}, price ${price} in minor units), journal seq ${placed.seq}`);
    const again = await call<OrderReply>('POST', '/orders', request);
    log(`sent again with the same key: order ${again.order.orderId} (${again.order.orderId === placed.order.orderId ? 'the same one' : 'ANOTHER ONE'})`);
    if (again.order.orderId !== placed.order.orderId) throw new Error('the idempotency key did not hold');

    // 4. Read-your-writes over REST: the book at least as new as the order's seq.
    const rest = await fetch(`${api}/books/${assetId}?minSeq=${placed.seq}`, { headers: { authorization: `Bearer ${token}` } });
    const restBook = (await rest.json()) as { bids: Level[] };
    log(`GET /books/${assetId}?minSeq=${placed.seq}: stands at seq ${rest.headers.get('x-exchange-seq')}, level ${price} holds ${restBook.bids.find((level) => level.price === price)?.qty ?? 0}`);

    // 5. The order in the local book, kept from the deltas.
    await book.until(() => (book.bids.get(price)?.qty ?? 0) >= before + qty, `the order at ${price}`);
    log(`local book (delta seq ${book.seq}) shows the order: level ${price} holds ${book.bids.get(price)?.qty}`);

    // 6. Cancel (a POST without a body) and see it leave the local book.
    const cancelled = await call<OrderReply>('POST', `/orders/${placed.order.orderId}/cancel`);
    log(`cancelled order ${cancelled.order.orderId}: status ${cancelled.order.status}, journal seq ${cancelled.seq}`);
    await book.until(() => (book.bids.get(price)?.qty ?? 0) <= before, `the order gone from ${price}`);
    log(`local book (delta seq ${book.seq}) no longer shows it: level ${price} holds ${book.bids.get(price)?.qty ?? 0}`);
  } finally {
    // A DISCONNECT frame: the session ends cleanly.
    await stomp.deactivate();
  }
  log('done');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
