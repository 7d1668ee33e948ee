/**
 * stateHash(): a deterministic sha256 over a canonical serialisation of everything that defines the
 * engine's state: counters, markets, assets (phase, session, delta T, statistics, every book level
 * with its orders in FIFO order), every live order with all its fields, and the clients' aggregates.
 * Two engines fed the same commands have the same hash; a replay check compares them.
 * (node:crypto is used here only.)
 */
import { createHash } from 'node:crypto';
import { ASK, BID } from './sides.ts';
import type { EngineInternals } from './internals.ts';
import { suspensionList } from './snapshot.ts';
import { relationPairs } from './whitelist.ts';

function byKey<T>(map: ReadonlyMap<string, T>): Array<[string, T]> {
  return [...map.entries()].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
}

export function computeStateHash(s: EngineInternals): string {
  const h = createHash('sha256');
  const put = (v: unknown): void => {
    h.update(JSON.stringify(v));
    h.update('\n');
  };
  put(['counters', s.counters.nextOrderId, s.counters.nextTransactionId, s.counters.nextPriority]);
  for (const [id, m] of byKey(s.markets)) put(['market', id, m.phase, m.phaseBeforeSuspend, m.sessionDate, m.scheduleIndex, m.config]);
  for (const [id, a] of byKey(s.assets)) {
    put(['asset', id, a.market.config.marketId, a.phase, a.phaseBeforeSuspend, a.sessionDate, a.deltaT, a.stats, a.settlementPrice, a.initiatorOrderId, a.initiatorPlaced, a.config]);
    for (const side of [BID, ASK] as const) {
      const levels = a.book.sides[side].levels;
      for (let i = levels.length - 1; i >= 0; i--) {
        const level = levels[i]!;
        const ids: number[] = [];
        for (let o = level.head; o !== null; o = o.next) ids.push(o.id);
        put(['level', side, level.price, level.qty, level.count, ids]);
      }
    }
    for (const [code, cas] of byKey(a.clients)) {
      // a client's record on an asset is created on first contact (even by a refused order): only its content counts
      if (cas.openCount[0] + cas.openCount[1] + cas.tradedTotalQty + cas.tradedAmount + cas.tradesMargin === 0) continue;
      put(['clientAsset', code, cas.openQty, cas.openCount, cas.tradedQty, cas.tradedValue, cas.tradedTotalQty, cas.tradedAmount, cas.tradesMargin]);
    }
  }
  const ids = [...s.orders.keys()].sort((x, y) => x - y);
  for (const id of ids) {
    const o = s.orders.get(id)!;
    put([
      'order', o.id, o.product, o.clientCode, o.brokerId, o.way, o.executionType, o.createdAt, o.balancingGroupId, o.initiator, o.market, o.powerPerInterval, o.price, o.remaining, o.tradedQty, o.tradedValue, o.originalQty, o.validityType, o.validity, o.expiresAt,
      o.lastModifiedAt, o.status, o.suspended, o.resting, o.priority, o.reservedMargin, o.reservedValue, o.reservedContracts,
      // who entered it: only when known, so orders without an acting user hash as before
      ...(o.enteredBy === null ? [] : [o.enteredBy]),
    ]);
  }
  for (const [code, c] of byKey(s.clients)) {
    put(['client', code, c.reservedMargin, c.tradesMargin, c.openValue, c.tradedValue, c.openContracts, c.config]);
  }
  // Post-trade state: only when there is some, so the hash of an engine without any stays as it was.
  const txIds = [...s.transactions.keys()].sort((x, y) => x - y);
  for (const id of txIds) put(['transaction', s.transactions.get(id)]);
  const pairs = relationPairs(s.relations);
  if (pairs.length > 0) put(['relations', pairs]);
  const suspended = suspensionList(s.suspensions);
  if (suspended.length > 0) put(['suspensions', suspended]);
  return h.digest('hex');
}
