import { computeSettlement, settlementId, type SettlementAsset, type SettlementTrade } from '../clearing/settlement-compute.ts';
import { computeDailySettlementPrice } from '../clearing/settlement-price.ts';
import { dueDateOf } from '../clearing/settlement-run.ts';
import { SettlementRepository } from '../store/settlement.repository.ts';
import type { Store } from '../store/store.ts';
import { bucharestDate } from '../trading/time.ts';
import { demoAssetId } from './demo-exchange.ts';

/** Market kinds whose assets carry positions (forwards); the PMC's weekly products are delivered over a later week. */
const FORWARD_KINDS = new Set(['forward', 'ccp', 'pmc']);
/** The demo's weekly PMC product (the template's id, rolled with the demo's calendar) expires on the last day of history, so the final settlement prices show a row. */
const EXPIRING_IN_HISTORY = ['PMC-BASE-W49'];
/** Session days of history the demo gets, before today. */
const HISTORY_DAYS = 6;
/** Obligations of the latest this many days stay unpaid; older ones are paid or cashed. */
const UNPAID_DAYS = 2;
/** Demo transaction ids: far above anything the engine's counter reaches, so they never collide. */
const DEMO_TRANSACTION_BASE = 900_000_000;

const DEMO_FISCAL_CODES: Record<string, string> = {
  'RO-HIDRO': 'RO13267221',
  'RO-GAZEST': 'RO14056826',
  'RO-TERMO': 'RO15302418',
  'RO-INDUS': 'RO16478330',
  'RO-DORMANT': 'RO17550922',
};

/** The demo's traded pairs per asset (the fixture's ids, rolled with the demo's calendar): buyer, seller, and a base price in minor units. */
const DEMO_TRADING: Array<{ assetId: string; base: number; pairs: Array<[string, string]> }> = [
  { assetId: 'EFWD-M-2027-01-BASE', base: 41_000, pairs: [['RO-HIDRO', 'RO-TERMO'], ['RO-INDUS', 'RO-GAZEST']] },
  { assetId: 'GFWD-M-2027-01', base: 16_500, pairs: [['RO-GAZEST', 'RO-INDUS'], ['RO-TERMO', 'RO-HIDRO']] },
  { assetId: 'ESPOT-DA-BASE', base: 35_000, pairs: [['RO-TERMO', 'RO-HIDRO'], ['RO-GAZEST', 'RO-INDUS']] },
  { assetId: 'GSPOT-DA', base: 15_200, pairs: [['RO-INDUS', 'RO-HIDRO'], ['RO-HIDRO', 'RO-GAZEST']] },
  { assetId: 'PMC-BASE-W49', base: 42_500, pairs: [['RO-HIDRO', 'RO-INDUS'], ['RO-TERMO', 'RO-GAZEST']] },
];

/** The `count` business days before `today`, oldest first. */
function businessDaysBefore(today: string, count: number): string[] {
  const days: string[] = [];
  let at = Date.parse(`${today}T12:00:00Z`);
  while (days.length < count) {
    at -= 86_400_000;
    const weekday = new Date(at).getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.unshift(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * Gives the demo exchange its clearing side on a database that has none: fiscal codes, every asset's
 * clearing terms, and some days of settlement history for the demo clients (prices, runs, notes,
 * obligations paid and unpaid, bank commissions, batches, reports), made by the same arithmetic as a
 * real run. Returns false when settlement rows already exist.
 */
export async function loadDemoSettlementIfEmpty(store: Store, now: Date): Promise<boolean> {
  const [{ runs }] = await store.db.query<{ runs: string | number }>('select count(*) as runs from settlement_runs') as [{ runs: string | number }];
  if (Number(runs) > 0) return false;
  const repository = new SettlementRepository(store.db);
  for (const [code, fiscalCode] of Object.entries(DEMO_FISCAL_CODES)) {
    await store.db.query(`update clients set fiscal_code = $2 where code = $1 and fiscal_code = ''`, [code, fiscalCode]);
  }
  const markets = new Map((await store.reference.markets()).map((market) => [market.id, market]));
  const assets = await store.reference.assets();
  const existingTerms = await repository.clearingTerms();
  const days = businessDaysBefore(bucharestDate(now.getTime()), HISTORY_DAYS);
  const expiring = new Set(EXPIRING_IN_HISTORY.map((id) => demoAssetId(id, now.getTime())));
  const trading = DEMO_TRADING.map((demo) => ({ ...demo, assetId: demoAssetId(demo.assetId, now.getTime()) }));
  for (const asset of assets) {
    if (existingTerms.has(asset.id)) continue;
    const forward = FORWARD_KINDS.has(markets.get(asset.marketId)?.kind ?? '');
    const marginBps = typeof asset.spec.config.marginBps === 'number' ? asset.spec.config.marginBps : 1_000;
    await repository.upsertClearingTerms({
      assetId: asset.id,
      initialMarginBps: marginBps,
      deliveryMarginBps: forward ? 1_500 : marginBps,
      // 0.10 RON per MWh on forwards, 0.05 RON on spot, each side
      feePerUnit: forward ? 10n : 5n,
      closingWindowMinutes: 30,
      physical: true,
      deliveryStart: forward ? (asset.spec.deliveryStart ?? null) : null,
      deliveryEnd: forward ? (asset.spec.deliveryEnd ?? null) : null,
      expiryDate: expiring.has(asset.id) ? days.at(-1)! : forward ? (asset.spec.tradingEnd ?? null) : null,
    });
  }

  const terms = await repository.clearingTerms();
  const clients = await repository.clientIdentities();
  const previousPrice = new Map<string, number>();
  const positions = new Map<string, Array<{ clientCode: string; assetId: string; qty: number }>>();
  let transactionId = DEMO_TRANSACTION_BASE;
  for (const [dayIndex, sessionDate] of days.entries()) {
    const at = new Date(Date.parse(`${sessionDate}T21:50:00Z`)).toISOString();
    const tradesByMarket = new Map<string, SettlementTrade[]>();
    const assetsByMarket = new Map<string, SettlementAsset[]>();
    const snapshots: Array<{ clientCode: string; trade: SettlementTrade }> = [];
    for (const [assetIndex, demo] of trading.entries()) {
      const asset = assets.find((candidate) => candidate.id === demo.assetId);
      if (!asset) continue;
      // A deterministic walk: a few RON up or down a day.
      const drift = ((dayIndex * 7 + assetIndex * 3) % 9) - 4;
      const trades = demo.pairs.map(([buyer, seller], pairIndex): SettlementTrade => {
        const qty = 50 + ((dayIndex + pairIndex * 3 + assetIndex) % 5) * 25;
        return { transactionId: String(++transactionId), assetId: asset.id, buyer, seller, price: demo.base + drift * 100 + pairIndex * 35, qty, noCnt: qty };
      });
      const dsp = computeDailySettlementPrice({ windowTrades: trades, bestBid: null, bestAsk: null, previous: previousPrice.get(asset.id) ?? null });
      await repository.saveComputedPrice({ id: settlementId('DSP', asset.id, sessionDate), assetId: asset.id, sessionDate, ...dsp, previousValue: previousPrice.get(asset.id) ?? null, computedAt: at });
      const assetTerms = terms.get(asset.id);
      const settlementAsset: SettlementAsset = {
        assetId: asset.id,
        assetName: asset.name,
        priceDecimals: asset.spec.priceDecimals,
        quantityDecimals: asset.spec.quantityDecimals,
        forward: assetTerms?.deliveryStart !== null && assetTerms?.deliveryStart !== undefined,
        feePerUnit: assetTerms?.feePerUnit ?? 0n,
        price: dsp.value,
        previousPrice: previousPrice.get(asset.id) ?? null,
      };
      if (dsp.value !== null) previousPrice.set(asset.id, dsp.value);
      if (dsp.value !== null && assetTerms?.expiryDate === sessionDate) {
        await repository.saveFinalPrice({
          finalSettlementPriceId: settlementId('FSP', asset.id), assetId: asset.id, sessionDate, finalSettlementPrice: dsp.value, dailySettlementPrice: dsp.value,
          consultationPrice: null, priceFromLiquidation: null, computedAt: at,
        });
      }
      assetsByMarket.set(asset.marketId, [...(assetsByMarket.get(asset.marketId) ?? []), settlementAsset]);
      tradesByMarket.set(asset.marketId, [...(tradesByMarket.get(asset.marketId) ?? []), ...trades]);
      for (const trade of trades) snapshots.push({ clientCode: trade.buyer, trade }, { clientCode: trade.seller, trade });
    }
    for (const [marketId, marketAssets] of assetsByMarket) {
      const market = markets.get(marketId)!;
      const runId = settlementId('SR', marketId, sessionDate);
      const result = computeSettlement({
        settlementRunId: runId,
        marketId,
        sessionDate,
        currency: market.currency,
        at,
        dueDate: dueDateOf(sessionDate),
        assets: marketAssets,
        clients,
        trades: tradesByMarket.get(marketId) ?? [],
        openingPositions: positions.get(marketId) ?? [],
      });
      positions.set(marketId, result.positions);
      await repository.markRunStarted(runId, marketId, sessionDate, at);
      await repository.writeRun(result, { id: runId, at });
    }
    // The demo's transactions are not in the read model: the reports keep them as they would have been.
    for (const clientCode of new Set(snapshots.map((row) => row.clientCode))) {
      const transactions = snapshots.filter((row) => row.clientCode === clientCode).map(({ trade }) => {
        const asset = assets.find((candidate) => candidate.id === trade.assetId)!;
        return {
          transactionId: trade.transactionId, assetId: trade.assetId, price: trade.price, qty: trade.qty, noCnt: trade.noCnt, aggressor: 'bid', txDate: sessionDate,
          timestamp: at, buyer: trade.buyer, seller: trade.seller, buyOrderId: '0', sellOrderId: '0', marginsExposureActive: Boolean(asset.spec.config.marginBps),
          externalTransactionId: null, gasfwTransactionId: null, transferTimestamp: null, parentTransactionId: null, grandParentTransactionId: null, splitTimestamp: null,
        };
      });
      await store.db.query('update transaction_reports set transactions = $3 where client_code = $1 and session_date = $2', [clientCode, sessionDate, JSON.stringify(transactions)]);
    }
    if (dayIndex < days.length - UNPAID_DAYS) {
      const paidAt = new Date(Date.parse(`${dueDateOf(sessionDate)}T09:30:00Z`)).toISOString();
      for (const obligation of await repository.listObligations({ clientCodes: null, marketIds: null, from: sessionDate, to: sessionDate, status: 'unpaid' })) {
        await repository.settleObligation(obligation.obligationId, 'admin', `OP-${obligation.obligationId}`.slice(0, 100), paidAt);
      }
    }
  }
  return true;
}
