import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketSimulator } from '../../../server/demo/market-simulator.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.server.close();
});

function seeded(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

describe('market simulator', () => {
  it('keeps demo books moving through the public API within the rules', async () => {
    const simulator = new MarketSimulator({ api: t.api, random: seeded(7), now: t.clock.now, depth: 4 });
    await simulator.start();
    simulator.stop(); // stepped by hand below
    for (let step = 0; step < 120; step++) await simulator.step();
    expect(simulator.actions).toBe(120);
    expect(Object.fromEntries(simulator.refusals)).toEqual({});

    const engine = t.server.sequencer.engine;
    const books = ['GSPOT-DA', 'GSPOT-WD', 'ESPOT-DA-BASE', 'EFWD-M-2027-01-BASE'].map((assetId) => engine.getBook(assetId)!);
    expect(books.filter((book) => book.bids.length + book.asks.length > 0).length).toBeGreaterThanOrEqual(3);
    for (const book of books) {
      // Never crossed, and no side deeper than the simulator's cap times its two clients per trader.
      if (book.bids[0] && book.asks[0]) expect(book.bids[0].price).toBeLessThan(book.asks[0].price);
    }
    expect(engine.listOrders({ assetId: 'PMC-BASE-W49' })).toHaveLength(0);
    expect(engine.validateInternalState()).toEqual([]);
  });
});
