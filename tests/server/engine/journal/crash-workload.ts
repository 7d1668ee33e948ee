import type { UnstampedCommand } from '../../../../server/trading/sequencer.ts';
import { prng } from '../../../helpers/prng.ts';

/**
 * A deterministic stream of engine commands for the kill-and-restart test: configuration first, then
 * random adds (some crossing), modifies, cancels, suspends and activates on two assets.
 */
export const CRASH_EPOCH = Date.UTC(2026, 10, 23, 8, 0, 0);

export function* crashWorkload(seed: number, count: number): Generator<UnstampedCommand> {
  const random = prng(seed);
  const assets = ['A1', 'A2'];
  const clients = ['C1', 'C2', 'C3', 'C4'];
  yield { type: 'upsertMarket', market: { marketId: 'M', currency: 'RON' } };
  for (const assetId of assets) {
    yield {
      type: 'upsertAsset',
      asset: { assetId, marketId: 'M', priceDecimals: 2, quantityDecimals: 0, priceStep: 1, quantityStep: 1, minQuantity: 1, maxQuantity: 1000, minPrice: 1, maxPrice: 100_000 },
    };
  }
  for (const clientCode of clients) yield { type: 'upsertClient', client: { clientCode, rights: { '*': { bid: true, ask: true } } } };
  yield { type: 'setPhase', marketId: 'M', assetId: null, phase: 'trading', sessionDate: '2026-11-23' };
  // Order ids are assigned by the engine from 1; the stream refers to ids it has probably created.
  let issued = 0;
  for (let index = 0; index < count; index++) {
    const roll = random();
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
    if (roll < 0.6 || issued === 0) {
      issued++;
      const way = random() < 0.5 ? 'bid' : 'ask';
      const offset = Math.floor(random() * 20) - 3; // a few cross the spread
      yield {
        type: 'addOrder',
        actor: {},
        assetId: pick(assets),
        clientCode: way === 'bid' ? pick(['C1', 'C2']) : pick(['C3', 'C4']),
        way,
        price: way === 'bid' ? 10_000 - offset : 10_000 + offset,
        qty: 1 + Math.floor(random() * 50),
        validityType: 'GTC',
        executionType: random() < 0.05 ? 'IOC' : 'normal',
      };
    } else {
      const orderId = 1 + Math.floor(random() * issued);
      const kind = random();
      if (kind < 0.5) yield { type: 'cancelOrder', actor: {}, orderId };
      else if (kind < 0.8) yield { type: 'modifyOrder', actor: {}, orderId, qty: 1 + Math.floor(random() * 40) };
      else if (kind < 0.9) yield { type: 'suspendOrder', actor: {}, orderId };
      else yield { type: 'activateOrder', actor: {}, orderId };
    }
  }
}

/** A clock that moves 1 ms per reading, so the same stream gets the same timestamps in every run. */
export function steppingClock(): () => number {
  let now = CRASH_EPOCH;
  return () => now++;
}
