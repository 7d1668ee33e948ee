import { describe, expect, it } from 'vitest';
import { IdempotencyKeys } from '../../../server/trading/idempotency-keys.ts';
import type { SequencedResult } from '../../../server/trading/sequenced-result.ts';

const MINUTE = 60_000;
const result = (orderId: number, journalSeq: number): SequencedResult => ({ result: 'OK', orderId, journalSeq, events: [{ type: 'order', orderId } as never] });

describe('IdempotencyKeys', () => {
  it('keeps the full result within the retry window, then only the order id, seq and digest, then nothing', () => {
    const keys = new IdempotencyKeys(60 * MINUTE, 10 * MINUTE);
    keys.set('u\u0000a', { result: result(7, 3), at: 0, fingerprint: 'digest-a' });
    keys.forgetBefore(10 * MINUTE); // exactly at the window's edge: still recent
    expect(keys.get('u\u0000a')!.result.events).toHaveLength(1);

    keys.forgetBefore(10 * MINUTE + 1);
    expect(keys.get('u\u0000a')).toEqual({ result: { result: 'OK', orderId: 7, events: [], journalSeq: 3 }, at: 0, fingerprint: 'digest-a' });
    expect(keys.size).toBe(1);

    keys.forgetBefore(60 * MINUTE + 1);
    expect(keys.get('u\u0000a')).toBeUndefined();
    expect(keys.size).toBe(0);
  });

  it('settles and forgets oldest first, and lists every key oldest first for a snapshot', () => {
    const keys = new IdempotencyKeys(60 * MINUTE, 10 * MINUTE);
    for (let i = 0; i < 6; i++) keys.set(`k${i}`, { result: result(i, i + 1), at: i * 10 * MINUTE, fingerprint: undefined });
    keys.forgetBefore(65 * MINUTE); // k0 (65 min old) forgotten; k1 to k5 (15 to 55 min old) settled
    expect([...keys.entries()].map(([key, remembered]) => [key, remembered.result.events.length])).toEqual([
      ['k1', 0],
      ['k2', 0],
      ['k3', 0],
      ['k4', 0],
      ['k5', 0],
    ]);
    keys.set('k6', { result: result(6, 7), at: 65 * MINUTE, fingerprint: undefined });
    expect([...keys.entries()].map(([key]) => key)).toEqual(['k1', 'k2', 'k3', 'k4', 'k5', 'k6']);
  });

  it('a key past the retention is forgotten without being settled first', () => {
    const keys = new IdempotencyKeys(30 * MINUTE, 10 * MINUTE);
    keys.set('old', { result: result(1, 1), at: 0, fingerprint: undefined });
    keys.forgetBefore(2 * 60 * MINUTE);
    expect(keys.size).toBe(0);
  });

  it('a retention shorter than the window forgets recent keys directly', () => {
    const keys = new IdempotencyKeys(MINUTE, 10 * MINUTE);
    keys.set('a', { result: result(1, 1), at: 0, fingerprint: undefined });
    keys.forgetBefore(MINUTE + 1);
    expect(keys.get('a')).toBeUndefined();
  });

  it('replaceWith takes the other set whole', () => {
    const keys = new IdempotencyKeys(60 * MINUTE, 10 * MINUTE);
    keys.set('mine', { result: result(1, 1), at: 0, fingerprint: undefined });
    const rebuilt = new IdempotencyKeys(60 * MINUTE, 10 * MINUTE);
    rebuilt.set('theirs', { result: result(2, 2), at: 0, fingerprint: undefined });
    rebuilt.forgetBefore(20 * MINUTE);
    keys.replaceWith(rebuilt);
    expect(keys.get('mine')).toBeUndefined();
    expect(keys.get('theirs')!.result.orderId).toBe(2);
  });
});
