/**
 * Records a journal fixture: a deterministic, varied command stream (every order type and validity,
 * modifies, cancels, suspends, activates, refusals, phases and sessions, operator suspend / resume,
 * opening auctions, delta T, schedules, ticks with expiries, configuration upserts) run through the
 * engine as it is, written with the real Journal class, together with the stateHash() the engine
 * reaches and a digest of every result (code, params, order id).
 *
 * tests/server/engine/journal/recorded-journal.test.ts replays the fixture and asserts both: the
 * engine's behaviour on this stream is pinned across refactorings.
 *
 *   npx tsx tests/helpers/record-journal.ts fixtures/journal/recorded-2026-11-25
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../../server/engine/engine.ts';
import { Journal } from '../../server/engine/journal/journal.ts';
import type { AssetConfig, ClientConfig, EngineCommand, EngineResult } from '../../server/engine/types.ts';
import type { JournalEntry } from '../../server/trading/sequencer.ts';
import { prng } from './prng.ts';

export const RECORD_SEED = 20261125;
export const RECORD_COUNT = 4_500;
const EPOCH = Date.UTC(2026, 10, 25, 7, 0, 0);

const base = { priceDecimals: 2, quantityDecimals: 0, priceStep: 5, quantityStep: 1, minQuantity: 1, maxQuantity: 500, minPrice: 100, maxPrice: 1_000_000 };

/** Assets with one rule family each, so the stream walks every rule's pass and refusal. */
function assets(): AssetConfig[] {
  return [
    { assetId: 'PLAIN', marketId: 'GAS', ...base, marginBps: 1_000, unit: 'MWh' },
    { assetId: 'DELTA', marketId: 'GAS', ...base, deltaT: { durationMs: 5_000, priceStep: 10 } },
    { assetId: 'FLAGS', marketId: 'GAS', ...base, flags: { priceMustImprove: true, noQuantityDecrease: true, noAttributeChange: true }, sessionMinPrice: 5_000, sessionMaxPrice: 15_000, regulatorMaxPrice: 14_000 },
    { assetId: 'NOCANCEL', marketId: 'GAS', ...base, flags: { noCancel: true, noPriceChange: true, oneSidePerClient: true } },
    { assetId: 'CONTRACT', marketId: 'PWR', ...base, quantityInput: 'noCnt', contractQty: 24, maxQuantity: 24 * 50, quantityStep: 24, minQuantity: 24, settlementIntervalsPerDay: 24, deliveryDays: 7, marginBps: 500, marginsExposureActive: true },
    { assetId: 'SC', marketId: 'PWR', ...base, simpleCompetitive: { initiatorClientCode: 'C1', initiatorWay: 'ask' } },
    { assetId: 'BG', marketId: 'PWR', ...base, balancingGroup: { maxDecreasePercent: 30 }, transmissionWay: 'bid', ownerSides: { C4: 'ask' } },
    { assetId: 'GASREL', marketId: 'PWR', ...base, gasRelease: true, settlementPrice: 10_000 },
  ];
}

function clients(): ClientConfig[] {
  const all = { '*': { bid: true, ask: true } };
  return [
    { clientCode: 'C1', agencyId: 'AG1', rights: all, gasReleaseAssets: ['GASREL'], clearing: { funds: 500_000, tradingLimit: 30_000_000 } },
    { clientCode: 'C2', agencyId: 'AG1', rights: all, tradeableQuantity: { '*': { bid: 400, ask: 400 } }, clearing: { maxContracts: 300 } },
    { clientCode: 'C3', agencyId: 'AG2', rights: { '*': { bid: true, ask: true }, FLAGS: { bid: true, ask: false } }, imbalance: { PLAIN: { way: 'bid', quantity: 120 } }, transmissionPartner: { active: true } },
    { clientCode: 'C4', agencyId: 'AG2', rights: all, restrictedAsk: false, gasReleaseAssets: ['*'], clearing: { allowedAssets: ['PLAIN', 'DELTA', 'FLAGS', 'NOCANCEL', 'BG', 'SC', 'GASREL'] } },
    { clientCode: 'C5', agencyId: 'AG1', rights: all, restrictedAsk: true, clearing: { funds: 150_000 } },
    { clientCode: 'C6', agencyId: 'AG2', active: false, rights: all },
  ];
}

/**
 * The stream, with times. It reads each command's result (`next(result)`) to name live orders mostly,
 * and sometimes finished or unknown ones.
 */
export function* recordedStream(seed = RECORD_SEED, count = RECORD_COUNT): Generator<EngineCommand, void, EngineResult | undefined> {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  let at = EPOCH;
  const step = (ms = 1 + Math.floor(random() * 400)) => (at += ms);
  const assetList = assets();
  const clientList = clients();
  const codes = ['C1', 'C1', 'C2', 'C2', 'C3', 'C4', 'C4', 'C5', 'C6', 'ZZ'];
  const days = ['2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28'];
  let day = 0;

  yield { type: 'upsertMarket', at: step(), market: { marketId: 'GAS', currency: 'RON' } };
  yield {
    type: 'upsertMarket',
    at: step(),
    market: { marketId: 'PWR', currency: 'EUR', schedule: [{ at: EPOCH + 30 * 60_000, phase: 'closing' }, { at: EPOCH + 40 * 60_000, phase: 'closed' }, { at: EPOCH + 45 * 60_000, phase: 'opening', sessionDate: days[1] }, { at: EPOCH + 50 * 60_000, phase: 'trading' }] },
  };
  for (const asset of assetList) yield { type: 'upsertAsset', at: step(), asset };
  for (const client of clientList) yield { type: 'upsertClient', at: step(), client };
  yield { type: 'upsertAsset', at: step(), asset: { ...assetList[0]!, priceStep: 0 } }; // refused
  yield { type: 'upsertAsset', at: step(), asset: { ...assetList[0]!, marketId: 'NOPE' } }; // refused
  yield { type: 'setPhase', at: step(), marketId: 'GAS', phase: 'opening', sessionDate: days[0] };
  yield { type: 'setPhase', at: step(), marketId: 'PWR', phase: 'opening', sessionDate: days[0] };

  const sessionCycle = ['opening', 'trading', 'trading', 'trading', 'trading', 'closing', 'closed'] as const;
  const cycles: Record<string, { index: number; suspended: boolean; suspendedAsset: string | null }> = {
    GAS: { index: 0, suspended: false, suspendedAsset: null },
    PWR: { index: 0, suspended: false, suspendedAsset: null },
  };
  let issued = 0;
  const live: number[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    const asset = pick(assetList);
    const assetId = asset.assetId;
    const marketId = asset.marketId;
    // mostly live orders, sometimes any id (finished or unknown)
    const orderId = live.length > 0 && random() < 0.85 ? live[Math.floor(random() * live.length)]! : 1 + Math.floor(random() * (issued + 3));
    const agency = random() < 0.9 ? undefined : pick(['AG1', 'AG2']);
    const actor = agency ? { brokerId: 'BR1', agencyId: agency } : { brokerId: 'BR1' };
    if (roll < 0.5) {
      const way = random() < 0.5 ? 'bid' : 'ask';
      const offset = Math.floor(random() * 24) - 6;
      const price = random() < 0.03 ? pick([0, -5, 7, 1e15, 99, 2_000_000, 16_000, 4_000]) : (way === 'bid' ? 10_000 - offset * 5 : 10_000 + offset * 5);
      const validityType = random() < 0.02 ? ('GTX' as never) : pick(['day', 'GTC', 'GTC', 'GTD', 'GTSV'] as const);
      const executionType = pick(['normal', 'normal', 'normal', 'normal', 'IOC', 'FOK'] as const);
      const market = executionType !== 'normal' && random() < 0.3;
      const qtyValue = random() < 0.02 ? pick([0, 1.5, 10_000]) : 1 + Math.floor(random() * 60);
      const quantity = asset.quantityInput === 'noCnt' ? (random() < 0.1 ? { qty: qtyValue * 24 } : { noCnt: qtyValue }) : { qty: random() < 0.01 ? undefined : qtyValue };
      const added = yield {
        type: 'addOrder',
        at: step(),
        actor,
        assetId: random() < 0.01 ? 'NOPE' : assetId,
        clientCode: pick(codes),
        way: random() < 0.005 ? ('buy' as never) : way,
        ...(market ? {} : { price }),
        ...quantity,
        validityType,
        ...(validityType === 'GTD' || validityType === 'GTSV' ? { validity: random() < 0.05 ? at - 10 : at + 1_000 + Math.floor(random() * 120_000) } : {}),
        executionType,
        ...(assetId === 'BG' && random() < 0.7 ? { balancingGroupId: 'BG-1' } : {}),
        ...(random() < 0.05 ? { powerPerInterval: 3 } : {}),
      } as EngineCommand;
      if (added?.orderId !== undefined) {
        issued = added.orderId;
        live.push(added.orderId);
        if (live.length > 40) live.splice(Math.floor(random() * live.length), 1);
      }
    } else if (roll < 0.65) {
      const change = random();
      yield {
        type: 'modifyOrder',
        at: step(),
        actor,
        orderId,
        ...(change < 0.4 ? { price: 10_000 + (Math.floor(random() * 24) - 12) * 5 } : {}),
        ...(change >= 0.3 && change < 0.8 ? { qty: 1 + Math.floor(random() * 70) } : {}),
        ...(change >= 0.8 && change < 0.9 ? { validityType: pick(['GTC', 'GTD', 'day'] as const), validity: at + 60_000 } : {}),
        ...(change >= 0.9 && change < 0.93 ? { executionType: 'IOC' as const } : {}),
        ...(change >= 0.93 ? { noCnt: 1 + Math.floor(random() * 5) } : {}),
      };
    } else if (roll < 0.77) {
      yield { type: 'cancelOrder', at: step(), actor, orderId };
    } else if (roll < 0.83) {
      yield { type: 'suspendOrder', at: step(), actor, orderId };
    } else if (roll < 0.89) {
      yield { type: 'activateOrder', at: step(), actor, orderId };
    } else if (roll < 0.95) {
      yield { type: 'tick', at: step(1 + Math.floor(random() * 8_000)) };
    } else if (roll < 0.975) {
      // the session cycle per market: opening (orders gather), trading (the auction uncrosses), closing,
      // closed (day orders expire), the next day's opening; an operator suspend is resumed next time
      const cycle = cycles[marketId]!;
      const phaseRoll = random();
      if (cycle.suspended) {
        cycle.suspended = false;
        yield { type: 'operatorResume', at: step(), marketId, ...(cycle.suspendedAsset ? { assetId: cycle.suspendedAsset } : {}) };
      } else if (phaseRoll < 0.75) {
        cycle.index = (cycle.index + 1) % sessionCycle.length;
        const phase = sessionCycle[cycle.index]!;
        yield { type: 'setPhase', at: step(), marketId, ...(random() < 0.2 ? { assetId } : {}), phase };
        if (phase === 'closed') {
          // the next day opens at once (closing and closed are short)
          cycle.index = 0;
          if (day < days.length - 1) day++;
          yield { type: 'setPhase', at: step(), marketId, phase: 'opening', sessionDate: days[day]! };
        }
      } else if (phaseRoll < 0.93) {
        cycle.suspended = true;
        cycle.suspendedAsset = random() < 0.4 ? assetId : null;
        yield { type: 'operatorSuspend', at: step(), marketId, ...(cycle.suspendedAsset ? { assetId: cycle.suspendedAsset } : {}) };
      } else if (phaseRoll < 0.96) {
        yield { type: 'operatorResume', at: step(), marketId }; // refused: not suspended
      } else {
        yield { type: 'setPhase', at: step(), marketId: random() < 0.5 ? marketId : 'NOPE', phase: random() < 0.5 ? 'trading' : ('lunch' as never) };
      }
    } else {
      const configRoll = random();
      if (configRoll < 0.4) {
        const client = pick(clientList);
        yield { type: 'upsertClient', at: step(), client: { ...client, active: random() < 0.9, clearing: { ...client.clearing, activeForTrading: random() < 0.9 } } };
      } else if (configRoll < 0.7) {
        yield { type: 'upsertAsset', at: step(), asset: { ...asset, tradingActive: random() < 0.95, sessionMinPrice: random() < 0.3 ? 9_000 : asset.sessionMinPrice ?? null } };
      } else if (configRoll < 0.9) {
        yield { type: 'setSettlementPrice', at: step(), assetId: random() < 0.9 ? assetId : 'NOPE', price: random() < 0.8 ? 10_000 + Math.floor(random() * 10) * 5 : null };
      } else {
        yield { type: 'bogus', at: step() } as never;
      }
    }
  }
  // the end of the day: everything due happens
  yield { type: 'setPhase', at: step(), marketId: 'GAS', phase: 'trading' };
  yield { type: 'tick', at: step(600_000) };
  yield { type: 'setPhase', at: step(), marketId: 'GAS', phase: 'closed' };
}

/** sha256 of the results' codes, params and order ids, one line per command. */
export function resultsDigest(results: Iterable<EngineResult>): string {
  const h = createHash('sha256');
  for (const r of results) h.update(JSON.stringify([r.result, r.params ?? null, r.orderId ?? null]) + '\n');
  return h.digest('hex');
}

export interface RecordedExpectation {
  seed: number;
  commands: number;
  /** engine.stateHash() after replaying every record. */
  stateHash: string;
  /** resultsDigest() of the replay. */
  resultsDigest: string;
  /** How many commands of each result code (to read what the stream covers). */
  resultCodes: Record<string, number>;
}

/** Runs the stream through a new engine, journals every command with the real Journal and writes the expectation beside it. */
export async function recordJournal(dir: string): Promise<RecordedExpectation> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const { journal } = await Journal.open<JournalEntry, never>(dir);
  const engine = new Engine();
  const results: EngineResult[] = [];
  const resultCodes: Record<string, number> = {};
  const appended: Array<Promise<number>> = [];
  const eventTypes: Record<string, number> = {};
  const stream = recordedStream();
  for (let next = stream.next(); !next.done; ) {
    const command = next.value;
    const r = engine.execute(command);
    next = stream.next(r);
    results.push(r);
    resultCodes[r.result] = (resultCodes[r.result] ?? 0) + 1;
    for (const e of r.events) {
      const key = e.type === 'order' || e.type === 'deltaT' ? `${e.type}:${e.kind}` : e.type;
      eventTypes[key] = (eventTypes[key] ?? 0) + 1;
    }
    // refusals too: a replay must refuse them again and change nothing
    appended.push(journal.append({ command }));
  }
  await Promise.all(appended);
  await journal.close();
  const problems = engine.validateInternalState();
  if (problems.length > 0) throw new Error(`the recorded engine is inconsistent: ${problems.join('; ')}`);
  const expectation: RecordedExpectation = {
    seed: RECORD_SEED,
    commands: results.length,
    stateHash: engine.stateHash(),
    resultsDigest: resultsDigest(results),
    resultCodes: Object.fromEntries(Object.entries(resultCodes).sort(([x], [y]) => (x < y ? -1 : 1))),
  };
  writeFileSync(join(dir, 'expected.json'), JSON.stringify(expectation, null, 2) + '\n');
  console.log(JSON.stringify(eventTypes));
  return expectation;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const dir = process.argv[2] ?? 'fixtures/journal/recorded-2026-11-25';
  const expectation = await recordJournal(dir);
  console.log(JSON.stringify(expectation, null, 2));
  console.log(readdirSync(dir).join('\n'));
}
