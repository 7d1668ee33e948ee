/**
 * Sessions and time: market and asset phases (setPhase, the schedule, operator suspend / resume),
 * a new session date, delta-T periods, and tick(), which applies what is due: expiries, ends of
 * delta T and scheduled phases, oldest first.
 */
import { apiError } from '../../protocol/error-codes.ts';
import type { SessionPhase } from '../../protocol/enums.ts';
import { settleSession } from './clearing.ts';
import type { EngineState } from './engine-state.ts';
import { uncross } from './matching.ts';
import { refuse, type Refusal } from './refusal.ts';
import { finish } from './resting.ts';
import { phaseAllowsAction } from './rules/session-phase.ts';
import { ASK, BID, type SideIndex } from './sides.ts';
import { emptyStats, type AssetState, type MarketState, type OrderState } from './state.ts';
import type { OperatorSessionCommand, SetPhaseCommand } from './types.ts';

const phaseSet: ReadonlySet<string> = new Set(['opening', 'trading', 'closing', 'suspended', 'closed']);

export function setPhase(s: EngineState, c: SetPhaseCommand): Refusal | null {
  const m = s.markets.get(c.marketId);
  if (m === undefined) return refuse(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'unknown' }));
  if (!phaseSet.has(c.phase)) return refuse(apiError('REQUEST_INVALID', { field: 'phase', issue: 'invalid' }));
  if (c.assetId) {
    const a = s.assets.get(c.assetId);
    if (a === undefined || a.market !== m) return refuse(apiError('ORDER_ASSET_ID_INVALID', { assetId: c.assetId }));
    applyAssetPhase(s, a, c.phase, c.sessionDate, c.at);
    return null;
  }
  applyMarketPhase(s, m, c.phase, c.sessionDate, c.at);
  return null;
}

function applyMarketPhase(s: EngineState, m: MarketState, phase: SessionPhase, sessionDate: string | undefined, at: number): void {
  const previous = m.phase;
  if (phase === 'suspended' && previous !== 'suspended') m.phaseBeforeSuspend = previous;
  m.phase = phase;
  if (sessionDate) m.sessionDate = sessionDate;
  s.emit({ type: 'phase', marketId: m.config.marketId, assetId: null, phase, previous, sessionDate: m.sessionDate, at });
  for (const a of m.assets) applyAssetPhase(s, a, phase, sessionDate, at);
}

function applyAssetPhase(s: EngineState, a: AssetState, phase: SessionPhase, sessionDate: string | undefined, at: number): void {
  const previous = a.phase;
  if (sessionDate && sessionDate !== a.sessionDate) newSession(a, sessionDate);
  if (previous === phase) return;
  if (phase === 'suspended') a.phaseBeforeSuspend = previous;
  // leaving trading with a delta T running: its match executes now
  if (a.deltaT !== null && (phase === 'closing' || phase === 'closed')) {
    a.phase = 'trading';
    endDeltaT(s, a, at);
  }
  a.phase = phase;
  s.emit({ type: 'phase', marketId: a.marketId, assetId: a.assetId, phase, previous, sessionDate: a.sessionDate, at });
  if (phase === 'closed') {
    // end of session: day orders expire, the closing price is the session's last price
    const expiring: OrderState[] = [];
    for (const o of s.orders.values()) if (o.assetId === a.assetId && o.validityType === 'day') expiring.push(o);
    for (const o of expiring) finish(s, a, o, 'expired', at, 'expired');
    a.stats.closingPrice = a.stats.lastPrice;
    s.statsChanged(a);
  } else if (phaseAllowsAction(phase, 'matching') && a.deltaT === null && a.book.crossed()) {
    // opening auction: entering a matching phase with a crossed book
    uncross(s, a, 'auction', BID, at);
  }
}

/** A new session date: fresh statistics, the initiator's one order per session, the clients' session figures reset. */
function newSession(a: AssetState, sessionDate: string): void {
  a.sessionDate = sessionDate;
  a.refreshProduct();
  a.stats = emptyStats();
  a.initiatorPlaced = a.initiatorOrderId !== null;
  for (const cas of a.clients.values()) {
    cas.tradedQty[BID] = 0;
    cas.tradedQty[ASK] = 0;
    cas.tradedValue = 0;
    cas.tradedTotalQty = 0;
    settleSession(cas);
  }
  a.statsDirty = false;
}

/**
 * Clearing has settled the session `sessionDate` of a market: every asset of the market still on that
 * session gives up its clients' traded exposure and trade margin (settleSession), as the next session
 * would. Changes nothing (and is not journaled) when there is nothing left to give up.
 */
export function settleSessionTrades(s: EngineState, marketId: string, sessionDate: string, at: number): Refusal | null {
  const m = s.markets.get(marketId);
  if (m === undefined) return refuse(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'unknownMarket' }));
  let changed = false;
  for (const a of s.assets.values()) {
    if (a.market !== m || a.sessionDate !== sessionDate) continue;
    for (const cas of a.clients.values()) {
      if (cas.tradedAmount === 0 && cas.tradesMargin === 0) continue;
      settleSession(cas);
      changed = true;
    }
  }
  if (changed) s.emit({ type: 'config', kind: 'sessionTradesSettled', id: marketId, at });
  return null;
}

/** Operator suspend, and resume to the phase before, of a market or one asset. */
export function operatorSession(s: EngineState, c: OperatorSessionCommand): Refusal | null {
  const m = s.markets.get(c.marketId);
  if (m === undefined) return refuse(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'unknown' }));
  let asset: AssetState | null = null;
  if (c.assetId) {
    const a = s.assets.get(c.assetId);
    if (a === undefined || a.market !== m) return refuse(apiError('ORDER_ASSET_ID_INVALID', { assetId: c.assetId }));
    asset = a;
  }
  if (c.type === 'operatorSuspend') {
    if (asset !== null) {
      if (asset.phase === 'suspended') return refuse(apiError('SESSION_SUSPENDED'));
      applyAssetPhase(s, asset, 'suspended', undefined, c.at);
    } else {
      if (m.phase === 'suspended') return refuse(apiError('SESSION_SUSPENDED'));
      applyMarketPhase(s, m, 'suspended', undefined, c.at);
    }
    return null;
  }
  // resume
  if (asset !== null) {
    if (asset.phase !== 'suspended') return refuse(apiError('SESSION_PHASE_FORBIDS', { phase: asset.phase }));
    applyAssetPhase(s, asset, asset.phaseBeforeSuspend ?? 'trading', undefined, c.at);
    return null;
  }
  if (m.phase !== 'suspended') return refuse(apiError('SESSION_PHASE_FORBIDS', { phase: m.phase }));
  const back = m.phaseBeforeSuspend ?? 'trading';
  const previous = m.phase;
  m.phase = back;
  s.emit({ type: 'phase', marketId: m.config.marketId, assetId: null, phase: back, previous, sessionDate: m.sessionDate, at: c.at });
  for (const a of m.assets) if (a.phase === 'suspended') applyAssetPhase(s, a, a.phaseBeforeSuspend ?? back, undefined, c.at);
  return null;
}

// -------------------------------------------------------------------------------------------------
// Delta T
// -------------------------------------------------------------------------------------------------

/** A crossing order on a delta-T asset starts (or extends) the period: the competing side is the order's. */
export function startDeltaT(s: EngineState, a: AssetState, side: SideIndex, at: number): void {
  const endsAt = at + a.deltaTDurationMs;
  if (a.deltaT === null) a.deltaT = { endsAt, side, startedAt: at };
  else a.deltaT.endsAt = endsAt;
  s.deltaTAssets.add(a);
  const opposite = a.book.sides[side === BID ? ASK : BID].best();
  s.emit({ type: 'deltaT', kind: 'start', assetId: a.assetId, endsAt, price: opposite ? opposite.price : 0, at });
}

/** The period ends: the crossed book executes at the competing side's marginal price. */
function endDeltaT(s: EngineState, a: AssetState, at: number): void {
  const d = a.deltaT;
  if (d === null) return;
  a.deltaT = null;
  s.deltaTAssets.delete(a);
  const price = uncross(s, a, 'deltaT', d.side, at);
  s.emit({ type: 'deltaT', kind: 'end', assetId: a.assetId, endsAt: d.endsAt, price, at });
}

// -------------------------------------------------------------------------------------------------
// Time
// -------------------------------------------------------------------------------------------------

/** What a tick can find due; on equal times the earlier kind goes first. */
export const TickKind = { none: 0, expiry: 1, deltaTEnd: 2, schedule: 3 } as const;
export type TickKind = (typeof TickKind)[keyof typeof TickKind];

/** Time passes: expiries, ends of delta T and scheduled phases that are due, oldest first. */
export function tick(s: EngineState, now: number): Refusal | null {
  for (;;) {
    let kind: TickKind = TickKind.none;
    let when = Infinity;
    const t = s.expiries.peekTime();
    if (t !== undefined && t <= now) {
      kind = TickKind.expiry;
      when = t;
    }
    let dueAsset: AssetState | null = null;
    for (const a of s.deltaTAssets) {
      const d = a.deltaT!;
      if (phaseAllowsAction(a.phase, 'matching') && d.endsAt <= now && d.endsAt < when) {
        when = d.endsAt;
        dueAsset = a;
        kind = TickKind.deltaTEnd;
      }
    }
    let dueMarket: MarketState | null = null;
    for (const m of s.markets.values()) {
      const entry = m.schedule[m.scheduleIndex];
      if (entry !== undefined && entry.at <= now && entry.at < when) {
        when = entry.at;
        dueMarket = m;
        kind = TickKind.schedule;
      }
    }
    if (kind === TickKind.none) break;
    if (kind === TickKind.expiry) {
      const id = s.expiries.peekId()!;
      s.expiries.pop();
      const o = s.orders.get(id);
      if (o !== undefined && o.expiresAt === t) finish(s, o.cas.asset, o, 'expired', t, 'expired');
    } else if (kind === TickKind.deltaTEnd) {
      endDeltaT(s, dueAsset!, dueAsset!.deltaT!.endsAt);
    } else {
      const m = dueMarket!;
      const entry = m.schedule[m.scheduleIndex++]!;
      applyMarketPhase(s, m, entry.phase, entry.sessionDate, entry.at);
    }
  }
  return null;
}
