import { z } from 'zod';
import type { AssetSpecification } from '../../protocol/index.ts';
import { toAssetSpecification, type AssetRecord } from '../store/reference.repository.ts';

/**
 * A rolling asset (day-ahead, within-day, a balancing group's day) is the same product every session:
 * it trades on the market's session date and delivers `deliveryOffsetDays` later (1: day-ahead, 0:
 * within-day). Its periods are not stored dates that go stale; the server computes them from the
 * session date whenever it serves the asset, so they move on with each opening of the schedule.
 * Kept in the asset's `spec.config.rolling`.
 */
export const rollingPeriodSchema = z.strictObject({ deliveryOffsetDays: z.number().int().min(0).max(7) });
export type RollingPeriod = z.infer<typeof rollingPeriodSchema>;

type Periods = Pick<AssetSpecification, 'deliveryStart' | 'deliveryEnd' | 'tradingStart' | 'tradingEnd'>;

/** A calendar date (YYYY-MM-DD) `days` later. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export function rollingPeriodOf(asset: AssetRecord): RollingPeriod | null {
  const parsed = rollingPeriodSchema.safeParse(asset.spec.config.rolling);
  return parsed.success ? parsed.data : null;
}

/** The trading and delivery periods of a rolling asset in the session of `sessionDate`; null for a fixed-period asset. */
export function rollingPeriods(asset: AssetRecord, sessionDate: string): Periods | null {
  const rolling = rollingPeriodOf(asset);
  if (!rolling || !/^\d{4}-\d{2}-\d{2}$/.test(sessionDate)) return null;
  const delivery = addDays(sessionDate, rolling.deliveryOffsetDays);
  return { tradingStart: sessionDate, tradingEnd: sessionDate, deliveryStart: delivery, deliveryEnd: delivery };
}

/** The asset as the API serves it: its specification with the current periods when it rolls. */
export function servedAsset(asset: AssetRecord, sessionDate: string): AssetSpecification {
  return { ...toAssetSpecification(asset), ...rollingPeriods(asset, sessionDate) };
}
