/** Read-only views of the engine state for the HTTP layer, the gateway and tests. Nothing here changes state. */
import type { SessionPhase, Way } from '../../protocol/enums.ts';
import type { EngineState } from './engine-state.ts';
import { buildOrderView } from './events.ts';
import { indicativeSimulation, type UncrossSimulation } from './matching.ts';
import { ASK, BID, NONE, wayOf, type SideIndex } from './sides.ts';
import type { AssetState, OrderState } from './state.ts';
import type { BookLevelView, BookView, ClientTradeStats, OrderView, ScheduleEntry, SessionStats } from './types.ts';
import { partnersOf } from './whitelist.ts';

export function statsOf(a: AssetState): SessionStats {
  const st = a.stats;
  return {
    assetId: a.assetId,
    sessionDate: a.sessionDate,
    minPrice: st.minPrice,
    maxPrice: st.maxPrice,
    lastPrice: st.lastPrice,
    volume: st.volume,
    transactions: st.transactions,
    closingPrice: st.closingPrice,
    tradeableQty: st.tradeableQty,
    surplusQty: st.surplusQty,
    settlementPrice: a.settlementPrice,
  };
}

/** The order with its place in its level's queue (a walk to the head of the level). */
function viewWithPosition(o: OrderState): OrderView {
  let position: number | null = null;
  if (o.resting) {
    position = 1;
    for (let p = o.prev; p !== null; p = p.prev) position++;
  }
  return buildOrderView(o, position);
}

export function getOrder(s: EngineState, orderId: number, options?: { position?: boolean }): OrderView | undefined {
  const o = s.orders.get(orderId);
  if (o === undefined) return undefined;
  return options?.position === false ? buildOrderView(o, null) : viewWithPosition(o);
}

export function listOrders(s: EngineState, filter: { clientCode?: string; assetId?: string }): OrderView[] {
  const out: OrderView[] = [];
  for (const o of s.orders.values()) {
    if (filter.clientCode !== undefined && o.clientCode !== filter.clientCode) continue;
    if (filter.assetId !== undefined && o.assetId !== filter.assetId) continue;
    out.push(viewWithPosition(o));
  }
  return out.sort((x, y) => x.orderId - y.orderId);
}

export function getBook(s: EngineState, assetId: string, depth: number): BookView | undefined {
  const a = s.assets.get(assetId);
  if (a === undefined) return undefined;
  const side = (sideIndex: SideIndex) => {
    const levels = a.book.sides[sideIndex].levels;
    const out = [];
    for (let i = levels.length - 1; i >= 0 && out.length < depth; i--) out.push({ price: levels[i]!.price, qty: levels[i]!.qty, orders: levels[i]!.count });
    return out;
  };
  return { assetId, bids: side(BID), asks: side(ASK) };
}

/**
 * Every level of a bilateral asset's book with the quantity (and count) of the resting orders that
 * some client of `clientCodes` may trade with: orders of a whitelist partner of one of them. A level
 * with 0 holds only orders they may not trade with (the book marks them).
 */
export function tradeableLevels(s: EngineState, assetId: string, clientCodes: readonly string[]): { bids: BookLevelView[]; asks: BookLevelView[] } | undefined {
  const a = s.assets.get(assetId);
  if (a === undefined) return undefined;
  const partners = new Set<string>();
  for (const code of clientCodes) for (const partner of partnersOf(s, code)) partners.add(partner);
  const side = (sideIndex: SideIndex): BookLevelView[] => {
    const levels = a.book.sides[sideIndex].levels;
    const out: BookLevelView[] = [];
    for (let i = levels.length - 1; i >= 0; i--) {
      let qty = 0;
      let orders = 0;
      for (let o = levels[i]!.head; o !== null; o = o.next) {
        if (!partners.has(o.clientCode)) continue;
        qty += o.remaining;
        orders++;
      }
      out.push({ price: levels[i]!.price, qty, orders });
    }
    return out;
  };
  return { bids: side(BID), asks: side(ASK) };
}

export function getQueue(s: EngineState, assetId: string, way: Way): Array<{ price: number; orderIds: number[] }> {
  const a = s.assets.get(assetId);
  if (a === undefined) return [];
  const levels = a.book.sides[way === 'bid' ? BID : ASK].levels;
  const out = [];
  for (let i = levels.length - 1; i >= 0; i--) {
    const ids: number[] = [];
    for (let o = levels[i]!.head; o !== null; o = o.next) ids.push(o.id);
    out.push({ price: levels[i]!.price, orderIds: ids });
  }
  return out;
}

export function getStats(s: EngineState, assetId: string): SessionStats | undefined {
  const a = s.assets.get(assetId);
  return a === undefined ? undefined : statsOf(a);
}

export function getClientStats(s: EngineState, assetId: string, clientCode: string): ClientTradeStats | undefined {
  const a = s.assets.get(assetId);
  if (a === undefined) return undefined;
  const cas = a.clients.get(clientCode);
  const qty = cas?.tradedTotalQty ?? 0;
  return { clientCode, tradedQty: qty, averagePrice: qty === 0 ? null : Math.round(cas!.tradedValue / qty) };
}

export function getMarketPhase(s: EngineState, marketId: string): { phase: SessionPhase; sessionDate: string } | undefined {
  const m = s.markets.get(marketId);
  return m === undefined ? undefined : { phase: m.phase, sessionDate: m.sessionDate };
}

export function getDeltaT(s: EngineState, assetId: string): { endsAt: number; way: Way } | null {
  const d = s.assets.get(assetId)?.deltaT;
  return d ? { endsAt: d.endsAt, way: wayOf(d.side) } : null;
}

export function getClientFinancials(
  s: EngineState,
  clientCode: string,
): { reservedMargin: number; tradesMargin: number; openValue: number; tradedValue: number; openContracts: number; funds: number | null; tradingLimit: number | null } | undefined {
  const c = s.clients.get(clientCode);
  if (c === undefined) return undefined;
  return {
    reservedMargin: c.reservedMargin,
    tradesMargin: c.tradesMargin,
    openValue: c.openValue,
    tradedValue: c.tradedValue,
    openContracts: c.openContracts,
    funds: c.funds === NONE ? null : c.funds,
    tradingLimit: c.tradingLimit === NONE ? null : c.tradingLimit,
  };
}

export function indicativeUncross(s: EngineState, assetId: string): UncrossSimulation | undefined {
  const a = s.assets.get(assetId);
  return a === undefined ? undefined : indicativeSimulation(s, a);
}

export function getScheduleEnd(s: EngineState, marketId: string): number | null {
  const schedule = s.markets.get(marketId)?.schedule;
  return schedule === undefined || schedule.length === 0 ? null : schedule[schedule.length - 1]!.at;
}

export function getNextScheduledPhase(s: EngineState, marketId: string, after: number): ScheduleEntry | null {
  const m = s.markets.get(marketId);
  if (m === undefined) return null;
  for (let i = m.scheduleIndex; i < m.schedule.length; i++) if (m.schedule[i]!.at > after) return { ...m.schedule[i]! };
  return null;
}
