/** Engine set-up, command list and reference operations of the engine benchmark (bench/engine.bench.ts, engine-profile.ts). */
import { OrderBook, Side } from 'nodejs-order-book';
import type { Engine } from '../server/engine/engine.ts';
import type { EngineCommand } from '../server/engine/types.ts';
import { OP_CANCEL, OP_LIMIT, OP_MARKET, type EngineStream } from './engine-stream.ts';

const CLIENTS_PER_SIDE = 50;
const T0 = Date.UTC(2026, 10, 23, 8, 0, 0);
export const ASSET = 'BENCH-GAS-DA';

export function configure(engine: Engine): void {
  const setup: EngineCommand[] = [
    { type: 'upsertMarket', at: T0, market: { marketId: 'BENCH', currency: 'RON' } },
    {
      type: 'upsertAsset',
      at: T0,
      asset: {
        assetId: ASSET,
        marketId: 'BENCH',
        priceDecimals: 2,
        quantityDecimals: 0,
        priceStep: 1,
        quantityStep: 1,
        minQuantity: 1,
        maxQuantity: 1_000_000,
        minPrice: 1,
        maxPrice: 100_000_000,
        sessionMinPrice: 1,
        sessionMaxPrice: 90_000_000,
        regulatorMaxPrice: 95_000_000,
        marginBps: 1_000,
        contractQty: 1,
      },
    },
  ];
  for (let i = 0; i < CLIENTS_PER_SIDE; i++) {
    for (const prefix of ['B', 'S']) {
      setup.push({
        type: 'upsertClient',
        at: T0,
        client: {
          clientCode: `${prefix}${i}`,
          agencyId: 'AG1',
          rights: { '*': { bid: true, ask: true } },
          clearing: { funds: 1e15, tradingLimit: 1e15, maxContracts: 1e12 },
        },
      });
    }
  }
  setup.push({ type: 'setPhase', at: T0, marketId: 'BENCH', phase: 'trading', sessionDate: '2026-11-23' });
  for (const c of setup) {
    const r = engine.execute(c);
    if (r.result !== 'OK') throw new Error(`setup refused: ${r.result}`);
  }
}

export function buildCommands(s: EngineStream): EngineCommand[] {
  const out: EngineCommand[] = new Array(s.length);
  const bidClients = Array.from({ length: CLIENTS_PER_SIDE }, (_, i) => `B${i}`);
  const askClients = Array.from({ length: CLIENTS_PER_SIDE }, (_, i) => `S${i}`);
  const actor = { userId: 'bench', brokerId: 'BR1', agencyId: 'AG1' };
  for (let i = 0; i < s.length; i++) {
    const at = T0 + 1 + i;
    const kind = s.kind[i];
    if (kind === OP_CANCEL) {
      out[i] = { type: 'cancelOrder', at, orderId: s.id[i]!, actor };
      continue;
    }
    const way = s.side[i] === 0 ? 'bid' : 'ask';
    const clientCode = (s.side[i] === 0 ? bidClients : askClients)[i % CLIENTS_PER_SIDE]!;
    out[i] =
      kind === OP_LIMIT
        ? { type: 'addOrder', at, actor, assetId: ASSET, clientCode, way, price: s.price[i]!, qty: s.qty[i]!, validityType: 'day' }
        : { type: 'addOrder', at, actor, assetId: ASSET, clientCode, way, qty: s.qty[i]!, validityType: 'day', executionType: 'IOC' };
  }
  return out;
}


/** The same stream as nodejs-order-book operations (ids as strings, as that library takes them). */
export type RefOp = { k: 0; o: { side: Side; id: string; size: number; price: number } } | { k: 1; o: { side: Side; size: number } } | { k: 2; id: string };

export function buildReference(s: EngineStream): RefOp[] {
  const out: RefOp[] = new Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const side = s.side[i] === 0 ? Side.BUY : Side.SELL;
    if (s.kind[i] === OP_LIMIT) out[i] = { k: 0, o: { side, id: String(s.id[i]), size: s.qty[i]!, price: s.price[i]! } };
    else if (s.kind[i] === OP_MARKET) out[i] = { k: 1, o: { side, size: s.qty[i]! } };
    else out[i] = { k: 2, id: String(s.id[i]) };
  }
  return out;
}

/** Feeds the first `n` operations to a new nodejs-order-book. */
export function runReference(ops: RefOp[], n: number): { book: OrderBook; ms: number } {
  const book = new OrderBook();
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const op = ops[i]!;
    if (op.k === 0) book.limit(op.o);
    else if (op.k === 1) book.market(op.o);
    else book.cancel(op.id);
  }
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  return { book, ms };
}
