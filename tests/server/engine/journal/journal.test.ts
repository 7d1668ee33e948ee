import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeRecords, encodeRecord, Journal } from '../../../../server/engine/journal/journal.ts';

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

    const { journal: again, recovered } = await Journal.open<string, never>(dir);
    expect(recovered.records.map((record) => record.entry)).toEqual(['a', 'b', 'c']);
    expect(recovered.truncatedBytes).toBe(torn.length);
    expect(statSync(path).size).toBe(whole);
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

  it('decodes nothing from garbage', () => {
    expect(decodeRecords(Buffer.from('not a journal at all')).records).toEqual([]);
    expect(decodeRecords(Buffer.alloc(0)).validBytes).toBe(0);
  });
});
