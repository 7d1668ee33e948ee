/** Engine set-up and command list of the engine benchmark (shared by bench/engine.bench.ts). */
import type { Engine } from '../server/engine/engine.ts';
import type { EngineCommand } from '../server/engine/types.ts';
import { OP_CANCEL, OP_LIMIT, type EngineStream } from './engine-stream.ts';

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

