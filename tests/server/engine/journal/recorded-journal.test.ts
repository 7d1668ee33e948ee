/**
 * Replays a journal recorded with an earlier engine (fixtures/journal/recorded-2026-11-25, written by
 * tests/helpers/record-journal.ts with the real Journal class) and checks that today's engine refuses
 * and accepts the same commands with the same parameters and reaches the same stateHash(): a
 * refactoring of the engine must not change what a replay of an existing journal gives.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../../server/engine/engine.ts';
import { Journal } from '../../../../server/engine/journal/journal.ts';
import type { EngineResult } from '../../../../server/engine/types.ts';
import { Sequencer, type JournalEntry } from '../../../../server/trading/sequencer.ts';
import { resultsDigest, type RecordedExpectation } from '../../../helpers/record-journal.ts';

const FIXTURE = join(import.meta.dirname, '../../../../fixtures/journal/recorded-2026-11-25');
const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8')) as RecordedExpectation;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the fixture (opening a journal may write to it). */
function copyOfFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'recorded-journal-'));
  dirs.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

describe('recorded journal', () => {
  it('replays to the recorded results and state hash', async () => {
    const { journal, recovered } = await Journal.open<JournalEntry, never>(copyOfFixture());
    await journal.close();
    expect(recovered.truncatedBytes).toBe(0);
    expect(recovered.records).toHaveLength(expected.commands);
    const engine = new Engine();
    const results: EngineResult[] = recovered.records.map((record) => engine.execute(record.entry.command));
    const codes: Record<string, number> = {};
    for (const r of results) codes[r.result] = (codes[r.result] ?? 0) + 1;
    expect(codes).toEqual(expected.resultCodes);
    expect(resultsDigest(results)).toBe(expected.resultsDigest);
    expect(engine.validateInternalState()).toEqual([]);
    expect(engine.stateHash()).toBe(expected.stateHash);
  });

  it('the sequencer rebuilds the same engine from it', async () => {
    const { sequencer, replayed } = await Sequencer.open({ journalDir: copyOfFixture(), tickIntervalMs: 0, snapshotEvery: 0 });
    try {
      expect(replayed).toBe(expected.commands);
      expect(sequencer.engine.stateHash()).toBe(expected.stateHash);
    } finally {
      await sequencer.close();
    }
  });
});
