import { z } from 'zod';
import { ways, type Market, type MarketKind, type SessionPhase } from '../../protocol/index.ts';
import type { AssetConfig, ClientConfig, MarketConfig, ScheduleEntry } from '../engine/types.ts';
import type { AssetRecord, Client, ClientTradingSetup } from '../store/reference.repository.ts';
import type { Store } from '../store/store.ts';
import type { UnstampedCommand } from './sequencer.ts';
import { rollingPeriodSchema } from './asset-periods.ts';
import { bucharestDate, bucharestOffsetMinutes } from './time.ts';

/** The engine-side part of an asset's specification (`spec.config` in the store). */
export const assetEngineConfigSchema = z.strictObject({
  priceMustImprove: z.boolean().optional(),
  noQuantityDecrease: z.boolean().optional(),
  noPriceChange: z.boolean().optional(),
  noAttributeChange: z.boolean().optional(),
  noCancel: z.boolean().optional(),
  oneSidePerClient: z.boolean().optional(),
  gasRelease: z.boolean().optional(),
  marginBps: z.number().int().nonnegative().optional(),
  sessionMinPrice: z.number().int().nullable().optional(),
  sessionMaxPrice: z.number().int().nullable().optional(),
  regulatorMaxPrice: z.number().int().nullable().optional(),
  tradingActive: z.boolean().optional(),
  deltaT: z.strictObject({ durationMs: z.number().int().positive(), priceStep: z.number().int().positive() }).nullable().optional(),
  simpleCompetitive: z.strictObject({ initiatorClientCode: z.string(), initiatorWay: z.enum(ways) }).nullable().optional(),
  balancingGroup: z.strictObject({ maxDecreasePercent: z.number().min(0).max(100) }).nullable().optional(),
  transmissionWay: z.enum(ways).nullable().optional(),
  ownerSides: z.record(z.string(), z.enum(ways)).optional(),
  settlementPrice: z.number().int().nullable().optional(),
  /** Whitelist-restricted: orders match only between clients with an active whitelist relation. */
  bilateral: z.boolean().optional(),
  /** Not the engine's: the periods of a rolling asset follow the session date (asset-periods.ts). */
  rolling: rollingPeriodSchema.nullable().optional(),
});

export function assetConfigOf(asset: AssetRecord): AssetConfig {
  const config = assetEngineConfigSchema.parse(asset.spec.config);
  const { priceMustImprove, noQuantityDecrease, noPriceChange, noAttributeChange, noCancel, oneSidePerClient, rolling: _rolling, ...rest } = config;
  return {
    assetId: asset.id,
    marketId: asset.marketId,
    priceDecimals: asset.spec.priceDecimals,
    quantityDecimals: asset.spec.quantityDecimals,
    priceStep: asset.spec.priceStep,
    quantityStep: asset.spec.quantityStep,
    minQuantity: asset.spec.minQuantity,
    maxQuantity: asset.spec.maxQuantity,
    minPrice: asset.spec.minPrice,
    maxPrice: asset.spec.maxPrice,
    unit: asset.spec.unit,
    flags: { priceMustImprove, noQuantityDecrease, noPriceChange, noAttributeChange, noCancel, oneSidePerClient },
    ...rest,
  };
}

export function clientConfigOf(client: Client, setup: ClientTradingSetup | undefined): ClientConfig {
  return {
    clientCode: client.code,
    agencyId: client.agencyId,
    active: client.active,
    rights: setup?.rights ?? { '*': { bid: true, ask: true } },
    restrictedAsk: setup?.restrictedAsk ?? false,
    gasReleaseAssets: setup?.gasReleaseAssets ?? [],
    clearing: {
      activeForTrading: client.active,
      funds: setup?.funds ?? null,
      tradingLimit: setup?.tradingLimit ?? null,
      maxContracts: setup?.maxContracts ?? null,
    },
  };
}

/** One step of a trading day: the market enters `phase` at a Bucharest wall-clock time (HH:MM). */
export interface TimetableStep {
  time: string;
  phase: SessionPhase;
}

/**
 * The daily session timetable per market kind, in Bucharest time. The opening at 00:00 starts the
 * session of that calendar date (session dates are Bucharest dates). Demo hours: markets trade most of
 * the day so the demo can be used at any hour; the short night break still shows closing, closed and
 * the opening auction, and gives every phase widget a countdown.
 */
export const sessionTimetables: Record<MarketKind, readonly TimetableStep[]> = {
  spot: [
    { time: '00:00', phase: 'opening' },
    { time: '00:10', phase: 'trading' },
    { time: '23:40', phase: 'closing' },
    { time: '23:50', phase: 'closed' },
  ],
  forward: [
    { time: '00:00', phase: 'opening' },
    { time: '00:15', phase: 'trading' },
    { time: '23:30', phase: 'closing' },
    { time: '23:45', phase: 'closed' },
  ],
  ccp: [
    { time: '00:00', phase: 'opening' },
    { time: '00:15', phase: 'trading' },
    { time: '23:30', phase: 'closing' },
    { time: '23:45', phase: 'closed' },
  ],
  balancingGroup: [
    { time: '00:00', phase: 'opening' },
    { time: '00:05', phase: 'trading' },
    { time: '23:45', phase: 'closing' },
    { time: '23:55', phase: 'closed' },
  ],
  pmc: [
    { time: '00:00', phase: 'opening' },
    { time: '00:20', phase: 'trading' },
    { time: '23:00', phase: 'closing' },
    { time: '23:15', phase: 'closed' },
  ],
};

/** Days of schedule given to the engine at each start (the engine skips the entries already past). */
export const SCHEDULE_DAYS = 31;

/** Epoch ms of a Bucharest wall-clock time on a calendar date, across EET/EEST changes. */
export function bucharestInstant(date: string, time: string): number {
  const naive = Date.parse(`${date}T${time}:00Z`);
  const first = naive - bucharestOffsetMinutes(naive) * 60_000;
  // Near a clock change the offset at the guess may differ from the offset at the result.
  return naive - bucharestOffsetMinutes(first) * 60_000;
}

/** The absolute schedule of `days` trading days from the Bucharest date of `now`, oldest first. */
export function marketSchedule(timetable: readonly TimetableStep[], now: number, days = SCHEDULE_DAYS): ScheduleEntry[] {
  const entries: ScheduleEntry[] = [];
  const first = Date.parse(`${bucharestDate(now)}T12:00:00Z`);
  for (let day = 0; day < days; day++) {
    const date = new Date(first + day * 86_400_000).toISOString().slice(0, 10);
    for (const step of timetable) {
      entries.push({ at: bucharestInstant(date, step.time), phase: step.phase, ...(step.phase === 'opening' ? { sessionDate: date } : {}) });
    }
  }
  return entries.sort((a, b) => a.at - b.at);
}

/** Timetables per market kind; null gives markets no schedule (phases change only by operator command). */
export type SessionTimetables = Readonly<Record<MarketKind, readonly TimetableStep[]>> | null;

export function marketConfigOf(market: Market, now: number, timetables: SessionTimetables = sessionTimetables): MarketConfig {
  return { marketId: market.id, currency: market.currency, schedule: timetables ? marketSchedule(timetables[market.kind], now) : [] };
}

/** The configuration commands that load the exchange's reference data into the engine. */
export async function setupCommands(store: Store, now = Date.now(), timetables: SessionTimetables = sessionTimetables): Promise<UnstampedCommand[]> {
  const [markets, assets, clients, setups] = await Promise.all([
    store.reference.markets(),
    store.reference.assets(),
    store.reference.clients(),
    store.reference.tradingSetups(),
  ]);
  const setupOf = new Map(setups.map((setup) => [setup.clientCode, setup]));
  return [
    ...markets.map((market): UnstampedCommand => ({ type: 'upsertMarket', market: marketConfigOf(market, now, timetables) })),
    ...assets.map((asset): UnstampedCommand => ({ type: 'upsertAsset', asset: assetConfigOf(asset) })),
    ...clients.map((client): UnstampedCommand => ({ type: 'upsertClient', client: clientConfigOf(client, setupOf.get(client.code)) })),
  ];
}
