import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { decodeRecords, encodeRecord, Journal, jsonPieces, PREALLOCATE_BYTES } from '../../../../server/engine/journal/journal.ts';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function onlySegment(dir: string): string {
  const segments = readdirSync(dir).filter((file) => file.endsWith('.log'));
  expect(segments).toHaveLength(1);
  return join(dir, segments[0]!);
}

describe('Journal', () => {
  it('acknowledges after sync, shares syncs between concurrent appends, and recovers every record', async () => {
    const dir = freshDir();
    const { journal, recovered } = await Journal.open<{ n: number }, never>(dir);
    expect(recovered).toMatchObject({ snapshot: null, records: [], lastSeq: 0 });
    const seqs = await Promise.all(Array.from({ length: 500 }, (_, n) => journal.append({ n })));
    expect(seqs).toEqual(Array.from({ length: 500 }, (_, n) => n + 1));
    expect(journal.syncCount).toBeLessThan(500);
    await journal.close();

    const reopened = await Journal.open<{ n: number }, never>(dir);
    expect(reopened.recovered.records.map((record) => record.entry.n)).toEqual(Array.from({ length: 500 }, (_, n) => n));
    expect(reopened.recovered.truncatedBytes).toBe(0);
    expect(await reopened.journal.append({ n: 500 })).toBe(501);
    await reopened.journal.close();
  });

  it('recovers up to the last whole record of a torn tail and truncates it', async () => {
    const dir = freshDir();
    const { journal } = await Journal.open<string, never>(dir);
    for (const word of ['a', 'b', 'c']) await journal.append(word);
    await journal.close();
    const path = onlySegment(dir);
    const whole = statSync(path).size;
    const torn = encodeRecord(4, 'd').subarray(0, 11);
    appendFileSync(path, torn);

    const before = readFileSync(path).subarray(0, whole);
    const { journal: again, recovered } = await Journal.open<string, never>(dir);
    expect(recovered.records.map((record) => record.entry)).toEqual(['a', 'b', 'c']);
    expect(recovered.truncatedBytes).toBe(torn.length);
    // the torn bytes are gone: after the whole records only pre-zeroed space (if already made)
    const after = readFileSync(path);
    expect(after.subarray(0, whole).equals(before)).toBe(true);
    expect(after.subarray(whole).every((byte) => byte === 0)).toBe(true);
    expect(await again.append('d')).toBe(4);
    await again.close();
    expect((await Journal.open<string, never>(dir)).recovered.records.map((record) => record.entry)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('stops at a record whose checksum does not match', async () => {
    const dir = freshDir();
    const { journal } = await Journal.open<string, never>(dir);
    for (const word of ['one', 'two', 'three']) await journal.append(word);
    await journal.close();
    const path = onlySegment(dir);
    const bytes = readFileSync(path);
    const at = bytes.length - 3; // a byte inside the last record's payload
    bytes.writeUInt8(bytes.readUInt8(at) ^ 0xff, at);
    writeFileSync(path, bytes);
    const { journal: again, recovered } = await Journal.open<string, never>(dir);
    expect(recovered.records.map((record) => record.entry)).toEqual(['one', 'two']);
    expect(recovered.truncatedBytes).toBeGreaterThan(0);
    await again.close();
  });

  it('replays only what follows the newest snapshot and drops covered segments', async () => {
    const dir = freshDir();
    const { journal } = await Journal.open<number, { total: number }>(dir);
    let total = 0;
    for (let n = 1; n <= 10; n++) {
      await journal.append(n);
      total += n;
    }
    await journal.snapshot(10, { total });
    for (let n = 11; n <= 12; n++) await journal.append(n);
    await journal.close();
    expect(readdirSync(dir).filter((file) => file.endsWith('.log'))).toHaveLength(1);

    const { journal: again, recovered } = await Journal.open<number, { total: number }>(dir);
    expect(recovered.snapshot).toEqual({ seq: 10, state: { total: 55 } });
    expect(recovered.records.map((record) => record.entry)).toEqual([11, 12]);
    expect(recovered.lastSeq).toBe(12);
    await again.close();
  });

  it('takes a snapshot while appends go on, without losing or misplacing records', async () => {
    const dir = freshDir();
    const { journal } = await Journal.open<number, { upTo: number }>(dir);
    const appends: Array<Promise<number>> = [];
    const snapshots: Array<Promise<void>> = [];
    for (let n = 1; n <= 300; n++) {
      appends.push(journal.append(n));
      // not awaited: the snapshot queues behind the records before it, later appends go on meanwhile
      if (n % 70 === 0) snapshots.push(journal.snapshot(n, { upTo: n }));
    }
    // a snapshot of an earlier record than the last appended one keeps the records after it
    await Promise.all(appends);
    for (let n = 301; n <= 305; n++) appends.push(journal.append(n));
    snapshots.push(journal.snapshot(302, { upTo: 302 }));
    for (let n = 306; n <= 310; n++) appends.push(journal.append(n));
    expect(await Promise.all(appends)).toEqual(Array.from({ length: 310 }, (_, i) => i + 1));
    await Promise.all(snapshots);
    await expect(journal.snapshot(400, { upTo: 400 })).rejects.toThrow(/not a journaled record/);
    await journal.close();

    const { journal: again, recovered } = await Journal.open<number, { upTo: number }>(dir);
    expect(recovered.snapshot).toEqual({ seq: 302, state: { upTo: 302 } });
    expect(recovered.records.map((record) => record.entry)).toEqual([303, 304, 305, 306, 307, 308, 309, 310]);
    expect(readdirSync(dir).filter((file) => file.startsWith('snapshot-'))).toHaveLength(1);
    await again.close();
  });

  it('writes records over synced zeros ahead of them, recovers them after a crash and trims the zeros on close', async () => {
    const dir = freshDir();
    const { journal } = await Journal.open<string, never>(dir);
    for (const word of ['a', 'b', 'c']) await journal.append(word);
    const path = onlySegment(dir);
    const recordBytes = ['a', 'b', 'c'].reduce((sum, word, index) => sum + encodeRecord(index + 1, word).length, 0);
    await vi.waitFor(() => expect(statSync(path).size).toBeGreaterThanOrEqual(recordBytes + PREALLOCATE_BYTES / 2));
    expect(readFileSync(path).subarray(recordBytes).every((byte) => byte === 0)).toBe(true);

    // What a crash leaves (the journal still open): records, then zeros. The zeros are not a torn tail.
    const crashed = freshDir();
    cpSync(dir, crashed, { recursive: true });
    const { journal: restarted, recovered } = await Journal.open<string, never>(crashed);
    expect(recovered.records.map((record) => record.entry)).toEqual(['a', 'b', 'c']);
    expect(recovered.truncatedBytes).toBe(0);
    // the next record goes right after the last one, not after the zeros
    expect(await restarted.append('d')).toBe(4);
    await restarted.close();
    expect(statSync(onlySegment(crashed)).size).toBe(recordBytes + encodeRecord(4, 'd').length);
    const third = await Journal.open<string, never>(crashed);
    expect(third.recovered.records.map((record) => record.entry)).toEqual(['a', 'b', 'c', 'd']);
    await third.journal.close();

    await journal.close();
    expect(statSync(path).size).toBe(recordBytes);
  });

  it('cuts a torn record written into the zeros, and accepts zeros left after the records of an older segment', async () => {
    const dir = freshDir();
    const first = Buffer.concat([encodeRecord(1, 'a'), encodeRecord(2, 'b'), Buffer.alloc(4096)]);
    writeFileSync(join(dir, 'journal-000000000001.log'), first);
    const torn = encodeRecord(4, 'd').subarray(0, 12);
    const second = Buffer.concat([encodeRecord(3, 'c'), torn, Buffer.alloc(4096)]);
    writeFileSync(join(dir, 'journal-000000000003.log'), second);

    const { journal, recovered } = await Journal.open<string, never>(dir);
    expect(recovered.records.map((record) => record.entry)).toEqual(['a', 'b', 'c']);
    expect(recovered.truncatedBytes).toBe(torn.length + 4096);
    expect(await journal.append('d')).toBe(4);
    await journal.close();
    const again = await Journal.open<string, never>(dir);
    expect(again.recovered.records.map((record) => record.entry)).toEqual(['a', 'b', 'c', 'd']);
    await again.journal.close();
  });

  it('writes a large snapshot beside the records: appends made after it are acknowledged before it is on disk', async () => {
    const dir = freshDir();
    const { journal } = await Journal.open<number, { rows: Array<{ n: number; text: string }> }>(dir);
    await journal.append(0);
    const state = { rows: Array.from({ length: 100_000 }, (_, n) => ({ n, text: `row ${n} of a state that takes a while to write` })) };
    const done: string[] = [];
    const snapshot = journal.snapshot(1, state).then(() => done.push('snapshot'));
    const appends = Array.from({ length: 5 }, (_, n) => journal.append(n + 1).then(() => done.push(`append ${n + 1}`)));
    await Promise.all([snapshot, ...appends]);
    expect(done.indexOf('snapshot')).toBe(5);
    await journal.append(6);
    await journal.close();

    const { journal: again, recovered } = await Journal.open<number, typeof state>(dir);
    expect(recovered.snapshot).toEqual({ seq: 1, state });
    expect(recovered.records.map((record) => record.entry)).toEqual([1, 2, 3, 4, 5, 6]);
    // the segment switch waited for the snapshot: the records after it went on in the old segment until then
    expect(readdirSync(dir).filter((file) => file.endsWith('.log'))).toEqual(['journal-000000000001.log', 'journal-000000000007.log']);
    await again.close();
  });

  it('decodes nothing from garbage', () => {
    expect(decodeRecords(Buffer.from('not a journal at all')).records).toEqual([]);
    expect(decodeRecords(Buffer.alloc(0)).validBytes).toBe(0);
  });
});

describe('jsonPieces', () => {
  it('joins to exactly what JSON.stringify writes', () => {
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.date({ noInvalidDate: true })),
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 80 }), fc.dictionary(fc.string(), tie('node'), { maxKeys: 80 })),
    })).node;
    fc.assert(
      fc.property(value, (generated) => {
        // a small split threshold, so that the generated values are split at every depth
        expect([...jsonPieces(generated, 3)].join('')).toBe(JSON.stringify(generated) ?? 'null');
        expect([...jsonPieces(generated)].join('')).toBe(JSON.stringify(generated) ?? 'null');
      }),
    );
    const large = { rows: Array.from({ length: 100_000 }, (_, n) => ({ n, text: `row ${n}` })), skip: undefined, fn: () => 1 };
    const pieces = [...jsonPieces(large)];
    expect(pieces.join('')).toBe(JSON.stringify(large));
    expect(pieces.length).toBeGreaterThan(20);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(100_000);
  });
});
