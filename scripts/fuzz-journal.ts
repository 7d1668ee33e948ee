/**
 * npm run fuzz:journal [-- --cases N] [--records N] [--seed S]
 *
 * The journal reader over random corruption (fast-check): a real journal segment (the recorded
 * fixture, fixtures/journal/recorded-2026-11-25, its first `records` records) is damaged by byte flips,
 * truncations, appended garbage and zeroed ranges, one to three at a time. Each damaged segment:
 * - decodeRecords gives back exactly the records that end before the first damaged byte, equal to the
 *   clean ones, and nothing after (no partial or corrupt record);
 * - on every `fileEvery`-th case, the Sequencer opens a journal directory holding it: the engine it
 *   rebuilds has exactly the state hash of the clean prefix, the torn tail is cut off, and opening it
 *   again reads the same records with nothing left to cut.
 * Never an unhandled error. Last line `fuzz:journal cases=N partial_applied=0 lost_whole=0 crashes=0`;
 * exit code 1 otherwise. docs/reliability.md "Journal".
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { Engine } from '../server/engine/engine.ts';
import { decodeRecords, Journal, type JournalRecord } from '../server/engine/journal/journal.ts';
import { Sequencer, type JournalEntry } from '../server/trading/sequencer.ts';

const FIXTURE = join(import.meta.dirname, '../fixtures/journal/recorded-2026-11-25/journal-000000000001.log');
const SEGMENT = 'journal-000000000001.log';

export interface CleanJournal {
  bytes: Buffer;
  records: Array<JournalRecord<JournalEntry>>;
  /** Byte offset where record i ends. */
  ends: number[];
  /** Engine state hash after the first k records, k = 0..records.length. */
  hashes: string[];
}

/** The first `count` records of the recorded segment (all of them without a count), with each prefix's state hash. */
export function cleanJournal(count?: number): CleanJournal {
  const whole = readFileSync(FIXTURE);
  const ends: number[] = [];
  let offset = 0;
  while (offset + 8 <= whole.length && (count === undefined || ends.length < count)) {
    offset += 8 + whole.readUInt32LE(offset);
    ends.push(offset);
  }
  const bytes = whole.subarray(0, offset);
  const { records, validBytes } = decodeRecords<JournalEntry>(bytes);
  if (validBytes !== bytes.length || records.length !== ends.length) throw new Error('the fixture segment does not decode whole');
  const engine = new Engine();
  const hashes = [engine.stateHash()];
  for (const record of records) {
    engine.execute(record.entry.command);
    hashes.push(engine.stateHash());
  }
  return { bytes, records, ends, hashes };
}

export type Damage =
  | { kind: 'flip'; offset: number; mask: number }
  | { kind: 'truncate'; length: number }
  | { kind: 'append'; bytes: Uint8Array }
  | { kind: 'zero'; offset: number; length: number };

/** One to three damages to a segment of `size` bytes; offsets anywhere, not only near the start. */
export function damagesArbitrary(size: number): fc.Arbitrary<Damage[]> {
  const offset = fc.oneof(fc.integer({ min: 0, max: size - 1 }), fc.noBias(fc.integer({ min: 0, max: size - 1 })));
  const damage: fc.Arbitrary<Damage> = fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), offset, mask: fc.integer({ min: 1, max: 255 }) }),
    fc.record({ kind: fc.constant('truncate' as const), length: offset }),
    fc.record({ kind: fc.constant('append' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }) }),
    fc.record({ kind: fc.constant('zero' as const), offset, length: fc.integer({ min: 1, max: 256 }) }),
  );
  return fc.array(damage, { minLength: 1, maxLength: 3 });
}

export function applyDamages(clean: Buffer, damages: Damage[]): Buffer {
  let bytes = Buffer.from(clean);
  for (const damage of damages) {
    if (damage.kind === 'flip') {
      if (damage.offset < bytes.length) bytes[damage.offset]! ^= damage.mask;
    } else if (damage.kind === 'truncate') bytes = bytes.subarray(0, Math.min(damage.length, bytes.length));
    else if (damage.kind === 'append') bytes = Buffer.concat([bytes, damage.bytes]);
    else bytes.fill(0, Math.min(damage.offset, bytes.length), Math.min(damage.offset + damage.length, bytes.length));
  }
  return bytes;
}

/** The clean records a reader must give back: those that end at or before the first byte that differs. */
export function wholeRecordsBefore(clean: CleanJournal, damaged: Buffer): number {
  let firstDamage = Math.min(damaged.length, clean.bytes.length);
  for (let index = 0; index < firstDamage; index++) {
    if (damaged[index] !== clean.bytes[index]) {
      firstDamage = index;
      break;
    }
  }
  let count = 0;
  while (count < clean.ends.length && clean.ends[count]! <= firstDamage) count++;
  return count;
}

export type Verdict = { kind: 'ok' } | { kind: 'partial_applied' | 'lost_whole' | 'crash'; detail: string };

/** decodeRecords on the damaged bytes. */
export function checkDecode(clean: CleanJournal, damaged: Buffer): Verdict {
  const expected = wholeRecordsBefore(clean, damaged);
  let decoded;
  try {
    decoded = decodeRecords<JournalEntry>(damaged);
  } catch (error) {
    return { kind: 'crash', detail: `decodeRecords threw ${(error as Error).message}` };
  }
  if (decoded.records.length > expected) return { kind: 'partial_applied', detail: `decoded ${decoded.records.length} records, only ${expected} are whole` };
  if (decoded.records.length < expected) return { kind: 'lost_whole', detail: `decoded ${decoded.records.length} records of ${expected} whole ones` };
  for (let index = 0; index < expected; index++) {
    if (JSON.stringify(decoded.records[index]) !== JSON.stringify(clean.records[index])) return { kind: 'partial_applied', detail: `record ${index + 1} differs from the clean one` };
  }
  if (decoded.validBytes !== (expected === 0 ? 0 : clean.ends[expected - 1])) return { kind: 'partial_applied', detail: `valid bytes ${decoded.validBytes}` };
  return { kind: 'ok' };
}

/** The damaged bytes as a journal directory's only segment, opened by the Sequencer (engine replay) and then once more. */
export async function checkReopen(clean: CleanJournal, damaged: Buffer): Promise<Verdict> {
  const expected = wholeRecordsBefore(clean, damaged);
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-journal-'));
  try {
    writeFileSync(join(dir, SEGMENT), damaged);
    const { sequencer, replayed, truncatedBytes } = await Sequencer.open({ journalDir: dir, tickIntervalMs: 0, snapshotEvery: 0 });
    const hash = sequencer.engine.stateHash();
    await sequencer.close();
    if (replayed > expected) return { kind: 'partial_applied', detail: `the sequencer replayed ${replayed} records, only ${expected} are whole` };
    if (replayed < expected) return { kind: 'lost_whole', detail: `the sequencer replayed ${replayed} records of ${expected} whole ones` };
    if (hash !== clean.hashes[expected]) return { kind: 'partial_applied', detail: `engine state after ${expected} records differs from the clean prefix's` };
    const tail = damaged.subarray(expected === 0 ? 0 : clean.ends[expected - 1]);
    const tornBytes = tail.every((byte) => byte === 0) ? 0 : tail.length;
    if (truncatedBytes !== tornBytes) return { kind: 'partial_applied', detail: `cut ${truncatedBytes} bytes, the torn tail is ${tornBytes}` };
    // Recovery left a clean journal: the same records, nothing more to cut.
    const { journal, recovered } = await Journal.open<JournalEntry, never>(dir);
    await journal.close();
    if (recovered.records.length !== expected || recovered.truncatedBytes !== 0) {
      return { kind: 'partial_applied', detail: `reopened: ${recovered.records.length} records, ${recovered.truncatedBytes} bytes cut` };
    }
    return { kind: 'ok' };
  } catch (error) {
    return { kind: 'crash', detail: `open threw ${(error as Error).message}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface FuzzOptions {
  cases: number;
  /** Records of the fixture segment to damage (all without it). */
  records?: number;
  seed: number;
  /** Every how many cases the Sequencer also opens the damaged segment from disk. */
  fileEvery: number;
}

export interface FuzzResult {
  cases: number;
  /** Cases also opened by the Sequencer from disk. */
  opened: number;
  partialApplied: number;
  lostWhole: number;
  crashes: number;
  /** Records recovered per case, on average (how deep the damage landed). */
  meanRecovered: number;
  segmentRecords: number;
  segmentBytes: number;
  failures: string[];
}

export async function fuzzJournal(options: FuzzOptions): Promise<FuzzResult> {
  const clean = cleanJournal(options.records);
  const arbitrary = damagesArbitrary(clean.bytes.length);
  const result: FuzzResult = {
    cases: 0,
    opened: 0,
    partialApplied: 0,
    lostWhole: 0,
    crashes: 0,
    meanRecovered: 0,
    segmentRecords: clean.records.length,
    segmentBytes: clean.bytes.length,
    failures: [],
  };
  let recovered = 0;
  const batch = 1000;
  for (let start = 0; start < options.cases; start += batch) {
    const damages = fc.sample(arbitrary, { numRuns: Math.min(batch, options.cases - start), seed: options.seed + start });
    for (const [index, damage] of damages.entries()) {
      const damaged = applyDamages(clean.bytes, damage);
      const verdicts = [checkDecode(clean, damaged)];
      if ((start + index) % options.fileEvery === 0) {
        verdicts.push(await checkReopen(clean, damaged));
        result.opened++;
      }
      result.cases++;
      recovered += wholeRecordsBefore(clean, damaged);
      for (const verdict of verdicts) {
        if (verdict.kind === 'ok') continue;
        if (verdict.kind === 'partial_applied') result.partialApplied++;
        else if (verdict.kind === 'lost_whole') result.lostWhole++;
        else result.crashes++;
        if (result.failures.length < 20) {
          const shown = damage.map((one) => (one.kind === 'append' ? { ...one, bytes: Buffer.from(one.bytes).toString('hex') } : one));
          result.failures.push(`${verdict.kind}: ${verdict.detail}; damages ${JSON.stringify(shown)}`);
        }
      }
    }
  }
  result.meanRecovered = result.cases === 0 ? 0 : recovered / result.cases;
  return result;
}

export function summaryLine(result: FuzzResult): string {
  return `fuzz:journal cases=${result.cases} partial_applied=${result.partialApplied} lost_whole=${result.lostWhole} crashes=${result.crashes}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let cases = 20_000;
  let records: number | undefined;
  let seed = 20261125;
  const argv = process.argv.slice(2);
  for (let index = 0; index < argv.length; index++) {
    if (argv[index] === '--cases') cases = Number(argv[++index]);
    else if (argv[index] === '--records') records = Number(argv[++index]);
    else if (argv[index] === '--seed') seed = Number(argv[++index]);
  }
  const started = performance.now();
  const result = await fuzzJournal({ cases, records, seed, fileEvery: 10 });
  for (const failure of result.failures) console.log(failure);
  console.log(
    `segment of ${result.segmentRecords} records (${result.segmentBytes} bytes), seed ${seed}: ${result.cases} damaged copies decoded, ${result.opened} also opened by the Sequencer; ` +
      `${result.meanRecovered.toFixed(0)} whole records recovered per case on average; ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  console.log(summaryLine(result));
  process.exit(result.partialApplied + result.lostWhole + result.crashes === 0 ? 0 : 1);
}
