import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { orderViewOf } from '../../../../server/engine/events.ts';
import type { OrderEvent, OrderView } from '../../../../server/engine/types.ts';
import { Sequencer, type SequencedResult, type SequencerSnapshot } from '../../../../server/trading/sequencer.ts';
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
    let orderCommands = 0;
    for (const command of crashWorkload(7, 3_000)) {
      if (command.type === 'addOrder' || command.type === 'modifyOrder' || command.type === 'cancelOrder') orderCommands++;
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
    // The operator console's engine figures: order commands counted, the syncs timed.
    expect(sequencer.orderCommands).toBe(orderCommands);
    expect(orderCommands).toBeGreaterThan(0);
    expect(sequencer.journalSyncP99Ms()).toBeGreaterThanOrEqual(0);
    await sequencer.close();
    // The newest snapshot written, with the time it was written on the sequencer's clock.
    expect(sequencer.lastSnapshot?.seq).toBeGreaterThan(0);
    expect(sequencer.lastSnapshot?.at).toEqual(expect.any(Number));
    // covered segments and older snapshots are gone
    const files = readdirSync(dir);
    expect(files.filter((file) => file.startsWith('snapshot-'))).toHaveLength(1);
    expect(files.filter((file) => file.endsWith('.log')).length).toBeLessThanOrEqual(2);

    const { sequencer: again, replayed, snapshotSeq } = await Sequencer.open({ journalDir: dir, tickIntervalMs: 0, snapshotEvery: 250 });
    try {
      expect(snapshotSeq).toBeGreaterThan(0);
      // Found at the start: its record known, its time not.
      expect(again.lastSnapshot).toEqual({ seq: snapshotSeq, at: null });
      expect(snapshotSeq).toBe(sequencer.lastSnapshot?.seq);
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

  it('loads a snapshot written before compact events: full-view idempotency results and no event count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sequencer-legacy-snapshot-'));
    dirs.push(dir);
    const { sequencer } = await Sequencer.open({ journalDir: dir, now: steppingClock(), tickIntervalMs: 0, snapshotEvery: 100 });
    const firstViews = new Map<string, OrderView>();
    let index = 0;
    for (const command of crashWorkload(11, 150)) {
      const key = command.type === 'addOrder' && index % 5 === 0 ? `key-${index}` : undefined;
      index++;
      const result = await sequencer.submit(command, key ? { userId: 'u1', idempotencyKey: key } : undefined);
      const last = result.events.filter((e): e is OrderEvent => e.type === 'order' && e.orderId === result.orderId).at(-1);
      if (key && last) firstViews.set(key, orderViewOf(last));
    }
    const hash = sequencer.engine.stateHash();
    await sequencer.close();

    // As written (compact events, their header inline): a retry gets the same order back.
    const { sequencer: reopened } = await Sequencer.open({ journalDir: dir, tickIntervalMs: 0, snapshotEvery: 0 });
    try {
      for (const [key, view] of firstViews) {
        const event = reopened.idempotentResult('u1', key)!.events.find((e): e is OrderEvent => e.type === 'order')!;
        expect(orderViewOf(event)).toEqual(view);
      }
    } finally {
      await reopened.close();
    }

    // Rewrite the snapshot as the previous code wrote it.
    const file = readdirSync(dir).find((name) => name.startsWith('snapshot-'))!;
    const written = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { seq: number; state: SequencerSnapshot };
    expect(written.state.idempotencyEvents).toBe('compact');
    const { changedCommands: _count, ...counters } = written.state.engine.counters;
    const legacy = {
      engine: { ...written.state.engine, counters },
      idempotency: written.state.idempotency!.map(([key, result, at]) => [
        key,
        { ...result, events: result.events.map((e) => (e.type === 'order' ? { type: 'order', kind: e.kind, order: orderViewOf(e), at: e.at, ...(e.reason ? { reason: e.reason } : {}) } : e)) },
        at,
      ]),
    };
    writeFileSync(join(dir, file), JSON.stringify({ seq: written.seq, state: legacy }));

    const { sequencer: again, snapshotSeq, replayed } = await Sequencer.open({ journalDir: dir, tickIntervalMs: 0, snapshotEvery: 0 });
    try {
      expect(snapshotSeq).toBe(written.seq);
      expect(again.engine.stateHash()).toBe(hash);
      // every key the snapshot held gives back the order exactly as the first reply showed it
      let restored = 0;
      for (const [stored] of legacy.idempotency) {
        const key = (stored as string).split('\u0000')[1]!; // stored as user id NUL key
        const remembered = again.idempotentResult('u1', key)!;
        const event = remembered.events.find((e): e is OrderEvent => e.type === 'order')!;
        expect(orderViewOf(event)).toEqual(firstViews.get(key));
        restored++;
      }
      expect(restored).toBeGreaterThan(5);
      // the engine's event seq goes on from the snapshot's journal seq
      const next = await again.submit({ type: 'addOrder', actor: {}, assetId: 'A1', clientCode: 'C1', way: 'bid', price: 9_000, qty: 1, validityType: 'GTC' });
      expect(next.journalSeq).toBe(snapshotSeq + replayed + 1);
      expect(next.events.find((e): e is OrderEvent => e.type === 'order')!.seq).toBe(next.journalSeq);
    } finally {
      await again.close();
    }
  });
});
