// The data the settlement crash test settles: two markets (a forward and a spot), three clients, a few
// trades a day over several days, each day's settlement price.
import type { Transaction } from '../../../protocol/index.ts';
import { computeDailySettlementPrice } from '../../../server/clearing/settlement-price.ts';
import { readDemoExchange } from '../../../server/demo/demo-exchange.ts';
import { SettlementRepository } from '../../../server/store/settlement.repository.ts';
import type { Store } from '../../../server/store/store.ts';
import { prng } from '../../helpers/prng.ts';

export const CRASH_FIXTURE_MARKETS = ['EL-FWD', 'EL-SPOT'];
export const CRASH_FIXTURE_DAYS = ['2026-11-19', '2026-11-20', '2026-11-23', '2026-11-24', '2026-11-25'];
export const CRASH_FIXTURE_NOW = Date.parse('2026-11-25T22:00:00Z');
const ASSETS = ['EFWD-M-2027-01-BASE', 'ESPOT-DA-BASE'];
const CLIENTS = ['RO-HIDRO', 'RO-TERMO', 'RO-INDUS'];

export async function loadCrashFixture(store: Store): Promise<void> {
  const exchange = readDemoExchange();
  for (const market of exchange.markets.filter((row) => CRASH_FIXTURE_MARKETS.includes(row.id))) await store.reference.insertMarket(market);
  for (const asset of exchange.assets.filter((row) => ASSETS.includes(row.id))) await store.reference.insertAsset({ ...asset, ringId: null });
  for (const agency of exchange.agencies) await store.reference.insertAgency(agency);
  for (const client of exchange.clients.filter((row) => CLIENTS.includes(row.code))) await store.reference.insertClient(client);
  const settlement = new SettlementRepository(store.db);
  await settlement.upsertClearingTerms({
    assetId: ASSETS[0]!, initialMarginBps: 1000, deliveryMarginBps: 1500, feePerUnit: 10n, closingWindowMinutes: 30, physical: true,
    deliveryStart: '2027-01-01', deliveryEnd: '2027-01-31', expiryDate: '2026-12-30',
  });
  await settlement.upsertClearingTerms({
    assetId: ASSETS[1]!, initialMarginBps: 1000, deliveryMarginBps: 1000, feePerUnit: 5n, closingWindowMinutes: 30, physical: true,
    deliveryStart: null, deliveryEnd: null, expiryDate: null,
  });
  const random = prng(14);
  let transactionId = 0;
  const transactions: Transaction[] = [];
  for (const sessionDate of CRASH_FIXTURE_DAYS) {
    for (const [assetIndex, assetId] of ASSETS.entries()) {
      const day: Transaction[] = [];
      for (let index = 0; index < 6; index++) {
        const buyer = CLIENTS[Math.floor(random() * 3)]!;
        const seller = CLIENTS.filter((code) => code !== buyer)[Math.floor(random() * 2)]!;
        const qty = 10 + Math.floor(random() * 200);
        day.push({
          transactionId: String(++transactionId), assetId, price: (assetIndex === 0 ? 40_000 : 35_000) + Math.floor(random() * 2_000), qty, noCnt: qty,
          aggressor: 'bid', txDate: sessionDate, timestamp: `${sessionDate}T20:${String(10 + index).padStart(2, '0')}:00.000Z`,
          buyer, seller, buyOrderId: String(transactionId * 2), sellOrderId: String(transactionId * 2 + 1), marginsExposureActive: true,
          externalTransactionId: null, gasfwTransactionId: null, transferTimestamp: null, parentTransactionId: null, grandParentTransactionId: null, splitTimestamp: null,
        });
      }
      transactions.push(...day);
      const previous = await settlement.priceInForceBefore(assetId, sessionDate);
      const price = computeDailySettlementPrice({ windowTrades: day, bestBid: null, bestAsk: null, previous });
      await settlement.saveComputedPrice({ id: `DSP-${assetId}-${sessionDate}`, assetId, sessionDate, ...price, previousValue: previous, computedAt: `${sessionDate}T21:45:00.000Z` });
    }
  }
  await store.trading.insertTransactions(transactions);
}
