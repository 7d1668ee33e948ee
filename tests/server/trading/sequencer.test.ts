import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeRecords } from '../../../server/engine/journal/journal.ts';
import { entryJsonOf, Sequencer, type JournalEntry, type UnstampedCommand } from '../../../server/trading/sequencer.ts';
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
    expect(remembered.events.every((event) => event.type === 'order' && event.orderId === firstResult.orderId)).toBe(true);
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

describe('Sequencer idempotency retention', () => {
  it('forgets a key after the retention, by journaled time, and a restart forgets the same keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sequencer-retention-'));
    dirs.push(dir);
    let now = Date.parse('2026-11-25T08:00:00Z');
    const options = { journalDir: dir, now: () => now, tickIntervalMs: 0, idempotencyRetentionMs: 60_000, snapshotEvery: 0 };
    const { sequencer } = await Sequencer.open(options);
    const { setup, add } = setupAndFirstAdd();
    for (const command of setup) await sequencer.submit(command);

    const old = await sequencer.submit(add, { userId: 'u1', idempotencyKey: 'old' });
    now += 30_000;
    const recent = await sequencer.submit(add, { userId: 'u1', idempotencyKey: 'recent' });
    expect((await sequencer.submit(add, { userId: 'u1', idempotencyKey: 'old' })).orderId).toBe(old.orderId);

    // 61 s after the first: its key is forgotten, the second's is not.
    now += 31_000;
    const again = await sequencer.submit(add, { userId: 'u1', idempotencyKey: 'old' });
    expect(again.orderId).not.toBe(old.orderId);
    expect((await sequencer.submit(add, { userId: 'u1', idempotencyKey: 'recent' })).orderId).toBe(recent.orderId);
    expect(sequencer.idempotentResult('u1', 'old')?.orderId).toBe(again.orderId);
    await sequencer.close();

    // The replay remembers exactly the keys the live run remembered.
    const { sequencer: restarted } = await Sequencer.open(options);
    expect(restarted.idempotentResult('u1', 'old')?.orderId).toBe(again.orderId);
    expect(restarted.idempotentResult('u1', 'recent')?.orderId).toBe(recent.orderId);
    now += 45_000;
    expect((await restarted.submit(add, { userId: 'u1', idempotencyKey: 'recent' })).orderId).not.toBe(recent.orderId);
    expect(restarted.engine.listOrders()).toHaveLength(4);
    await restarted.close();
  });

  it('keeps the keys and their times in a snapshot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sequencer-retention-snapshot-'));
    dirs.push(dir);
    let now = Date.parse('2026-11-25T08:00:00Z');
    const { setup, add } = setupAndFirstAdd();
    const options = { journalDir: dir, now: () => now, tickIntervalMs: 0, idempotencyRetentionMs: 60_000, snapshotEvery: setup.length + 2 };
    const { sequencer } = await Sequencer.open(options);
    for (const command of setup) await sequencer.submit(command);
    const first = await sequencer.submit(add, { userId: 'u1', idempotencyKey: 'first' });
    now += 50_000;
    const second = await sequencer.submit(add, { userId: 'u1', idempotencyKey: 'second' });
    await sequencer.close();

    const { sequencer: restarted, replayed, snapshotSeq } = await Sequencer.open(options);
    expect(snapshotSeq).toBe(setup.length + 2);
    expect(replayed).toBe(0);
    now += 20_000;
    // 70 s after the first and 20 s after the second, as the snapshot kept their times.
    expect((await restarted.submit(add, { userId: 'u1', idempotencyKey: 'first' })).orderId).not.toBe(first.orderId);
    expect((await restarted.submit(add, { userId: 'u1', idempotencyKey: 'second' })).orderId).toBe(second.orderId);
    await restarted.close();
  });

  it('refuses a used key with another command, live, after a replay and after a snapshot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sequencer-fingerprint-'));
    dirs.push(dir);
    const { setup, add } = setupAndFirstAdd();
    const other = { ...add, qty: (add as { qty: number }).qty * 2 } as UnstampedCommand;
    const meta = { userId: 'u1', idempotencyKey: 'fingerprint-1' };
    const reused = { code: 'ORDER_IDEMPOTENCY_KEY_REUSED', params: { idempotencyKey: 'fingerprint-1' } };
    const options = { journalDir: dir, now: steppingClock(), tickIntervalMs: 0 };

    const { sequencer } = await Sequencer.open(options);
    for (const command of setup) await sequencer.submit(command);
    const first = await sequencer.submit(add, meta);
    await expect(sequencer.submit(other, meta)).rejects.toMatchObject(reused);
    await sequencer.close();

    // From the journal's records (no snapshot yet).
    const { sequencer: replayed } = await Sequencer.open(options);
    await expect(replayed.submit(other, meta)).rejects.toMatchObject(reused);
    expect((await replayed.submit(add, meta)).orderId).toBe(first.orderId);
    await replayed.close();

    // From a snapshot that covers the add.
    const { sequencer: snapshotting } = await Sequencer.open({ ...options, snapshotEvery: 1 });
    await snapshotting.submit(setup[0]!);
    await snapshotting.close();
    const { sequencer: fromSnapshot, snapshotSeq } = await Sequencer.open(options);
    expect(snapshotSeq).toBeGreaterThan(setup.length);
    await expect(fromSnapshot.submit(other, meta)).rejects.toMatchObject(reused);
    expect((await fromSnapshot.submit(add, meta)).orderId).toBe(first.orderId);
    await fromSnapshot.close();
  });

  it('checks a retry against a SHA-256 digest kept by a snapshot of an older server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sequencer-legacy-digest-'));
    dirs.push(dir);
    const { setup, add } = setupAndFirstAdd();
    const other = { ...add, qty: (add as { qty: number }).qty * 2 } as UnstampedCommand;
    const meta = { userId: 'u1', idempotencyKey: 'legacy-1' };
    const options = { journalDir: dir, now: steppingClock(), tickIntervalMs: 0 };
    const { sequencer } = await Sequencer.open({ ...options, snapshotEvery: setup.length + 1 });
    for (const command of setup) await sequencer.submit(command);
    const first = await sequencer.submit(add, meta);
    await sequencer.close();

    // The snapshot as a server before the cheaper digest wrote it: SHA-256 of the command's JSON without its time.
    const file = join(dir, readdirSync(dir).find((name) => name.startsWith('snapshot-'))!);
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { state: { idempotency: Array<[string, unknown, number, string]> } };
    const entry = snapshot.state.idempotency.find(([key]) => key.endsWith('legacy-1'))!;
    expect(entry[3]).toMatch(/^c53:/);
    entry[3] = createHash('sha256').update(JSON.stringify(add)).digest('base64url');
    writeFileSync(file, JSON.stringify(snapshot));

    const { sequencer: restarted, snapshotSeq } = await Sequencer.open(options);
    expect(snapshotSeq).toBe(setup.length + 1);
    expect((await restarted.submit(add, meta)).orderId).toBe(first.orderId);
    await expect(restarted.submit(other, meta)).rejects.toMatchObject({ code: 'ORDER_IDEMPOTENCY_KEY_REUSED', params: { idempotencyKey: 'legacy-1' } });
    await restarted.close();
  });
});

describe('The journal record of an add with an idempotency key', () => {
  it('is the JSON of the stamped command and its meta, made from the command JSON the digest used', () => {
    const key = fc.string({ maxLength: 8 }).filter((k) => k !== 'at' && k !== '__proto__');
    const command = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }).map((fields) => ({ type: 'addOrder', ...fields }));
    const meta = fc.option(fc.record({ userId: fc.string(), idempotencyKey: fc.string(), note: fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined }) }), { nil: undefined });
    const at = fc.oneof(fc.integer({ min: 0, max: 2 ** 52 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
    fc.assert(
      fc.property(command, meta, at, (c, m, when) => {
        const expected = JSON.stringify(m ? { command: { ...c, at: when }, meta: m } : { command: { ...c, at: when } });
        expect(entryJsonOf(JSON.stringify(c), when, m as never)).toBe(expected);
      }),
      { numRuns: 500 },
    );
    // Not a number JSON can write: the journal serialises the entry itself.
    expect(entryJsonOf('{"type":"addOrder"}', Number.NaN, undefined)).toBeUndefined();
  });

  it('is written as serialising the entry would write it, and a restart replays it to the same state', async () => {
    const { setup, add } = setupAndFirstAdd();
    const { sequencer, dir } = await openSequencer();
    for (const command of setup) await sequencer.submit(command);
    const first = await sequencer.submit(add, { userId: 'u1', idempotencyKey: 'k-1' });
    await sequencer.submit({ ...add, price: (add as { price: number }).price + 1 } as UnstampedCommand, { userId: 'u1', idempotencyKey: 'k-2' });
    const hash = sequencer.engine.stateHash();
    await sequencer.close();
    const bytes = Buffer.concat(readdirSync(dir).filter((name) => name.startsWith('journal-')).sort().map((name) => readFileSync(join(dir, name))));
    const { records } = decodeRecords<JournalEntry>(bytes);
    const keyed = records.filter((record) => record.entry.meta?.idempotencyKey);
    expect(keyed.map((record) => record.entry.meta!.idempotencyKey)).toEqual(['k-1', 'k-2']);
    expect(keyed[0]!.entry.command).toEqual({ ...add, at: expect.any(Number) });
    // Each record's text is JSON.stringify of what it holds: a record whose JSON was put together differs in a byte.
    let offset = 0;
    for (const record of records) {
      const length = bytes.readUInt32LE(offset);
      expect(bytes.subarray(offset + 8, offset + 8 + length).toString('utf8')).toBe(JSON.stringify({ seq: record.seq, entry: record.entry }));
      offset += 8 + length;
    }
    const { sequencer: reopened } = await openSequencer(dir);
    expect(reopened.engine.stateHash()).toBe(hash);
    expect(reopened.idempotentResult('u1', 'k-1')?.orderId).toBe(first.orderId);
    await reopened.close();
  });
});
