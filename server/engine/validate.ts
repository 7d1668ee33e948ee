/**
 * validateInternalState(): exchange-core style consistency checks of every book and aggregate.
 * Returns the list of problems found (empty when the state is consistent). Meant for tests, replays
 * and the benchmark; it walks everything, so it is not for the hot path.
 */
import { amountOf, marginOf } from './amounts.ts';
import type { EngineInternals } from './internals.ts';
import { ASK, BID } from './sides.ts';
import type { OrderState } from './state.ts';

export function validateInternalState(s: EngineInternals): string[] {
  const problems: string[] = [];
  const fail = (msg: string): void => {
    if (problems.length < 100) problems.push(msg);
  };
  const seen = new Set<number>();
  const clientTotals = new Map<string, { value: number; margin: number; contracts: number; tradedAmount: number; tradesMargin: number }>();
  const totals = (code: string) => {
    let t = clientTotals.get(code);
    if (!t) {
      t = { value: 0, margin: 0, contracts: 0, tradedAmount: 0, tradesMargin: 0 };
      clientTotals.set(code, t);
    }
    return t;
  };

  for (const [assetId, a] of s.assets) {
    if (!a.market.assets.includes(a)) fail(`${assetId}: not listed in its market`);
    for (const side of [BID, ASK] as const) {
      const levels = a.book.sides[side].levels;
      for (let i = 0; i < levels.length; i++) {
        const level = levels[i]!;
        if (i > 0) {
          const prev = levels[i - 1]!.price;
          if (side === BID ? !(prev < level.price) : !(prev > level.price)) fail(`${assetId}: side ${side} levels not strictly sorted at ${level.price}`);
        }
        if (level.count <= 0 || level.head === null || level.tail === null) {
          fail(`${assetId}: empty level ${level.price} kept`);
          continue;
        }
        if (level.head.prev !== null) fail(`${assetId}: level ${level.price} head has a prev`);
        if (level.tail.next !== null) fail(`${assetId}: level ${level.price} tail has a next`);
        let count = 0;
        let qty = 0;
        let lastPriority = -Infinity;
        let prev: OrderState | null = null;
        for (let o: OrderState | null = level.head; o !== null; o = o.next) {
          count++;
          qty += o.remaining;
          if (o.prev !== prev) fail(`order ${o.id}: broken prev link`);
          if (o.level !== level) fail(`order ${o.id}: level pointer wrong`);
          if (o.price !== level.price) fail(`order ${o.id}: price ${o.price} in level ${level.price}`);
          if (o.side !== side) fail(`order ${o.id}: on the wrong side`);
          if (o.assetId !== assetId) fail(`order ${o.id}: in the book of ${assetId}`);
          if (!o.resting || !o.live || o.suspended) fail(`order ${o.id}: in the book but flags resting=${o.resting} live=${o.live} suspended=${o.suspended}`);
          if (o.remaining <= 0) fail(`order ${o.id}: resting with remaining ${o.remaining}`);
          if (o.executionType !== 'normal' || o.market) fail(`order ${o.id}: immediate order resting`);
          if (s.orders.get(o.id) !== o) fail(`order ${o.id}: not in the order map`);
          if (o.priority <= lastPriority) fail(`order ${o.id}: FIFO broken (priority ${o.priority} after ${lastPriority})`);
          if (o.priority >= s.counters.nextPriority) fail(`order ${o.id}: priority from the future`);
          lastPriority = o.priority;
          if (seen.has(o.id)) fail(`order ${o.id}: in the book twice`);
          seen.add(o.id);
          const value = amountOf(a, o.price, o.remaining);
          if (o.reservedValue !== value) fail(`order ${o.id}: reserved value ${o.reservedValue} != ${value}`);
          if (o.reservedMargin !== marginOf(a.marginBps, value)) fail(`order ${o.id}: reserved margin wrong`);
          if (o.reservedContracts !== Math.ceil(o.remaining / a.contractQty)) fail(`order ${o.id}: reserved contracts wrong`);
          const t = totals(o.clientCode);
          t.value += o.reservedValue;
          t.margin += o.reservedMargin;
          t.contracts += o.reservedContracts;
          if (count > 10_000_000) break;
          prev = o;
        }
        if (prev !== level.tail) fail(`${assetId}: level ${level.price} tail is not the last order`);
        if (count !== level.count) fail(`${assetId}: level ${level.price} count ${level.count} != ${count}`);
        if (qty !== level.qty) fail(`${assetId}: level ${level.price} qty ${level.qty} != ${qty}`);
      }
    }
    const bestBid = a.book.sides[BID].best();
    const bestAsk = a.book.sides[ASK].best();
    if (bestBid && bestAsk && bestBid.price >= bestAsk.price && a.phase === 'trading' && a.deltaT === null && !a.bilateral) fail(`${assetId}: book crossed in trading (${bestBid.price} >= ${bestAsk.price}) without delta T`);
    if ((a.deltaT !== null) !== s.deltaTAssets.has(a)) fail(`${assetId}: delta-T registry out of step`);
    if (a.initiatorOrderId !== null && !s.orders.has(a.initiatorOrderId)) fail(`${assetId}: initiator order ${a.initiatorOrderId} is not live`);

    for (const [code, cas] of a.clients) {
      const t = totals(code);
      t.tradedAmount += cas.tradedAmount;
      t.tradesMargin += cas.tradesMargin;
      for (const side of [BID, ASK] as const) {
        let count = 0;
        let qty = 0;
        let prev: OrderState | null = null;
        for (let o = cas.heads[side]; o !== null; o = o.cNext) {
          count++;
          qty += o.remaining;
          if (o.cPrev !== prev) fail(`order ${o.id}: broken client link`);
          if (o.cas !== cas || o.side !== side || !o.resting) fail(`order ${o.id}: in the wrong client list`);
          prev = o;
          if (count > 10_000_000) break;
        }
        if (count !== cas.openCount[side]) fail(`${assetId}/${code}: open count ${cas.openCount[side]} != ${count}`);
        if (qty !== cas.openQty[side]) fail(`${assetId}/${code}: open qty ${cas.openQty[side]} != ${qty}`);
      }
      if (cas.tradedQty[BID] + cas.tradedQty[ASK] !== cas.tradedTotalQty) fail(`${assetId}/${code}: traded totals differ`);
    }
  }

  for (const [id, o] of s.orders) {
    if (o.id !== id) fail(`order map key ${id} holds order ${o.id}`);
    if (o.product.assetId !== o.assetId || o.cas.clientCode !== o.clientCode || o.cas.asset !== s.assets.get(o.assetId)) fail(`order ${id}: product or client record does not match`);
    if (!o.live) fail(`order ${id}: finished but still live`);
    if (o.id >= s.counters.nextOrderId) fail(`order ${id}: id from the future`);
    if (o.resting) {
      if (!seen.has(id)) fail(`order ${id}: marked resting but not in a book`);
    } else {
      if (!o.suspended) fail(`order ${id}: live, neither resting nor suspended`);
      if (o.reservedValue !== 0 || o.reservedMargin !== 0 || o.reservedContracts !== 0) fail(`order ${id}: suspended order holds reservations`);
    }
    if (o.remaining <= 0) fail(`order ${id}: live with remaining ${o.remaining}`);
    if (o.tradedQty < 0 || o.tradedValue < 0 || (o.tradedQty === 0) !== (o.tradedValue === 0)) fail(`order ${id}: traded quantity and value inconsistent`);
  }

  for (const [code, c] of s.clients) {
    const t = clientTotals.get(code) ?? { value: 0, margin: 0, contracts: 0, tradedAmount: 0, tradesMargin: 0 };
    if (c.openValue !== t.value) fail(`client ${code}: open value ${c.openValue} != ${t.value}`);
    if (c.reservedMargin !== t.margin) fail(`client ${code}: reserved margin ${c.reservedMargin} != ${t.margin}`);
    if (c.openContracts !== t.contracts) fail(`client ${code}: open contracts ${c.openContracts} != ${t.contracts}`);
    if (c.tradedValue !== t.tradedAmount) fail(`client ${code}: traded value ${c.tradedValue} != ${t.tradedAmount}`);
    if (c.tradesMargin !== t.tradesMargin) fail(`client ${code}: trades margin ${c.tradesMargin} != ${t.tradesMargin}`);
  }
  // Held transactions: parties and quantities sound; a superseded one has its transfer child.
  for (const [id, r] of s.transactions) {
    if (r.transactionId !== id) fail(`transaction map key ${id} holds ${r.transactionId}`);
    if (id >= s.counters.nextTransactionId) fail(`transaction ${id}: id from the future`);
    if (r.buyer === r.seller) fail(`transaction ${id}: same buyer and seller`);
    if (!(r.qty > 0 && r.price > 0)) fail(`transaction ${id}: quantity or price not positive`);
    if (!s.assets.has(r.assetId)) fail(`transaction ${id}: unknown asset ${r.assetId}`);
    if (r.parentTransactionId !== null && r.parentTransactionId >= id) fail(`transaction ${id}: parent ${r.parentTransactionId} not older`);
  }
  // Suspended participants: well formed, and none has a live order (the suspension cancelled them, new ones are refused).
  for (const kind of ['client', 'broker'] as const) {
    for (const [id, p] of s.suspensions.of(kind)) {
      if (p.kind !== kind || p.id !== id) fail(`suspension ${kind} ${id}: holds ${p.kind} ${p.id}`);
      if (kind === 'client' && !s.clients.has(id)) fail(`suspension of unknown client ${id}`);
    }
  }
  if (s.suspensions.clients.size + s.suspensions.brokers.size > 0) {
    for (const o of s.orders.values()) {
      if (s.suspensions.clients.has(o.clientCode)) fail(`order ${o.id}: live for suspended client ${o.clientCode}`);
      if (o.enteredBy !== null && s.suspensions.brokers.has(o.enteredBy)) fail(`order ${o.id}: live, entered by suspended broker ${o.enteredBy}`);
    }
  }
  for (const [code, partners] of s.relations) {
    if (partners.size === 0) fail(`client ${code}: empty partner set kept`);
    for (const partner of partners) if (!s.relations.get(partner)?.has(code)) fail(`relation ${code}-${partner}: not symmetric`);
  }
  return problems;
}
