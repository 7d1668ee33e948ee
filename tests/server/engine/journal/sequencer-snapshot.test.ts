import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Sequencer, type SequencedResult } from '../../../../server/trading/sequencer.ts';
import { crashWorkload, steppingClock } from './crash-workload.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('sequencer snapshots', () => {
  it('snapshots while commands are in flight, recovers from snapshot + tail, keeps idempotency results', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sequencer-snapshot-'));
    dirs.push(dir);
    const { sequencer } = await Sequencer.open({ journalDir: dir, now: steppingClock(), tickIntervalMs: 0, snapshotEvery: 250 });
    const keyed: Array<[string, SequencedResult]> = [];
    const inFlight = new Set<Promise<unknown>>();
    let index = 0;
    for (const command of crashWorkload(7, 3_000)) {
      const key = command.type === 'addOrder' && index % 10 === 0 ? `key-${index}` : undefined;
      index++;
      const done = sequencer.submit(command, key ? { userId: 'u1', idempotencyKey: key } : undefined).then((result) => {
        if (key && result.result === 'OK') keyed.push([key, result]);
      });
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
      if (inFlight.size >= 16) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    const hash = sequencer.engine.stateHash();
    const lastSeq = Math.max(...keyed.map(([, r]) => r.journalSeq ?? 0));
    await sequencer.close();
    // covered segments and older snapshots are gone
    const files = readdirSync(dir);
    expect(files.filter((file) => file.startsWith('snapshot-'))).toHaveLength(1);
    expect(files.filter((file) => file.endsWith('.log')).length).toBeLessThanOrEqual(2);

    const { sequencer: again, replayed, snapshotSeq } = await Sequencer.open({ journalDir: dir, tickIntervalMs: 0, snapshotEvery: 250 });
    try {
      expect(snapshotSeq).toBeGreaterThan(0);
      expect(replayed).toBeLessThan(250);
      expect(snapshotSeq + replayed).toBeGreaterThanOrEqual(lastSeq);
      expect(again.engine.stateHash()).toBe(hash);
      expect(again.engine.validateInternalState()).toEqual([]);
      expect(keyed.length).toBeGreaterThan(10);
      for (const [key, result] of keyed) {
        const remembered = again.idempotentResult('u1', key);
        expect(remembered?.orderId).toBe(result.orderId);
        expect(remembered?.result).toBe('OK');
      }
      // and it goes on journaling after the recovery
      const more = await again.submit({ type: 'upsertClient', client: { clientCode: 'C9' } });
      expect(more.journalSeq).toBe(snapshotSeq + replayed + 1);
    } finally {
      await again.close();
    }
  });
});
