import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../../server/engine/engine.ts';
import type { EngineCommand } from '../../../../server/engine/types.ts';
import { Sequencer } from '../../../../server/trading/sequencer.ts';
import { crashWorkload, steppingClock } from './crash-workload.ts';

const SEED = 20261122;
const COUNT = 20_000;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Runs the child until it has acknowledged `killAfter` commands, then SIGKILLs it. */
function runAndKill(dir: string, killAfter: number, snapshotEvery?: number): Promise<{ acked: number; highestAckedSeq: number }> {
  return new Promise((resolve, reject) => {
    const args = [join(import.meta.dirname, 'crash-child.ts'), dir, String(SEED), String(COUNT), ...(snapshotEvery === undefined ? [] : [String(snapshotEvery)])];
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let acked = 0;
    let highestAckedSeq = 0;
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        const [word, count, seq] = line.split(' ');
        if (word !== 'ack') continue;
        acked = Number(count);
        highestAckedSeq = Math.max(highestAckedSeq, Number(seq));
      }
      if (acked >= killAfter) child.kill('SIGKILL');
    });
    child.on('exit', () => resolve({ acked, highestAckedSeq }));
    child.on('error', reject);
  });
}

/** The uninterrupted run: the same stream into a fresh engine, stopped after `journaled` state-changing commands. */
function uninterrupted(journaled: number): Engine {
  const engine = new Engine();
  const now = steppingClock();
  let changed = 0;
  for (const command of crashWorkload(SEED, COUNT)) {
    if (changed === journaled) break;
    const at = Math.max(now(), engine.clock);
    if (engine.execute({ ...command, at } as EngineCommand).events.length > 0) changed++;
  }
  return engine;
}

describe('kill without warning, restart, replay', () => {
  it.each([
    [500, undefined],
    [7_000, undefined],
    [7_000, 1_000],
  ])('recovers the same books and orders after a SIGKILL past %i acknowledgements (snapshot every %s)', async (killAfter, snapshotEvery) => {
    const dir = mkdtempSync(join(tmpdir(), 'kill-restart-'));
    dirs.push(dir);
    const { acked, highestAckedSeq } = await runAndKill(dir, killAfter, snapshotEvery);
    expect(acked).toBeGreaterThanOrEqual(killAfter);
    expect(acked).toBeLessThan(COUNT); // killed mid-run, not after the end

    const { sequencer, replayed, snapshotSeq } = await Sequencer.open({ journalDir: dir, tickIntervalMs: 0 });
    try {
      if (snapshotEvery !== undefined) {
        // recovery went through a snapshot and replayed only the tail after it
        expect(snapshotSeq).toBeGreaterThan(0);
        expect(replayed).toBeLessThan(highestAckedSeq);
      } else expect(snapshotSeq).toBe(0);
      const recovered = snapshotSeq + replayed;
      // Everything acknowledged survived (a few more may have reached the disk unacknowledged).
      expect(recovered).toBeGreaterThanOrEqual(highestAckedSeq);
      expect(sequencer.engine.validateInternalState()).toEqual([]);
      const reference = uninterrupted(recovered);
      expect(sequencer.engine.stateHash()).toBe(reference.stateHash());
      expect(sequencer.engine.listOrders().length).toBe(reference.listOrders().length);
    } finally {
      await sequencer.close();
    }
  }, 120_000);
});
