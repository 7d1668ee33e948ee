import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../../protocol/audit.ts';
import { CoalescingRecorder } from '../../../server/audit/coalescing-recorder.ts';

const failed = (address: string, login = 'broker1'): AuditRecord => ({
  category: 'security',
  action: 'signIn.failed',
  actorUserId: null,
  actorRole: null,
  subject: `login ${login}`,
  outcome: 'refused',
  code: 'AUTH_CODE_INVALID',
  remoteAddress: address,
  details: {},
});

function recorder(maxKeysPerWindow = 100) {
  let now = Date.parse('2026-11-27T10:00:05Z');
  const written: AuditRecord[] = [];
  const coalescing = new CoalescingRecorder(
    async (entry) => {
      written.push(entry);
    },
    () => now,
    { windowMs: 60_000, maxKeysPerWindow },
  );
  return { coalescing, written, advance: (ms: number) => (now += ms) };
}

describe('CoalescingRecorder', () => {
  it('writes the first event of a key at once and the repeats of the minute as one counted entry', async () => {
    const { coalescing, written, advance } = recorder();
    for (let i = 0; i < 1000; i++) coalescing.note(failed('10.0.0.1', i % 2 ? 'broker1' : 'broker2'));
    await coalescing.idle();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ subject: 'login broker2', remoteAddress: '10.0.0.1', details: { count: 1 } });
    advance(60_000);
    coalescing.note(failed('10.0.0.1'));
    await coalescing.idle();
    expect(written).toHaveLength(3);
    expect(written[1]).toMatchObject({ remoteAddress: '10.0.0.1', code: 'AUTH_CODE_INVALID', details: { count: 999, coalesced: true, subjects: 'login broker1, login broker2' } });
    expect(written[2]).toMatchObject({ details: { count: 1 } });
    coalescing.stop();
  });

  it('keeps a bounded number of keys per minute; further addresses share one overflow entry per action', async () => {
    const { coalescing, written } = recorder(3);
    for (let i = 0; i < 500; i++) coalescing.note(failed(`10.0.${Math.floor(i / 250)}.${i % 250}`));
    await coalescing.flush();
    expect(written).toHaveLength(4);
    expect(written.slice(0, 3).map((entry) => entry.remoteAddress)).toEqual(['10.0.0.0', '10.0.0.1', '10.0.0.2']);
    expect(written[3]).toMatchObject({ subject: '*', remoteAddress: null, details: { count: 497, overflow: true } });
    coalescing.stop();
  });

  it('logs a failed write instead of throwing into the caller', async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const coalescing = new CoalescingRecorder(async () => Promise.reject(new Error('database away')), () => 0);
      expect(() => coalescing.note(failed('10.0.0.9'))).not.toThrow();
      await coalescing.idle();
      coalescing.stop();
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
  });
});
