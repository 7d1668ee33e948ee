/**
 * Shared rules of the workflow services: deadlines in exchange time, the margin of a deal, and the
 * refusal helper. Pure.
 */
import { apiError, ExchangeError, type ApiError, type ErrorCode } from '../../protocol/error-codes.ts';
import { orderMargin, orderValue } from '../../protocol/margin.ts';
import type { AssetRecord } from '../store/reference.repository.ts';
import { bucharestOffsetMinutes } from '../trading/time.ts';
import type { ReasonParams } from './workflow-runner.ts';

/** The hour (Bucharest) on the day before delivery after which a deal or transfer can no longer be finalized. */
export const LIMIT_HOUR_BUCHAREST = 15;

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** 15:00 Bucharest time on the day before `deliveryDate`, as an ISO instant. */
export function limitBeforeDelivery(deliveryDate: string): string {
  const day = addDays(deliveryDate, -1);
  const localAsUtc = Date.parse(`${day}T${String(LIMIT_HOUR_BUCHAREST).padStart(2, '0')}:00:00Z`);
  return new Date(localAsUtc - bucharestOffsetMinutes(localAsUtc - 3 * 3_600_000) * 60_000).toISOString();
}

/** The asset's engine configuration key, if set. */
export function assetConfig(asset: AssetRecord, key: string): unknown {
  return (asset.spec.config ?? {})[key];
}

/** Initial margin of `qty` at `price` on the asset: value (amount minor units) × marginBps / 10 000, rounded up. */
export function dealMargin(asset: AssetRecord, price: number, qty: number): { value: number; margin: number } {
  try {
    const value = orderValue(price, qty, asset.spec);
    const bps = assetConfig(asset, 'marginBps');
    return { value, margin: orderMargin(value, typeof bps === 'number' ? bps : 0) };
  } catch (error) {
    // A value past the safe integers: no real deal is that large.
    if (error instanceof RangeError) throw requestInvalid('qty', 'too_big');
    throw error;
  }
}

export function refusal(code: ErrorCode, params: ReasonParams = {}): ExchangeError {
  return new ExchangeError({ code, params } as ApiError);
}

export function requestInvalid(field: string, issue: string): ExchangeError<'REQUEST_INVALID'> {
  return new ExchangeError(apiError('REQUEST_INVALID', { field, issue }));
}
