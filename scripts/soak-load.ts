// The soak's load (a child of scripts/soak.ts, so its clients do not count in the server's memory):
// SOAK_STOMP STOMP clients spread over the demo users, each watching books, trades, the market
// watch and its private queues; SOAK_SENDERS clients placing and cancelling orders over REST
// (half for broker1 bidding, half for broker2 asking, so crossing orders trade). Prints READY once
// every client is connected, and at the end one REPORT line of JSON.
import { Client } from '@stomp/stompjs';
import { WebSocket } from 'ws';
import { destinations } from '../protocol/destinations.ts';
import { currentCode } from '../server/auth/totp.ts';
import { readDemoUsers } from '../server/demo/demo-exchange.ts';

const port = Number(process.env.SOAK_PORT);
const minutes = Number(process.env.SOAK_MINUTES ?? 10);
const stompCount = Number(process.env.SOAK_STOMP ?? 200);
const senderCount = Number(process.env.SOAK_SENDERS ?? 20);
const api = `http://127.0.0.1:${port}/session/api`;
const users = readDemoUsers();
const watchers = ['admin', 'broker1', 'broker2', 'agency1', 'client1', 'terminal1', 'owner1'];
const spotAssets = ['GSPOT-DA', 'GSPOT-WD', 'ESPOT-DA-BASE', 'ESPOT-DA-PEAK', 'ESPOT-DA-H08', 'ESPOT-DA-H18'];

async function call(method: string, path: string, token: string | null, body?: unknown): Promise<{ status: number; body: { error?: { code: string } } & Record<string, unknown> }> {
  const response = await fetch(api + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as never };
}

// One sign-in per user (a verification code is good for one sign-in): its token serves all its clients.
const tokens = new Map<string, string>();
for (const username of new Set([...watchers, 'broker1', 'broker2'])) {
  const user = users.find((candidate) => candidate.username === username)!;
  const answer = await call('POST', '/login', null, { username, password: user.password, code: currentCode(user.totpSecret, Date.now()) });
  if (answer.status !== 200) throw new Error(`sign-in of ${username}: ${answer.status} ${JSON.stringify(answer.body)}`);
  tokens.set(username, answer.body.token as string);
}

let messages = 0;
let stompErrors = 0;
const errorCodes = new Map<string, number>();
let disconnects = 0;
const clients: Client[] = [];
async function connect(index: number): Promise<void> {
  const username = watchers[index % watchers.length]!;
  const user = users.find((candidate) => candidate.username === username)!;
  const client = new Client({
    webSocketFactory: () => new WebSocket(`ws://127.0.0.1:${port}/session/ws`, ['v12.stomp']),
    connectHeaders: { Authorization: `Bearer ${tokens.get(username)}` },
    reconnectDelay: 0,
    heartbeatIncoming: 10_000,
    heartbeatOutgoing: 10_000,
  });
  client.onWebSocketClose = () => disconnects++;
  await new Promise<void>((resolve, reject) => {
    client.onConnect = () => resolve();
    client.onStompError = (frame) => reject(new Error(`${username}: ${frame.headers.code ?? frame.body}`));
    client.activate();
  });
  client.onStompError = (frame) => {
    stompErrors++;
    errorCodes.set(frame.headers.code ?? frame.headers.message ?? '?', (errorCodes.get(frame.headers.code ?? frame.headers.message ?? '?') ?? 0) + 1);
  };
  const count = () => messages++;
  for (const marketId of user.marketIds) client.subscribe(destinations.marketWatch(marketId), count);
  // Only books of markets the user sees (a forbidden topic is refused, as it should be).
  const visible = spotAssets.filter((assetId) => user.marketIds.includes(assetId.startsWith('G') ? 'GAS-SPOT' : 'EL-SPOT'));
  for (const assetId of visible.slice(index % 3, (index % 3) + 4)) {
    client.subscribe(destinations.book(assetId), count);
    client.subscribe(destinations.trades(assetId), count);
  }
  for (const queue of [destinations.myOrders, destinations.myTrades, destinations.notifications]) client.subscribe(queue, count);
  clients.push(client);
}
for (let index = 0; index < stompCount; index += 20) await Promise.all(Array.from({ length: Math.min(20, stompCount - index) }, (_, offset) => connect(index + offset)));
disconnects = 0;
console.log('READY');

// Senders: each places an order every 100-300 ms near 15,000 and keeps at most 8 of its own live.
const deadline = Date.now() + minutes * 60_000;
let acked = 0;
const refused = new Map<string, number>();
const latencies: number[] = [];
async function sender(index: number): Promise<void> {
  const buyer = index % 2 === 0;
  const username = buyer ? 'broker1' : 'broker2';
  const token = tokens.get(username)!;
  // RO-INDUS may not sell (a restricted client): asks go out for RO-TERMO only.
  const clientCode = buyer ? ['RO-HIDRO', 'RO-GAZEST'][Math.floor(index / 2) % 2]! : 'RO-TERMO';
  const live: string[] = [];
  let serial = 0;
  while (Date.now() < deadline) {
    const assetId = spotAssets[(index + serial) % spotAssets.length]!;
    const distance = Math.random() < 0.15 ? -1 : 1 + Math.floor(Math.random() * 8);
    const price = buyer ? 15_000 - distance * 50 : 15_000 + distance * 50;
    const started = performance.now();
    const answer = await call('POST', '/orders', token, { idempotencyKey: `soak-${index}-${serial++}-${Date.now()}`, assetId, way: buyer ? 'bid' : 'ask', price, qty: 10, noCnt: 10, validityType: 'day', validity: null, clientCode });
    latencies.push(performance.now() - started);
    if (answer.status === 201) {
      acked++;
      const order = answer.body.order as { orderId: string; status: string };
      if (order.status === 'created' || order.status === 'partiallyTraded') live.push(order.orderId);
    } else refused.set(answer.body.error?.code ?? String(answer.status), (refused.get(answer.body.error?.code ?? String(answer.status)) ?? 0) + 1);
    while (live.length > 8) {
      const cancelled = await call('POST', `/orders/${live.shift()}/cancel`, token, {});
      // Not found: it traded in full meanwhile, which is no failure.
      if (cancelled.status !== 200 && cancelled.body.error?.code !== 'ORDER_NOT_FOUND') refused.set(`cancel:${cancelled.body.error?.code ?? cancelled.status}`, (refused.get(`cancel:${cancelled.body.error?.code ?? cancelled.status}`) ?? 0) + 1);
    }
    await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
  }
}
const progress = setInterval(() => console.log(`acked=${acked} messages=${messages} stomp_errors=${stompErrors} disconnects=${disconnects}`), 60_000);
await Promise.all(Array.from({ length: senderCount }, (_, index) => sender(index)));
clearInterval(progress);
latencies.sort((a, b) => a - b);
const at = (q: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(1));
// Disconnects are counted during the run only: the clients' own deactivations below are not failures.
const report = { acked, refused: Object.fromEntries(refused), ackP50Ms: at(0.5), ackP99Ms: at(0.99), messages, stompErrors, errorCodes: Object.fromEntries(errorCodes), disconnects };
await Promise.all(clients.map((client) => client.deactivate()));
console.log(`REPORT ${JSON.stringify(report)}`);
process.exit(stompErrors === 0 && report.disconnects === 0 ? 0 : 1);
