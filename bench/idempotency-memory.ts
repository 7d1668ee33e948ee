// Heap held per remembered idempotency key, within the retry window (full result) and settled (order
// id, seq and digest): N adds with keys against N adds without, each followed by a cancel (so no order
// stays in the book), in one run. `node --expose-gc --import tsx bench/idempotency-memory.ts [N]`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sequencer, type UnstampedCommand } from '../server/trading/sequencer.ts';
import { crashWorkload, steppingClock } from '../tests/server/engine/journal/crash-workload.ts';

const gc = (globalThis as { gc?: () => void }).gc!;
const count = Number(process.argv[2] ?? 20_000);

async function heldBytes(withKeys: boolean, retryWindowMs?: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'idem-mem-'));
  const { sequencer } = await Sequencer.open({ journalDir: dir, now: steppingClock(), tickIntervalMs: 0, snapshotEvery: 0, idempotencyRetryWindowMs: retryWindowMs });
  let add: UnstampedCommand | undefined;
  for (const command of crashWorkload(3, 1)) {
    if (command.type === 'addOrder') {
      add = command;
      break;
    }
    await sequencer.submit(command);
  }
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < count; i++) {
    const placed = await sequencer.submit(add!, withKeys ? { userId: 'u1', idempotencyKey: `key-${String(i).padStart(10, '0')}` } : undefined);
    await sequencer.submit({ type: 'cancelOrder', actor: (add as unknown as { actor: never }).actor, orderId: placed.orderId! } as UnstampedCommand);
  }
  gc();
  const held = process.memoryUsage().heapUsed - before;
  await sequencer.close();
  rmSync(dir, { recursive: true, force: true });
  return held;
}

const without = await heldBytes(false);
const recent = await heldBytes(true);
const settled = await heldBytes(true, 0);
const perKey = (bytes: number) => ((bytes - without) / count).toFixed(0);
console.log(`idempotency-memory adds=${count} bytes_per_add_without_keys=${(without / count).toFixed(0)} bytes_per_key_recent=${perKey(recent)} bytes_per_key_settled=${perKey(settled)}`);
