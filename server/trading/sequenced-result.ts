import type { EngineResult } from '../engine/types.ts';

/** An engine result as the sequencer acknowledges it: with the journal record it became. */
export interface SequencedResult extends EngineResult {
  /** Journal sequence of the command, or null when it changed nothing and was not journaled. */
  journalSeq: number | null;
}
