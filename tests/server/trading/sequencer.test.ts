import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Sequencer, type UnstampedCommand } from '../../../server/trading/sequencer.ts';
import { crashWorkload, steppingClock } from '../engine/journal/crash-workload.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function openSequencer(dir = mkdtempSync(join(tmpdir(), 'sequencer-'))) {
  if (!dirs.includes(dir)) dirs.push(dir);
  const { sequencer, replayed } = await Sequencer.open({ journalDir: dir, now: steppingClock(), tickIntervalMs: 0 });
  return { sequencer, replayed, dir };
}

/** The workload's configuration, then its first add. */
function setupAndFirstAdd(): { setup: UnstampedCommand[]; add: UnstampedCommand } {
  const setup: UnstampedCommand[] = [];
  for (const command of crashWorkload(3, 1)) {
    if (command.type === 'addOrder') return { setup, add: command };
    setup.push(command);
  }
  throw new Error('the workload has no add');
}

describe('Sequencer idempotency', () => {
  it('answers a retry that arrives during the sync only once that sync is done, with the same order', async () => {
    const { sequencer, dir } = await openSequencer();
    const { setup, add } = setupAndFirstAdd();
    for (const command of setup) await sequencer.submit(command);
    const meta = { userId: 'u1', idempotencyKey: 'retry-key-1' };

    const first = sequencer.submit(add, meta);
    // journalSeq as the retry's answer arrives: null would mean it was answered before the record was on disk
    const retried = sequencer.submit(add, meta).then((result) => ({ journalSeq: result.journalSeq, orderId: result.orderId }));
    const [firstResult, retry] = await Promise.all([first, retried]);
    expect(firstResult.journalSeq).toBe(setup.length + 1);
    expect(retry).toEqual({ journalSeq: firstResult.journalSeq, orderId: firstResult.orderId });
    expect(sequencer.engine.listOrders()).toHaveLength(1);

    // After the sync the result is kept without the events a retry does not need.
    const remembered = sequencer.idempotentResult('u1', 'retry-key-1')!;
    expect(remembered.events.every((event) => event.type === 'order' && event.order.orderId === firstResult.orderId)).toBe(true);
    expect(remembered.events).toHaveLength(1);
    const later = await sequencer.submit(add, meta);
    expect(later.orderId).toBe(firstResult.orderId);
    await sequencer.close();

    // one record for the add, and after a restart the key still gives the first order
    const { sequencer: again, replayed } = await openSequencer(dir);
    expect(replayed).toBe(setup.length + 1);
    expect((await again.submit(add, meta)).orderId).toBe(firstResult.orderId);
    expect(again.engine.listOrders()).toHaveLength(1);
    await again.close();
  });
});
