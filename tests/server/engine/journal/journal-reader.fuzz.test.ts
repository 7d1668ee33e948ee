/**
 * The journal reader over random corruption (scripts/fuzz-journal.ts; `npm run fuzz:journal` runs more):
 * a real recorded segment damaged by byte flips, truncations, appended garbage and zeroed ranges gives
 * back exactly its whole records before the damage, never a partial or corrupt one, and never throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDamages, checkDecode, cleanJournal, damagesArbitrary, fuzzJournal, summaryLine } from '../../../../scripts/fuzz-journal.ts';

describe('journal reader under corruption', () => {
  it('decodes exactly the whole records before the damage (shrunk to the smallest damage on failure)', () => {
    const clean = cleanJournal(200);
    fc.assert(
      fc.property(damagesArbitrary(clean.bytes.length), (damages) => {
        expect(checkDecode(clean, applyDamages(clean.bytes, damages))).toEqual({ kind: 'ok' });
      }),
      { numRuns: 300, seed: 13 },
    );
  });

  it('1,000 damaged copies of a recorded segment: none applies a partial record, loses a whole one or crashes, also when the Sequencer opens them', async () => {
    const started = performance.now();
    const result = await fuzzJournal({ cases: 1000, records: 400, seed: 20261125, fileEvery: 4 });
    console.log(`${summaryLine(result)} (${result.opened} opened by the Sequencer, ${result.meanRecovered.toFixed(0)} of ${result.segmentRecords} records recovered on average, ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    expect(result.failures).toEqual([]);
    expect(result).toMatchObject({ cases: 1000, opened: 250, partialApplied: 0, lostWhole: 0, crashes: 0 });
    // The damage lands all over the segment: some cases keep almost everything, the mean is in between.
    expect(result.meanRecovered).toBeGreaterThan(20);
    expect(result.meanRecovered).toBeLessThan(result.segmentRecords);
  }, 60_000);
});
