/**
 * npm run chaos:crash [-- --runs N] [--seed S]
 *
 * Crash under load, whole server: starts the real exchange (server/main.ts, its own data directory,
 * simulator off) as a child process, sends orders over REST from two brokers with idempotency keys,
 * SIGKILLs it at a random moment (seeded) N times and starts it again at once. After each restart:
 * - every acknowledged order is in the journal the dead server left, at the acknowledged record and
 *   with the acknowledged state, and no idempotency key made two orders;
 * - every add that got no answer is sent again: it returns the first result (same order, same
 *   record) when the first attempt reached the journal, else it makes exactly one order;
 * - at a quiet point, the live orders (REST), the books (market data), the order history (read
 *   model) and the brokers' private queues (/user/queue/orders over STOMP) agree with a replay of the
 *   journal by this script (an engine of its own, fed each record once).
 * Prints a line per run and, last, `chaos:crash runs=N acked=N lost=0 duplicated=0 mismatched=0`;
 * exit code 1 when any of the three is not 0. docs/reliability.md "Crash under load".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { destinations } from '../protocol/destinations.ts';
import type { Order } from '../protocol/market-data.ts';
import { currentCode } from '../server/auth/totp.ts';
import { demoAssetId, readDemoUsers } from '../server/demo/demo-exchange.ts';
import { orderToWire } from '../server/trading/wire.ts';
import { prng } from '../tests/helpers/prng.ts';
import { connectCollector, type CollectingClient } from '../tests/helpers/stomp-test-client.ts';
import { JournalReplay, orderState } from './chaos/journal-replay.ts';
import { freePort, ServerProcess } from './chaos/server-process.ts';

export interface ChaosOptions {
  runs: number;
  seed: number;
  log?: (line: string) => void;
}

export interface ChaosResult {
  runs: number;
  /** Orders acknowledged (201) to an add, first attempts and retries. */
  acked: number;
  /** Acknowledged cancels. */
  ackedCancels: number;
  lost: number;
  duplicated: number;
  mismatched: number;
  /** Adds that got no answer (the kill cut them off), each sent again after the restart. */
  unanswered: number;
  /** Of those, the ones whose first attempt had reached the journal: the retry returned that first result. */
  retriedFirstResult: number;
  /** Journal records read and replayed by the script. */
  records: number;
  /** Restart (spawn of the process) → it prints "Exchange running", ms. */
  readyMs: number[];
  /** Restart (spawn of the process) → it acknowledges an order, ms. */
  acceptMs: number[];
  /** CPU time the restarted server used until it acknowledged that order, ms (load-independent). */
  acceptCpuMs: number[];
  problems: string[];
}

/** The gas forward month is the one the demo lists on the day its data directory is made: today (server/demo/demo-calendar.ts). */
const ASSETS = ['GSPOT-DA', 'ESPOT-DA-BASE', demoAssetId('GFWD-M-2027-01', Date.now())];
/** Concurrent order senders per broker. */
const SENDERS = 2;
const TERMINAL = new Set(['traded', 'cancelled', 'expired', 'rejected']);

interface Broker {
  username: string;
  password: string;
  secret: string;
  /** Every client the user acts for (what its history and queue cover). */
  clientCodes: string[];
  /** The clients this run sends orders for (broker1 buys, broker2 sells). */
  sendFor: string[];
  token: string;
  /** The TOTP step last used to sign in: a code signs in once. */
  lastStep: number;
}

interface AddBody {
  idempotencyKey: string;
  assetId: string;
  way: 'bid' | 'ask';
  price: number;
  qty: number;
  validityType: 'day';
  clientCode: string;
}

interface Ack {
  key: string;
  seq: number;
  order: Order;
}

/** What the server showed at a quiet point, compared with the replay once the journal is read. */
interface Observation {
  seq: number;
  live: Map<string, Order[]>;
  books: Map<string, { bids: unknown; asks: unknown }>;
  historyTotal: Map<string, number>;
  historyPage: Map<string, Order[]>;
  queue: Map<string, Map<string, { seq: number; order: Order }>>;
}

function parseArgs(argv: string[]): { runs: number; seed: number } {
  let runs = 50;
  let seed = 20261125;
  for (let index = 0; index < argv.length; index++) {
    if (argv[index] === '--runs') runs = Number(argv[++index]);
    else if (argv[index] === '--seed') seed = Number(argv[++index]);
  }
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
  if (!Number.isSafeInteger(seed)) throw new Error('--seed must be an integer');
  return { runs, seed };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function runChaosCrash(options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const random = prng(options.seed);
  const dataDir = mkdtempSync(join(tmpdir(), 'chaos-crash-'));
  const journalDir = join(dataDir, 'journal');
  const server = new ServerProcess(dataDir, await freePort());
  const replay = new JournalReplay();
  const users = readDemoUsers();
  const brokers: Broker[] = [
    ['broker1', ['RO-HIDRO', 'RO-GAZEST']],
    ['broker2', ['RO-TERMO']],
  ].map(([username, sendFor]) => {
    const user = users.find((candidate) => candidate.username === username)!;
    return { username: user.username, password: user.password, secret: user.totpSecret, clientCodes: user.clientCodes, sendFor: sendFor as string[], token: '', lastStep: 0 };
  });
  const result: ChaosResult = {
    runs: options.runs,
    acked: 0,
    ackedCancels: 0,
    lost: 0,
    duplicated: 0,
    mismatched: 0,
    unanswered: 0,
    retriedFirstResult: 0,
    records: 0,
    readyMs: [],
    acceptMs: [],
    acceptCpuMs: [],
    problems: [],
  };
  const problem = (kind: 'lost' | 'mismatched', text: string) => {
    result[kind]++;
    if (result.problems.length < 50) result.problems.push(`${kind}: ${text}`);
    log(`  ${kind}: ${text}`);
  };

  async function signIn(broker: Broker): Promise<void> {
    for (;;) {
      const step = Math.floor(Date.now() / 30_000);
      if (step === broker.lastStep) {
        await sleep(30_000 - (Date.now() % 30_000) + 50);
        continue;
      }
      broker.lastStep = step;
      const answer = await server.call('POST', '/login', { username: broker.username, password: broker.password, code: currentCode(broker.secret, Date.now()) });
      if (answer.status !== 200) throw new Error(`sign-in of ${broker.username}: ${answer.status} ${JSON.stringify(answer.body)}`);
      broker.token = answer.body.token as string;
      return;
    }
  }

  /** A call that must be answered (checks, retries): a connection the restart left dead is tried again. */
  async function reliably(method: string, path: string, body: unknown, broker: Broker) {
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await server.call(method, path, body, broker.token);
        if (answer.status === 401 && attempt < 3) {
          await signIn(broker);
          continue;
        }
        return answer;
      } catch (error) {
        if (attempt >= 5) throw error;
        await sleep(50);
      }
    }
  }

  let orderNumber = 0;
  function addBody(broker: Broker, life: number, pick: () => number): AddBody {
    // broker1 buys, broker2 sells (an order crossing its own client's is refused, ORDER_CROSS);
    // around 150.00, about half crossing: the books trade and stay small.
    const way = broker === brokers[0] ? 'bid' : 'ask';
    const offset = Math.floor(pick() * 11) - 5;
    return {
      idempotencyKey: `chaos-${options.seed}-${life}-${++orderNumber}`,
      assetId: ASSETS[Math.floor(pick() * ASSETS.length)]!,
      way,
      price: way === 'bid' ? 15_000 + offset : 15_000 - offset,
      qty: 10 * (1 + Math.floor(pick() * 5)),
      validityType: 'day',
      clientCode: broker.sendFor[Math.floor(pick() * broker.sendFor.length)]!,
    };
  }

  async function observe(collectors: Map<string, CollectingClient>): Promise<Observation> {
    for (let attempt = 0; ; attempt++) {
      // The books are conflated (20 ms) and the read models written behind the journal: let them settle.
      await sleep(150);
      const seqs = new Set<number>();
      const live = new Map<string, Order[]>();
      const historyTotal = new Map<string, number>();
      const historyPage = new Map<string, Order[]>();
      const queue = new Map<string, Map<string, { seq: number; order: Order }>>();
      for (const broker of brokers) {
        const mine = await reliably('GET', '/orders/mine', undefined, broker);
        seqs.add(mine.body.seq as number);
        live.set(broker.username, mine.body.items as Order[]);
        const page = await reliably('GET', '/orders/history?limit=500', undefined, broker);
        historyTotal.set(broker.username, page.body.total as number);
        historyPage.set(broker.username, page.body.items as Order[]);
        const folded = new Map<string, { seq: number; order: Order }>();
        for (const update of (collectors.get(broker.username)?.received.get(destinations.myOrders) ?? []) as Array<{ seq: number; order: Order }>) {
          const known = folded.get(update.order.orderId);
          if (!known || update.seq >= known.seq) folded.set(update.order.orderId, update);
        }
        queue.set(broker.username, folded);
      }
      const books = new Map<string, { bids: unknown; asks: unknown }>();
      for (const assetId of ASSETS) {
        const book = await reliably('GET', `/books/${assetId}`, undefined, brokers[0]!);
        books.set(assetId, { bids: levels(book.body.bids), asks: levels(book.body.asks) });
      }
      // Nothing may have been journaled while reading (a timer's command): else read again.
      const after = await reliably('GET', '/orders/mine', undefined, brokers[0]!);
      seqs.add(after.body.seq as number);
      if (seqs.size === 1) return { seq: [...seqs][0]!, live, books, historyTotal, historyPage, queue };
      if (attempt >= 5) throw new Error(`no quiet point: journal seqs ${[...seqs].join(', ')}`);
    }
  }

  /** Compares a quiet point with the replay standing at exactly that record. */
  function compare(observation: Observation, life: number): void {
    const liveOrders = replay.engine.listOrders().map(orderToWire);
    for (const broker of brokers) {
      const clients = new Set(broker.clientCodes);
      const expectedLive = liveOrders.filter((order) => clients.has(order.clientCode));
      const byId = (orders: Order[]) => JSON.stringify([...orders].sort((a, b) => Number(a.orderId) - Number(b.orderId)));
      if (byId(observation.live.get(broker.username)!) !== byId(expectedLive)) {
        problem('mismatched', `life ${life}: ${broker.username}'s live orders (REST) differ from the replay at record ${observation.seq}`);
      }
      const ever = [...replay.orders.values()].filter((order) => clients.has(order.clientCode));
      if (observation.historyTotal.get(broker.username) !== ever.length) {
        problem('mismatched', `life ${life}: ${broker.username}'s order history holds ${observation.historyTotal.get(broker.username)} orders, the replay ${ever.length}`);
      }
      for (const row of observation.historyPage.get(broker.username)!) {
        const replayed = replay.orders.get(row.orderId);
        if (!replayed || orderState(replayed) !== orderState(row)) {
          problem('mismatched', `life ${life}: order ${row.orderId} in the history read model is ${orderState(row)}, replay ${replayed ? orderState(replayed) : 'none'}`);
          break;
        }
      }
      const queue = observation.queue.get(broker.username)!;
      for (const { order } of queue.values()) {
        const replayed = replay.orders.get(order.orderId);
        if (!replayed || orderState(replayed) !== orderState(order)) {
          problem('mismatched', `life ${life}: order ${order.orderId} on ${broker.username}'s private queue is ${orderState(order)}, replay ${replayed ? orderState(replayed) : 'none'}`);
          break;
        }
      }
      const missing = expectedLive.filter((order) => !queue.has(order.orderId));
      if (missing.length > 0) problem('mismatched', `life ${life}: ${missing.length} live orders of ${broker.username} never came on its private queue (first ${missing[0]!.orderId})`);
    }
    for (const assetId of ASSETS) {
      const book = replay.engine.getBook(assetId);
      const expected = JSON.stringify({ bids: levels(book?.bids ?? []), asks: levels(book?.asks ?? []) });
      if (JSON.stringify(observation.books.get(assetId)) !== expected) problem('mismatched', `life ${life}: book ${assetId} differs from the replay at record ${observation.seq}`);
    }
  }

  /** Reads what the dead (or stopped) server left, replays it and checks this life's acknowledgements and quiet point. */
  function verify(life: number, acks: Ack[], cancels: Ack[], observation: Observation | null): void {
    let records;
    try {
      records = replay.newRecords(journalDir);
    } catch (error) {
      problem('lost', `life ${life}: ${(error as Error).message}`);
      return;
    }
    let compared = false;
    for (const record of records) {
      if (observation && !compared && record.seq > observation.seq) {
        compare(observation, life);
        compared = true;
      }
      replay.apply(record);
    }
    result.records += records.length;
    if (observation && !compared) {
      if (replay.lastSeq >= observation.seq) compare(observation, life);
      else problem('lost', `life ${life}: the server showed record ${observation.seq}, the journal ends at ${replay.lastSeq}`);
    }
    for (const ack of acks) {
      const first = replay.keys.get(ack.key)?.[0];
      if (!first) problem('lost', `life ${life}: acknowledged order ${ack.order.orderId} (key ${ack.key}, record ${ack.seq}) is not in the journal`);
      else if (first.seq !== ack.seq || first.orderId !== ack.order.orderId) {
        problem('mismatched', `life ${life}: key ${ack.key} was acknowledged as order ${ack.order.orderId} at record ${ack.seq}, journaled as ${first.orderId} at ${first.seq}`);
      } else if (!first.order || orderState(first.order) !== orderState(ack.order)) {
        problem('mismatched', `life ${life}: order ${ack.order.orderId} acknowledged as ${orderState(ack.order)}, journaled as ${first.order ? orderState(first.order) : 'none'}`);
      }
    }
    for (const cancel of cancels) {
      const replayed = replay.orders.get(cancel.order.orderId);
      if (cancel.seq > replay.lastSeq || replayed?.status !== cancel.order.status) {
        problem('lost', `life ${life}: acknowledged cancel of order ${cancel.order.orderId} (record ${cancel.seq}) is not in the journal`);
      }
    }
    result.duplicated = replay.duplicates();
  }

  let unanswered: Array<{ broker: Broker; body: AddBody }> = [];
  try {
    for (let life = 0; life <= options.runs; life++) {
      // Started at once after the kill (and this script's check of what the dead server left).
      const startedAt = performance.now();
      await server.start();
      const acks: Ack[] = [];
      const cancels: Ack[] = [];
      if (life === 0) for (const broker of brokers) await signIn(broker);
      else result.readyMs.push(performance.now() - startedAt);

      // An order right away: how soon after the kill the exchange accepts orders again.
      const probe = addBody(brokers[0]!, life, random);
      const probed = await reliably('POST', '/orders', probe, brokers[0]!);
      if (probed.status !== 201) throw new Error(`life ${life}: first order refused: ${probed.status} ${JSON.stringify(probed.body)}`);
      acks.push({ key: probe.idempotencyKey, seq: probed.body.seq, order: probed.body.order });
      if (life > 0) {
        result.acceptMs.push(performance.now() - startedAt);
        result.acceptCpuMs.push(server.cpuMs());
      }

      const collectors = new Map<string, CollectingClient>();
      for (const broker of brokers) {
        const collector = await connectCollector(server.port, broker.token);
        await collector.subscribe(destinations.myOrders);
        collectors.set(broker.username, collector);
      }

      // Every add the kill left unanswered, sent again with its key.
      for (const { broker, body } of unanswered) {
        const journaledBefore = replay.keys.get(body.idempotencyKey)?.[0];
        const answer = await reliably('POST', '/orders', body, broker);
        if (answer.status !== 201) {
          if (journaledBefore) problem('mismatched', `life ${life}: retry of key ${body.idempotencyKey} (journaled as order ${journaledBefore.orderId}) answered ${answer.status} ${JSON.stringify(answer.body)}`);
          else log(`  retry of key ${body.idempotencyKey} refused: ${answer.body?.error?.code ?? answer.status}`);
          continue;
        }
        if (journaledBefore) result.retriedFirstResult++;
        acks.push({ key: body.idempotencyKey, seq: answer.body.seq, order: answer.body.order });
      }
      const retried = unanswered.length;
      unanswered = [];

      const observation = await observe(collectors);

      if (life === options.runs) {
        // The last life ends cleanly: what it journaled is checked like the others.
        for (const collector of collectors.values()) await collector.close().catch(() => {});
        await server.stop();
        verify(life, acks, cancels, observation);
        result.acked += acks.length;
        log(`final start: ${acks.length} acknowledged (${retried} retried), clean stop, journal ${replay.lastSeq} records`);
        break;
      }

      // Load until the kill.
      let running = true;
      const refusals = new Map<string, number>();
      const senders = brokers.flatMap((broker, brokerIndex) =>
        Array.from({ length: SENDERS }, async (_, senderIndex) => {
          const pick = prng(options.seed * 1000 + life * 10 + brokerIndex * SENDERS + senderIndex);
          const mine: Order[] = [];
          while (running) {
            if (pick() < 0.2 && mine.length > 0) {
              const [order] = mine.splice(Math.floor(pick() * mine.length), 1);
              let answer;
              try {
                answer = await server.call('POST', `/orders/${order!.orderId}/cancel`, undefined, broker.token);
              } catch {
                return; // cut off by the kill; a cancel is not retried (the order's state is checked at the next quiet point)
              }
              if (answer.status === 200) cancels.push({ key: '', seq: answer.body.seq, order: answer.body.order });
              else refusals.set(answer.body?.error?.code ?? String(answer.status), (refusals.get(answer.body?.error?.code ?? String(answer.status)) ?? 0) + 1);
              continue;
            }
            const body = addBody(broker, life, pick);
            let answer;
            try {
              answer = await server.call('POST', '/orders', body, broker.token);
            } catch {
              unanswered.push({ broker, body });
              return;
            }
            if (answer.status === 201) {
              acks.push({ key: body.idempotencyKey, seq: answer.body.seq, order: answer.body.order });
              if (!TERMINAL.has(answer.body.order.status)) mine.push(answer.body.order);
            } else refusals.set(answer.body?.error?.code ?? String(answer.status), (refusals.get(answer.body?.error?.code ?? String(answer.status)) ?? 0) + 1);
          }
        }),
      );
      await sleep(150 + Math.floor(random() * 1350));
      const killedAt = performance.now();
      await server.kill();
      running = false;
      await Promise.all(senders);
      for (const collector of collectors.values()) await collector.close().catch(() => {});
      result.unanswered += unanswered.length;

      const before = { lost: result.lost, mismatched: result.mismatched };
      verify(life, acks, cancels, observation);
      result.acked += acks.length;
      result.ackedCancels += cancels.length;
      const refused = [...refusals].map(([code, count]) => `${code} ${count}`).join(', ');
      log(
        `run ${life + 1}/${options.runs}: up in ${life === 0 ? '-' : `${Math.round(result.readyMs.at(-1)!)} ms`}, ${acks.length} orders and ${cancels.length} cancels acknowledged` +
          `${retried ? ` (${retried} retried)` : ''}, killed ${Math.round(killedAt - startedAt)} ms after its start with ${unanswered.length} unanswered; ` +
          `journal ${replay.lastSeq} records; lost ${result.lost - before.lost}, mismatched ${result.mismatched - before.mismatched}, duplicated ${result.duplicated}${refused ? `; refused: ${refused}` : ''}`,
      );
    }
  } finally {
    await server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
  log(
    `restart after SIGKILL, from spawning the process: "Exchange running" median ${Math.round(median(result.readyMs))} ms, max ${Math.round(Math.max(0, ...result.readyMs))} ms; ` +
      `first order acknowledged median ${Math.round(median(result.acceptMs))} ms, max ${Math.round(Math.max(0, ...result.acceptMs))} ms ` +
      `(server CPU time until then median ${Math.round(median(result.acceptCpuMs))} ms; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`,
  );
  log(`unanswered adds ${result.unanswered}, of which ${result.retriedFirstResult} had reached the journal and their retry returned the first result; acknowledged cancels ${result.ackedCancels}; journal records replayed ${result.records}`);
  log(`chaos:crash runs=${result.runs} acked=${result.acked} lost=${result.lost} duplicated=${result.duplicated} mismatched=${result.mismatched}`);
  return result;
}

/** Book levels as both sides give them, without the side field one of them adds. */
function levels(list: Array<{ price: number; qty: number; orders: number }>): Array<{ price: number; qty: number; orders: number }> {
  return list.map(({ price, qty, orders }) => ({ price, qty, orders }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { runs, seed } = parseArgs(process.argv.slice(2));
  console.log(`chaos:crash: ${runs} kills under load, seed ${seed}`);
  const outcome = await runChaosCrash({ runs, seed });
  process.exit(outcome.lost + outcome.duplicated + outcome.mismatched === 0 ? 0 : 1);
}
