/**
 * The workflows' deadlines. A deadline is the instance's `limit_at` column, so it survives a restart:
 * at start and every few seconds the timers look for instances whose limit passed and that still wait
 * on someone, and send each the system's `expire` event with the kind's reason code (OTC →
 * OTC_LIMIT_DATE_EXCEEDED, transfer → TRANSFER_LIMIT_DATE_EXCEEDED {transactionId}). An instance that
 * moved meanwhile (a concurrent approval) is simply left to its new state.
 */
import { ExchangeError, type ErrorCode } from '../../protocol/error-codes.ts';
import type { WorkflowKind } from '../../protocol/workflows.ts';
import type { Queryable } from '../store/database.ts';
import { systemUser, type ReasonParams, type WorkflowRunner } from './workflow-runner.ts';

/** Why the system expires an instance of each kind (kinds without a deadline have none). */
export function expiryReasonOf(kind: WorkflowKind, data: Record<string, unknown>): { code: ErrorCode; params: ReasonParams } | null {
  if (kind === 'otc') return { code: 'OTC_LIMIT_DATE_EXCEEDED', params: {} };
  if (kind === 'transfer') return { code: 'TRANSFER_LIMIT_DATE_EXCEEDED', params: { transactionId: String(data.transactionId ?? '') } };
  return null;
}

export interface WorkflowTimersOptions {
  runner: WorkflowRunner;
  db: Queryable;
  now: () => number;
  /** Ms between sweeps; 0: no interval (tests call sweep()). */
  intervalMs?: number;
}

export class WorkflowTimers {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(private readonly options: WorkflowTimersOptions) {}

  /** Sweeps once now, then every interval. */
  async start(): Promise<void> {
    await this.sweep();
    const interval = this.options.intervalMs ?? 5_000;
    if (interval > 0) {
      this.timer = setInterval(() => void this.sweep().catch((error: unknown) => console.warn('workflow timers: sweep failed', error)), interval);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => 0);
  }

  /** Expires every instance due at `at` (default: now); the number expired. One sweep at a time. */
  sweep(at: number = this.options.now()): Promise<number> {
    if (this.running) return this.running;
    this.running = this.expireDue(at).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async expireDue(at: number): Promise<number> {
    const { runner, db } = this.options;
    let expired = 0;
    for (const due of await runner.repository.due(db, new Date(at).toISOString())) {
      const row = await runner.repository.find(db, due.id);
      if (!row) continue;
      const reason = expiryReasonOf(row.kind, row.data);
      if (!reason) continue;
      try {
        await runner.act(row.id, 'expire', systemUser, { code: reason.code, params: reason.params, version: row.version });
        expired++;
      } catch (error) {
        // Moved meanwhile, or a state without `expire`: not this sweep's business.
        if (!(error instanceof ExchangeError)) throw error;
      }
    }
    return expired;
  }
}
