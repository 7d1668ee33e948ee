import type { AuditRecord } from '../../protocol/audit.ts';
import { apiError, ExchangeError, isErrorCode, type ErrorCode, type MarketKind, type SessionPhase } from '../../protocol/index.ts';
import type { AuditRecorder } from '../audit/audit-recorder.ts';
import type { Engine } from '../engine/engine.ts';
import type { UserRecord } from '../store/users.repository.ts';
import { marketSchedule, type SessionTimetables } from '../trading/engine-setup.ts';
import type { TradingService } from '../trading/trading-service.ts';

const DAY_MS = 86_400_000;

/** The phase the market's daily timetable gives at `now` and since when (null without a timetable). */
export function scheduledPhaseAt(timetables: SessionTimetables, kind: MarketKind, now: number): { phase: SessionPhase; at: number } | null {
  if (timetables === null) return null;
  // Yesterday and today: the entry in force may be last night's close.
  const entries = marketSchedule(timetables[kind], now - DAY_MS, 2);
  let current: { phase: SessionPhase; at: number } | null = null;
  for (const entry of entries) if (entry.at <= now) current = { phase: entry.phase, at: entry.at };
  return current;
}

export interface MarketPhaseControlOptions {
  engine: Pick<Engine, 'getMarketPhase' | 'getPhase'>;
  trading: Pick<TradingService, 'setPhase'>;
  audit: AuditRecorder;
}

/** Who asked, from where: the audit entry's actor and address. */
export interface PhaseRequest {
  user: UserRecord;
  remoteAddress: string | null;
}

/**
 * The operator's phase changes, each audited (category operator): suspend and resume of a market (the
 * console's buttons) and the general phase route. Resume returns the market to the phase it was in when
 * suspended; suspend is refused for a market already suspended or closed, resume
 * for one that is not suspended, with MARKET_PHASE_CHANGE_NOT_ALLOWED.
 */
export class MarketPhaseControl {
  constructor(private readonly options: MarketPhaseControlOptions) {}

  suspend(request: PhaseRequest, marketId: string): Promise<void> {
    return this.change(request, 'market.suspend', marketId, null, (from) => {
      if (from === 'suspended' || from === 'closed') throw new ExchangeError(apiError('MARKET_PHASE_CHANGE_NOT_ALLOWED', { marketId, phase: from }));
      return { to: 'suspended', command: 'suspend' };
    });
  }

  /**
   * Back to the phase the market was in when it was suspended (the engine's resume). A scheduled phase
   * change that fell due during the suspension has already moved the market on (the engine applies its
   * schedule to a suspended market too), so this never reopens a market its timetable has closed.
   */
  resume(request: PhaseRequest, marketId: string): Promise<void> {
    return this.change(request, 'market.resume', marketId, null, (from) => {
      if (from !== 'suspended') throw new ExchangeError(apiError('MARKET_PHASE_CHANGE_NOT_ALLOWED', { marketId, phase: from }));
      return { to: 'resume', command: 'resume' };
    });
  }

  /** POST /admin/markets/:marketId/phase: a phase, or the engine's own suspend / resume (to the phase before). */
  setPhase(request: PhaseRequest, marketId: string, phase: SessionPhase | 'suspend' | 'resume', assetId: string | null): Promise<void> {
    return this.change(request, 'market.phase', marketId, assetId, () => ({ to: phase === 'suspend' ? 'suspended' : phase, command: phase }));
  }

  private async change(
    { user, remoteAddress }: PhaseRequest,
    action: 'market.suspend' | 'market.resume' | 'market.phase',
    marketId: string,
    assetId: string | null,
    decide: (from: SessionPhase) => { to: SessionPhase | 'resume'; command: SessionPhase | 'suspend' | 'resume' },
  ): Promise<void> {
    if (!user.roles.includes('administrator')) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'administrator' }));
    const { engine } = this.options;
    const from = (assetId ? engine.getPhase(assetId) : engine.getMarketPhase(marketId)?.phase) ?? null;
    const entry = (outcome: AuditRecord['outcome'], code: ErrorCode | null, to: string | null, params: Record<string, unknown> = {}): AuditRecord => ({
      category: 'operator',
      action,
      actorUserId: user.id,
      actorRole: 'administrator',
      subject: assetId ? `asset ${assetId}` : `market ${marketId}`,
      outcome,
      code,
      remoteAddress,
      details: { marketId, assetId, from, to, ...scalarParams(params) },
    });
    let to: string | null = null;
    try {
      if (from === null && assetId) throw new ExchangeError(apiError('ORDER_ASSET_ID_INVALID', { assetId }));
      if (from === null) throw new ExchangeError(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'unknown' }));
      const decided = decide(from);
      to = decided.to;
      await this.options.trading.setPhase(user, marketId, decided.command, assetId);
      // The engine's resume goes back to the phase before the suspension: the audit names where it went.
      if (to === 'resume') to = (assetId ? engine.getPhase(assetId) : engine.getMarketPhase(marketId)?.phase) ?? null;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (isErrorCode(code)) await this.options.audit.record(entry('refused', code, to === 'resume' ? null : to, (error as { params?: Record<string, unknown> }).params));
      throw error;
    }
    await this.options.audit.record(entry('ok', null, to));
  }
}

/** A refusal's parameters as audit details (scalars only). */
function scalarParams(params: Record<string, unknown> | undefined): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (name === 'marketId' || name === 'assetId') continue;
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[name] = value;
  }
  return out;
}
