/** The thin typed streams: right destination, right schema, legacy order statuses, folds. */
import { Subject, firstValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { destinations } from '../../protocol/destinations.ts';
import type { MarketWatchRow, OrderUpdate } from '../../protocol/market-data.ts';
import { createConnection, type Connection, type StreamError } from '../../streams/connection.ts';
import {
  assetActivity$,
  foldMarketWatch,
  marketWatch$,
  myTrades$,
  notifications$,
  ownBest$,
  sessionPhase$,
  sessionStats$,
  trades$,
} from '../../streams/market-data.ts';
import { myOrders$, normalizeOrderStatus } from '../../streams/orders.ts';
import { FakeStompServer, uniqueUrl } from './fake-stomp-server.ts';
import { wireOrder } from '../helpers/wire-order.ts';

const tick = async (ms = 20): Promise<void> => {
  await vi.advanceTimersByTimeAsync(ms);
};
const at = '2026-01-01T09:00:00.000Z';

let server: FakeStompServer;
let connection: Connection;
let errors: StreamError[];

beforeEach(async () => {
  vi.useFakeTimers();
  const url = uniqueUrl('md');
  server = new FakeStompServer(url);
  connection = createConnection({ url, getToken: () => 't', webSocketFactory: server.webSocketFactory, heartbeatMs: 0, backoff: { initialMs: 10, maxMs: 10 } });
  errors = [];
  connection.errors$.subscribe((e) => errors.push(e));
  connection.connect();
  await tick();
});

afterEach(async () => {
  const done = connection.disconnect({ timeoutMs: 50 });
  await tick(100);
  await done;
  server.close();
  vi.useRealTimers();
});

const order = wireOrder;

/** Subscribes, waits for the SUBSCRIBE, publishes the payloads, returns what came out. */
async function roundTrip<T>(stream: { subscribe(next: (v: T) => void): { unsubscribe(): void } }, destination: string, payloads: unknown[]): Promise<T[]> {
  const got: T[] = [];
  const sub = stream.subscribe((v) => got.push(v));
  await tick();
  expect(server.subscribeCount(destination)).toBeGreaterThanOrEqual(1);
  for (const p of payloads) server.publish(destination, p);
  sub.unsubscribe();
  return got;
}

describe('typed streams', () => {
  it('each wrapper subscribes to its destination and parses its payload', async () => {
    const row: MarketWatchRow = { assetId: 'A1', marketId: 'M1', type: 'day-ahead', bestBid: 1, bestBidQty: 2, bestAsk: 3, bestAskQty: 4, lastPrice: null, participants: 2, lastUpdate: at };
    expect(await roundTrip(marketWatch$(connection, 'M1'), destinations.marketWatch('M1'), [row])).toEqual([row]);
    const own = { assetId: 'A1', ownBestBid: 5, ownBestAsk: null, lastUpdate: at };
    expect(await roundTrip(ownBest$(connection), destinations.myMarketWatch, [own])).toEqual([own]);
    const trade = { transactionId: 'T1', assetId: 'A1', price: 10, qty: 1, noCnt: 1, aggressor: 'ask', txDate: '2026-01-01', timestamp: at };
    expect(await roundTrip(trades$(connection, 'A1'), destinations.trades('A1'), [trade])).toEqual([trade]);
    const tx = {
      ...trade,
      buyer: 'C1',
      seller: 'C2',
      buyOrderId: 'O1',
      sellOrderId: 'O2',
      marginsExposureActive: false,
      externalTransactionId: null,
      gasfwTransactionId: null,
      transferTimestamp: null,
      parentTransactionId: null,
      grandParentTransactionId: null,
      splitTimestamp: null,
    };
    expect(await roundTrip(myTrades$(connection), destinations.myTrades, [tx])).toEqual([tx]);
    const phase = { marketId: 'M1', assetId: null, phase: 'suspended', sessionDate: '2026-01-01', at };
    expect(await roundTrip(sessionPhase$(connection, 'M1'), destinations.phase('M1'), [phase])).toEqual([phase]);
    const stats = { assetId: 'A1', sessionDate: '2026-01-01', minPrice: 1, maxPrice: 2, lastPrice: 2, volume: 10, transactions: 2, closingPrice: null, tradeableQty: null, surplusQty: null, settlementPrice: null, at };
    expect(await roundTrip(sessionStats$(connection, 'A1'), destinations.stats('A1'), [stats])).toEqual([stats]);
    const activity = { assetId: 'A1', type: 'deltaTStart', orderId: null, price: null, qty: null, endsAt: at, at };
    expect(await roundTrip(assetActivity$(connection, 'A1'), destinations.activity('A1'), [activity])).toEqual([activity]);
    const note = { id: 'N1', kind: 'phaseChanged', messageKey: 'notifications.phase', values: { phase: 'trading' }, at };
    expect(await roundTrip(notifications$(connection), destinations.notifications, [note])).toEqual([note]);
  });

  it('myOrders$ maps the legacy statuses onto the current ones and refuses unknown ones', async () => {
    const legacy = [
      { seq: 1, order: { ...order(), status: 'total' } },
      { seq: 2, order: { ...order({ orderId: 'O2' }), status: 'partial' } },
      { seq: 3, order: order({ orderId: 'O3', status: 'tradedPartially' }) },
      { seq: 4, order: { ...order({ orderId: 'O4' }), status: 'exploded' } },
    ];
    const got = await roundTrip(myOrders$(connection), destinations.myOrders, legacy);
    expect(got.map((u: OrderUpdate) => [u.order.orderId, u.order.status])).toEqual([
      ['O1', 'traded'],
      ['O2', 'tradedPartially'],
      ['O3', 'tradedPartially'],
    ]);
    expect(errors.filter((e) => e.kind === 'payload')).toHaveLength(1);
    expect(normalizeOrderStatus('created')).toBe('created');
    expect(normalizeOrderStatus('total')).toBe('traded');
    expect(normalizeOrderStatus('nope')).toBeNull();
  });
});

describe('folds', () => {
  it('foldMarketWatch keeps one row per asset, sorted by asset id', async () => {
    const rows = new Subject<MarketWatchRow>();
    const result = firstValueFrom(foldMarketWatch(rows).pipe(toArray()));
    const row = (assetId: string, bestBid: number): MarketWatchRow => ({ assetId, marketId: 'M', type: 't', bestBid, bestBidQty: 1, bestAsk: null, bestAskQty: null, lastPrice: null, participants: 1, lastUpdate: at });
    rows.next(row('B', 1));
    rows.next(row('A', 2));
    rows.next(row('B', 3));
    rows.complete();
    const tables = await result;
    expect(tables.at(-1)!.map((r) => [r.assetId, r.bestBid])).toEqual([
      ['A', 2],
      ['B', 3],
    ]);
  });
});
