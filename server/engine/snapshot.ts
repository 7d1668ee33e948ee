/**
 * Engine snapshots: the whole engine state as plain JSON data (exportEngineState) and back
 * (importEngineState), so that recovery can start from a snapshot and replay only the journal records
 * after it. An imported engine has the same stateHash() and behaves identically for every further
 * command, so everything that can influence a later result is kept, not only what the hash covers:
 *
 * - the books level by level with each level's orders in FIFO order, and each client's resting-order
 *   list in its own order (cross checks report the first order they meet);
 * - the resolved client/asset rules exactly as cached, with their epoch (a modify reads the cached
 *   rules of the order's client record without refreshing them);
 * - the expiry heap as its raw array (stale entries included, so expiries pop in the same order);
 * - insertion orders of markets, a market's assets and the delta-T registry (ties in tick() and the
 *   order of phase events depend on them);
 * - counters (order, transaction and priority sequences, configuration epoch, clock, command counts).
 *
 * Pure caches (the order object pool, last-asset caches) are not kept: they never change a result.
 * The export copies everything mutable, so the engine may run on while the snapshot is written.
 */
import type { ExecutionType, OrderStatus, SessionPhase, ValidityType, Way } from '../../protocol/enums.ts';
import { configureAsset } from './configuration.ts';
import { ProductInfo } from './header.ts';
import type { ExpiryHeap } from './heap.ts';
import type { OrderIndex } from './order-index.ts';
import { ASK, BID, type SideIndex } from './sides.ts';
import { AssetState, ClientAssetState, ClientState, MarketState, OrderState, ResolvedRules, clientLink, type DeltaTState, type MutableStats, type ParticipantSuspension, type ParticipantSuspensions } from './state.ts';
import type { AssetConfig, ClientConfig, MarketConfig, ScheduleEntry, TransactionRecord } from './types.ts';
import { relationPairs } from './whitelist.ts';

export const ENGINE_SNAPSHOT_VERSION = 1;

export interface EngineCountersSnapshot {
  nextOrderId: number;
  nextTransactionId: number;
  nextPriority: number;
  epoch: number;
  now: number;
  commandCount: number;
  /**
   * Commands that changed the engine (the `seq` of events). Absent in snapshots written before events
   * carried it: the importer must then supply it (see importEngineState).
   */
  changedCommands: number;
}

export interface MarketSnapshot {
  config: MarketConfig;
  phase: SessionPhase;
  phaseBeforeSuspend: SessionPhase | null;
  sessionDate: string;
  schedule: ScheduleEntry[];
  scheduleIndex: number;
  /** The market's assets in their list order. */
  assets: string[];
}

export type RulesSnapshot = { [K in keyof ResolvedRules]: ResolvedRules[K] };

export interface ClientAssetSnapshot {
  clientCode: string;
  rules: RulesSnapshot;
  tradedQty: [number, number];
  tradedValue: number;
  tradedTotalQty: number;
  tradedAmount: number;
  tradesMargin: number;
  /** The client's resting orders per side (bid, ask), head first. */
  lists: [number[], number[]];
}

/** One price level: its price and its orders' ids in FIFO order. */
export type LevelSnapshot = [price: number, orderIds: number[]];

export interface AssetSnapshot {
  assetId: string;
  marketId: string;
  config: AssetConfig;
  phase: SessionPhase;
  phaseBeforeSuspend: SessionPhase | null;
  sessionDate: string;
  settlementPrice: number | null;
  deltaT: DeltaTState | null;
  stats: MutableStats;
  initiatorOrderId: number | null;
  initiatorPlaced: boolean;
  /** Bid and ask levels in the book's array order (best last). */
  book: [LevelSnapshot[], LevelSnapshot[]];
  clients: ClientAssetSnapshot[];
}

export interface ClientSnapshot {
  config: ClientConfig;
  reservedMargin: number;
  tradesMargin: number;
  openValue: number;
  tradedValue: number;
  openContracts: number;
}

export type ProductSnapshot = [assetId: string, marketId: string, sessionDate: string, contractQty: number, intervalsPerDay: number, deliveryDays: number, marginsExposureActive: boolean];

export interface OrderSnapshot {
  id: number;
  /** Index into EngineSnapshot.products. */
  product: number;
  clientCode: string;
  brokerId: string | null;
  way: Way;
  price: number;
  remaining: number;
  tradedQty: number;
  tradedValue: number;
  originalQty: number;
  executionType: ExecutionType;
  validityType: ValidityType;
  validity: number | null;
  expiresAt: number | null;
  createdAt: number;
  lastModifiedAt: number;
  status: OrderStatus;
  suspended: boolean;
  resting: boolean;
  priority: number;
  balancingGroupId: string | null;
  initiator: boolean;
  market: boolean;
  powerPerInterval: number | null;
  reservedMargin: number;
  reservedValue: number;
  reservedContracts: number;
  /** The user who entered it (a broker suspension cancels that user's orders); absent in older snapshots and when null. */
  enteredBy?: string;
}

export interface EngineSnapshot {
  version: number;
  counters: EngineCountersSnapshot;
  /** In the engine's insertion order (tick() breaks ties on it). */
  markets: MarketSnapshot[];
  assets: AssetSnapshot[];
  clients: ClientSnapshot[];
  /** Product constants shared by orders (an order keeps those of its creation). */
  products: ProductSnapshot[];
  /** Live orders in id order. */
  orders: OrderSnapshot[];
  /** The expiry heap's array: [time, orderId] in heap order. */
  expiries: Array<[number, number]>;
  /** Assets with a running delta T, in registry order. */
  deltaTAssets: string[];
  /** Held transactions (off the book, or touched by a post-trade command) in id order; absent in older snapshots. */
  transactions?: TransactionRecord[];
  /** Active whitelist relations, each once as [smaller, larger] client code; absent in older snapshots. */
  relations?: Array<[string, string]>;
  /** Suspended participants (clients, then brokers, by id); absent in older snapshots. */
  suspensions?: ParticipantSuspension[];
}

/** What the engine lends to (de)serialisation: its containers and a getter/setter for its counters. */
export interface SnapshotAccess {
  markets: Map<string, MarketState>;
  assets: Map<string, AssetState>;
  clients: Map<string, ClientState>;
  orders: OrderIndex;
  expiries: ExpiryHeap;
  deltaTAssets: Set<AssetState>;
  transactions: Map<number, TransactionRecord>;
  relations: Map<string, Set<string>>;
  suspensions: ParticipantSuspensions;
  getCounters(): EngineCountersSnapshot;
  setCounters(counters: EngineCountersSnapshot): void;
}

/** Suspended clients, then brokers, each by id (canonical: the hash serialises the same list). */
export function suspensionList(suspensions: ParticipantSuspensions): ParticipantSuspension[] {
  const byId = (x: ParticipantSuspension, y: ParticipantSuspension): number => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
  return [...[...suspensions.clients.values()].sort(byId), ...[...suspensions.brokers.values()].sort(byId)].map((p) => ({ ...p }));
}

/** A deep copy of plain configuration data (also drops undefined members, as JSON does). */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function levelsOf(a: AssetState, side: SideIndex): LevelSnapshot[] {
  return a.book.sides[side].levels.map((level) => {
    const ids: number[] = [];
    for (let o = level.head; o !== null; o = o.next) ids.push(o.id);
    return [level.price, ids];
  });
}

function clientListOf(cas: ClientAssetState, side: SideIndex): number[] {
  const ids: number[] = [];
  for (let o = cas.heads[side]; o !== null; o = o.cNext) ids.push(o.id);
  return ids;
}

export function exportEngineState(s: SnapshotAccess): EngineSnapshot {
  const markets: MarketSnapshot[] = [];
  for (const m of s.markets.values()) {
    markets.push({
      config: plain(m.config),
      phase: m.phase,
      phaseBeforeSuspend: m.phaseBeforeSuspend,
      sessionDate: m.sessionDate,
      schedule: plain(m.schedule),
      scheduleIndex: m.scheduleIndex,
      assets: m.assets.map((a) => a.assetId),
    });
  }
  const assets: AssetSnapshot[] = [];
  for (const a of s.assets.values()) {
    const clients: ClientAssetSnapshot[] = [];
    for (const cas of a.clients.values()) {
      clients.push({
        clientCode: cas.clientCode,
        rules: { ...cas.rules },
        tradedQty: [cas.tradedQty[0], cas.tradedQty[1]],
        tradedValue: cas.tradedValue,
        tradedTotalQty: cas.tradedTotalQty,
        tradedAmount: cas.tradedAmount,
        tradesMargin: cas.tradesMargin,
        lists: [clientListOf(cas, BID), clientListOf(cas, ASK)],
      });
    }
    assets.push({
      assetId: a.assetId,
      marketId: a.market.config.marketId,
      config: plain(a.config),
      phase: a.phase,
      phaseBeforeSuspend: a.phaseBeforeSuspend,
      sessionDate: a.sessionDate,
      settlementPrice: a.settlementPrice,
      deltaT: a.deltaT === null ? null : { ...a.deltaT },
      stats: { ...a.stats },
      initiatorOrderId: a.initiatorOrderId,
      initiatorPlaced: a.initiatorPlaced,
      book: [levelsOf(a, BID), levelsOf(a, ASK)],
      clients,
    });
  }
  const clients: ClientSnapshot[] = [];
  for (const c of s.clients.values()) {
    clients.push({ config: plain(c.config), reservedMargin: c.reservedMargin, tradesMargin: c.tradesMargin, openValue: c.openValue, tradedValue: c.tradedValue, openContracts: c.openContracts });
  }
  const products: ProductSnapshot[] = [];
  // shared by value (equal constants may sit in distinct objects), so the export is canonical
  const productByObject = new Map<ProductInfo, number>();
  const productByValue = new Map<string, number>();
  const orders: OrderSnapshot[] = [];
  for (const o of s.orders.values()) {
    let product = productByObject.get(o.product);
    if (product === undefined) {
      const p = o.product;
      const tuple: ProductSnapshot = [p.assetId, p.marketId, p.sessionDate, p.contractQty, p.intervalsPerDay, p.deliveryDays, p.marginsExposureActive];
      const key = JSON.stringify(tuple);
      product = productByValue.get(key);
      if (product === undefined) {
        product = products.length;
        products.push(tuple);
        productByValue.set(key, product);
      }
      productByObject.set(p, product);
    }
    orders.push({
      id: o.id,
      product,
      clientCode: o.clientCode,
      brokerId: o.brokerId,
      way: o.way,
      price: o.price,
      remaining: o.remaining,
      tradedQty: o.tradedQty,
      tradedValue: o.tradedValue,
      originalQty: o.originalQty,
      executionType: o.executionType,
      validityType: o.validityType,
      validity: o.validity,
      expiresAt: o.expiresAt,
      createdAt: o.createdAt,
      lastModifiedAt: o.lastModifiedAt,
      status: o.status,
      suspended: o.suspended,
      resting: o.resting,
      priority: o.priority,
      balancingGroupId: o.balancingGroupId,
      initiator: o.initiator,
      market: o.market,
      powerPerInterval: o.powerPerInterval,
      reservedMargin: o.reservedMargin,
      reservedValue: o.reservedValue,
      reservedContracts: o.reservedContracts,
      ...(o.enteredBy === null ? {} : { enteredBy: o.enteredBy }),
    });
  }
  return {
    version: ENGINE_SNAPSHOT_VERSION,
    counters: { ...s.getCounters() },
    markets,
    assets,
    clients,
    products,
    orders,
    expiries: s.expiries.entries(),
    deltaTAssets: [...s.deltaTAssets].map((a) => a.assetId),
    transactions: [...s.transactions.values()].sort((x, y) => x.transactionId - y.transactionId).map((r) => ({ ...r })),
    relations: relationPairs(s.relations),
    suspensions: suspensionList(s.suspensions),
  };
}

export interface ImportOptions {
  /**
   * For a snapshot written before events carried a seq: how many commands had changed the engine.
   * Driven by the sequencer from an empty journal, that is the journal seq the snapshot was taken at.
   */
  changedCommands?: number;
}

/** Rebuilds the state of `snapshot` into an empty engine. Throws on a malformed snapshot. */
export function importEngineState(s: SnapshotAccess, snapshot: EngineSnapshot, options: ImportOptions = {}): void {
  if (snapshot?.version !== ENGINE_SNAPSHOT_VERSION) throw new Error(`unsupported engine snapshot version ${String(snapshot?.version)}`);
  if (s.markets.size > 0 || s.assets.size > 0 || s.clients.size > 0 || s.orders.size > 0) throw new Error('an engine snapshot imports into an empty engine only');
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`engine snapshot: unknown ${what}`);
    return value;
  };

  for (const ms of snapshot.markets) {
    const m = new MarketState(ms.config);
    m.phase = ms.phase;
    m.phaseBeforeSuspend = ms.phaseBeforeSuspend;
    m.sessionDate = ms.sessionDate;
    m.schedule = ms.schedule;
    m.scheduleIndex = ms.scheduleIndex;
    s.markets.set(ms.config.marketId, m);
  }
  for (const c of snapshot.clients) {
    const client = new ClientState(c.config.clientCode);
    client.apply(c.config);
    client.reservedMargin = c.reservedMargin;
    client.tradesMargin = c.tradesMargin;
    client.openValue = c.openValue;
    client.tradedValue = c.tradedValue;
    client.openContracts = c.openContracts;
    s.clients.set(c.config.clientCode, client);
  }
  for (const as of snapshot.assets) {
    const a = new AssetState(as.assetId);
    a.sessionDate = as.sessionDate; // before apply(): the asset's product carries the session date
    configureAsset(a, as.config, need(s.markets.get(as.marketId), `market ${as.marketId}`));
    a.settlementPrice = as.settlementPrice;
    a.phase = as.phase;
    a.phaseBeforeSuspend = as.phaseBeforeSuspend;
    a.deltaT = as.deltaT === null ? null : { ...as.deltaT };
    a.stats = { ...as.stats };
    a.initiatorOrderId = as.initiatorOrderId;
    a.initiatorPlaced = as.initiatorPlaced;
    for (const cs of as.clients) {
      const client = need(s.clients.get(cs.clientCode), `client ${cs.clientCode}`);
      const cas = new ClientAssetState(client, a, Object.assign(new ResolvedRules(), cs.rules));
      cas.tradedQty = [cs.tradedQty[0], cs.tradedQty[1]];
      cas.tradedValue = cs.tradedValue;
      cas.tradedTotalQty = cs.tradedTotalQty;
      cas.tradedAmount = cs.tradedAmount;
      cas.tradesMargin = cs.tradesMargin;
      a.clients.set(cs.clientCode, cas);
    }
    s.assets.set(as.assetId, a);
  }
  for (const ms of snapshot.markets) {
    const m = s.markets.get(ms.config.marketId)!;
    for (const assetId of ms.assets) m.assets.push(need(s.assets.get(assetId), `asset ${assetId}`));
  }

  const products = snapshot.products.map((p) => new ProductInfo(...p));
  for (const os of snapshot.orders) {
    const product = need(products[os.product], `product ${os.product}`);
    const a = need(s.assets.get(product.assetId), `asset ${product.assetId}`);
    const cas = need(a.clients.get(os.clientCode), `client ${os.clientCode} on ${a.assetId}`);
    const o = new OrderState().init(
      os.id,
      product,
      os.clientCode,
      os.brokerId,
      os.way,
      os.price,
      os.remaining,
      os.executionType,
      os.validityType,
      os.validity,
      os.createdAt,
      os.priority,
      os.balancingGroupId,
      os.initiator,
      os.market,
      os.powerPerInterval,
      cas,
    );
    o.tradedQty = os.tradedQty;
    o.tradedValue = os.tradedValue;
    o.originalQty = os.originalQty;
    if (o.expiresAt !== os.expiresAt) throw new Error(`engine snapshot: order ${os.id} expiresAt does not match its validity`);
    o.lastModifiedAt = os.lastModifiedAt;
    o.status = os.status;
    o.suspended = os.suspended;
    o.reservedMargin = os.reservedMargin;
    o.reservedValue = os.reservedValue;
    o.reservedContracts = os.reservedContracts;
    o.enteredBy = os.enteredBy ?? null;
    s.orders.set(os.id, o);
  }

  const order = (id: number): OrderState => need(s.orders.get(id), `order ${id}`);
  for (const as of snapshot.assets) {
    const a = s.assets.get(as.assetId)!;
    for (const side of [BID, ASK] as const) {
      const bookSide = a.book.sides[side];
      // array order is worst to best: every level appended is a new best, so the array comes out the same
      for (const [price, ids] of as.book[side]) {
        for (const id of ids) {
          const o = order(id);
          if (o.price !== price || o.side !== side || o.assetId !== a.assetId) throw new Error(`engine snapshot: order ${id} misplaced in the book`);
          bookSide.append(o);
          o.resting = true;
        }
      }
    }
    for (const cs of as.clients) {
      const cas = a.clients.get(cs.clientCode)!;
      for (const side of [BID, ASK] as const) {
        const ids = cs.lists[side];
        // clientLink() prepends: link from the tail to get the same head-first order
        for (let i = ids.length - 1; i >= 0; i--) {
          const o = order(ids[i]!);
          if (o.cas !== cas || o.side !== side) throw new Error(`engine snapshot: order ${o.id} in the wrong client list`);
          clientLink(o);
        }
      }
    }
  }
  for (const os of snapshot.orders) {
    if (os.resting !== s.orders.get(os.id)!.resting) throw new Error(`engine snapshot: order ${os.id} resting flag does not match the books`);
  }

  s.expiries.load(snapshot.expiries);
  for (const assetId of snapshot.deltaTAssets) s.deltaTAssets.add(need(s.assets.get(assetId), `asset ${assetId}`));
  for (const r of snapshot.transactions ?? []) s.transactions.set(r.transactionId, { ...r });
  for (const [x, y] of snapshot.relations ?? []) {
    for (const [from, to] of [[x, y], [y, x]] as const) {
      let partners = s.relations.get(from);
      if (partners === undefined) s.relations.set(from, (partners = new Set()));
      partners.add(to);
    }
  }
  for (const p of snapshot.suspensions ?? []) s.suspensions.of(p.kind).set(p.id, { ...p });
  const changedCommands = snapshot.counters.changedCommands ?? options.changedCommands;
  if (changedCommands === undefined) {
    throw new Error('engine snapshot without counters.changedCommands (written before events carried a seq): import it with the journal seq it was taken at as changedCommands');
  }
  s.setCounters({ ...snapshot.counters, changedCommands });
}
