import {
  apiError,
  completeAddOrder,
  ExchangeError,
  type AddOrderRequest,
  type CancelAllRequest,
  type CancelAllResult,
  type ErrorCode,
  type ModifyOrderRequest,
  type Order,
  type OrderUpdate,
  type SessionPhase,
  type Transaction,
} from '../../protocol/index.ts';
import type { BookLevel } from '../../protocol/market-data.ts';
import { orderViewOf } from '../engine/events.ts';
import type { Actor, EngineResult, OrderEvent, RegisterOffBookTradeCommand, TransactionFacts, TransactionView } from '../engine/types.ts';
import type { UserRecord } from '../store/users.repository.ts';
import type { SequencedResult, Sequencer, UnstampedCommand } from './sequencer.ts';
import { endOfDayInBucharest } from './time.ts';
import { orderToWire, transactionViewToWire } from './wire.ts';

/** An off-book transaction as the post-trade workflows register it (ids as on the wire, times ISO or epoch ms). */
export type OffBookTradeRequest = Omit<RegisterOffBookTradeCommand, 'type' | 'at' | 'parentTransactionId' | 'grandParentTransactionId' | 'transferTimestamp' | 'splitTimestamp'> & {
  parentTransactionId: string | null;
  grandParentTransactionId: string | null;
  transferTimestamp: string | number | null;
  splitTimestamp: string | number | null;
};

/** Per price level of a bilateral asset, what the user's clients may trade with (GET .../tradeable-levels). */
export interface TradeableLevels {
  assetId: string;
  bids: BookLevel[];
  asks: BookLevel[];
}

export interface TradingServiceOptions {
  sequencer: Sequencer;
  /** Asset -> market, for visibility checks. */
  marketOfAsset: ReadonlyMap<string, string>;
  /** Wall clock, for the furthest validity an order may have (default Date.now). */
  now?: () => number;
  /**
   * An order from the read model: a late retry of an add (its key settled, idempotency-keys.ts) whose
   * order has left the engine (traded or cancelled) is answered with it.
   */
  storedOrder?: (orderId: string) => Promise<Order | undefined>;
  /** A transaction from the read model (the engine keeps no book trades). */
  storedTransaction?: (transactionId: string) => Promise<Transaction | undefined>;
  /** Resolves once the read models hold everything journaled so far (false when they could not catch up). */
  readModelsFlushed?: () => Promise<boolean>;
}

/** The furthest a GTD/GTSV order may live: a year and a day, as futures exchanges cap good-till-date. */
export const MAX_VALIDITY_DAYS = 366;
const DAY_MS = 86_400_000;

/** The order calls of the API: who may do what, then the engine's verdict through the sequencer. */
export class TradingService {
  constructor(private readonly options: TradingServiceOptions) {}

  async addOrder(user: UserRecord, request: AddOrderRequest): Promise<OrderUpdate> {
    this.requireWriteScope(user);
    const checked = completeAddOrder(request);
    if (!checked.ok) throw new ExchangeError(checked.error);
    const order = checked.order;
    const marketId = this.options.marketOfAsset.get(order.assetId);
    if (!marketId || !user.marketIds.includes(marketId)) throw new ExchangeError(apiError('ORDER_ASSET_ID_INVALID', { assetId: order.assetId }));
    this.requireClient(user, order.clientCode, order.assetId, order.way);
    const validity = order.validity === null ? null : this.parseValidity(order.validity);
    const command: UnstampedCommand = {
      type: 'addOrder',
      actor: this.actorOf(user),
      assetId: order.assetId,
      clientCode: order.clientCode,
      way: order.way,
      ...(order.price === null ? {} : { price: order.price }),
      qty: order.qty,
      ...(order.noCnt === undefined ? {} : { noCnt: order.noCnt }),
      validityType: order.validityType,
      validity,
      executionType: order.executionType,
    };
    const result = await this.options.sequencer.submit(command, { userId: user.id, idempotencyKey: order.idempotencyKey });
    if (result.result === 'OK' && result.events.length === 0 && result.orderId !== undefined && result.journalSeq !== null) {
      // A settled key: the order as it is now, from the engine or, once it has left it, the read model.
      const live = this.options.sequencer.engine.getOrder(result.orderId);
      const stored = live ? undefined : await this.options.storedOrder?.(String(result.orderId));
      // The engine's state is as of the last record; the read model's may lag, so it carries the add's
      // seq and any queue update the client holds wins over it.
      if (live) return { seq: this.options.sequencer.lastJournalSeq, order: orderToWire(live) };
      if (stored) return { seq: result.journalSeq, order: stored };
    }
    return this.orderOutcome(result);
  }

  async modifyOrder(user: UserRecord, orderId: string, request: ModifyOrderRequest): Promise<OrderUpdate> {
    this.requireWriteScope(user);
    const id = this.ownOrderId(user, orderId);
    this.requireValidityFits(id, request);
    const result = await this.options.sequencer.submit({
      type: 'modifyOrder',
      actor: this.actorOf(user),
      orderId: id,
      ...(request.price === undefined || request.price === null ? {} : { price: request.price }),
      ...(request.qty === undefined ? {} : { qty: request.qty }),
      ...(request.validityType === undefined ? {} : { validityType: request.validityType }),
      ...(request.validity === undefined ? {} : { validity: request.validity === null ? null : this.parseValidity(request.validity) }),
    });
    return this.orderOutcome(result);
  }

  async orderAction(user: UserRecord, orderId: string, action: 'cancelOrder' | 'suspendOrder' | 'activateOrder'): Promise<OrderUpdate> {
    this.requireWriteScope(user);
    const id = this.ownOrderId(user, orderId);
    return this.orderOutcome(await this.options.sequencer.submit({ type: action, actor: this.actorOf(user), orderId: id }));
  }

  /**
   * The kill switch: one engine command (cancelAll, one journal record) cancels every live order of
   * the clients the user acts for, or of the one client / market / asset asked; orders the phase,
   * delta T or the asset keep are answered with their code. Not the operator's tool: an
   * administrator acts for no client here (FORBIDDEN).
   */
  async cancelAll(user: UserRecord, request: CancelAllRequest = {}, idempotencyKey?: string): Promise<CancelAllResult> {
    if (this.isAdmin(user)) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'trading:write' }));
    this.requireWriteScope(user);
    if (request.clientCode !== undefined && !user.clientCodes.includes(request.clientCode)) {
      throw new ExchangeError(apiError('ACCOUNT_CLIENT_FORBIDDEN', { clientCode: request.clientCode }));
    }
    if (request.assetId !== undefined) {
      const marketId = this.options.marketOfAsset.get(request.assetId);
      if (!marketId || !user.marketIds.includes(marketId)) throw new ExchangeError(apiError('ORDER_ASSET_ID_INVALID', { assetId: request.assetId }));
    }
    if (request.marketId !== undefined && !user.marketIds.includes(request.marketId)) {
      throw new ExchangeError(apiError('REQUEST_INVALID', { field: 'marketId', issue: 'unknown' }));
    }
    const clientCodes = request.clientCode !== undefined ? [request.clientCode] : [...user.clientCodes];
    const result = await this.options.sequencer.submit(
      {
        type: 'cancelAll',
        actor: this.actorOf(user),
        clientCodes,
        ...(request.marketId === undefined ? {} : { marketId: request.marketId }),
        ...(request.assetId === undefined ? {} : { assetId: request.assetId }),
      },
      idempotencyKey === undefined ? undefined : { userId: user.id, idempotencyKey },
    );
    if (result.result !== 'OK') throw refusal(result);
    return {
      seq: result.journalSeq ?? this.options.sequencer.lastJournalSeq,
      cancelled: (result.cancelled ?? []).map(String),
      refused: (result.refused ?? []).map((r) => ({ orderId: String(r.orderId), code: r.code, params: r.params })),
    };
  }

  /** The journal seq the engine's state stands at (what liveOrders lists). */
  get journalSeq(): number {
    return this.options.sequencer.lastJournalSeq;
  }

  /** Live orders (on the book or suspended) of the clients the user acts for. */
  liveOrders(user: UserRecord, assetId?: string): Order[] {
    const clients = new Set(user.clientCodes);
    return this.options.sequencer.engine
      .listOrders(assetId ? { assetId } : {})
      .filter((order) => clients.has(order.clientCode) || this.isAdmin(user))
      .map(orderToWire);
  }

  async setPhase(user: UserRecord, marketId: string, phase: SessionPhase | 'suspend' | 'resume', assetId: string | null): Promise<void> {
    if (!this.isAdmin(user)) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'admin' }));
    const command: UnstampedCommand =
      phase === 'suspend' ? { type: 'operatorSuspend', marketId, assetId }
      : phase === 'resume' ? { type: 'operatorResume', marketId, assetId }
      : { type: 'setPhase', marketId, assetId, phase };
    const result = await this.options.sequencer.submit(command);
    if (result.result !== 'OK') throw refusal(result);
  }

  // -----------------------------------------------------------------------------------------------
  // Post-trade: called by the workflow services (server/workflows/), which check who may do what.
  // -----------------------------------------------------------------------------------------------

  /** Registers an off-book transaction (an OTC deal); resolves once journaled, with the transaction. */
  async registerOffBookTrade(request: OffBookTradeRequest): Promise<Transaction> {
    const result = await this.options.sequencer.submit({
      type: 'registerOffBookTrade',
      assetId: request.assetId,
      buyer: request.buyer,
      seller: request.seller,
      price: request.price,
      qty: request.qty,
      origin: request.origin,
      parentTransactionId: idOrNull(request.parentTransactionId),
      grandParentTransactionId: idOrNull(request.grandParentTransactionId),
      transferTimestamp: timeOrNull(request.transferTimestamp),
      splitTimestamp: timeOrNull(request.splitTimestamp),
      externalTransactionId: request.externalTransactionId,
      marginsExposureActive: request.marginsExposureActive,
    });
    if (result.result !== 'OK') throw refusal(result);
    const [registered] = offBookOf(result);
    if (!registered) throw new ExchangeError(apiError('UNKNOWN_ERROR'));
    return transactionViewToWire(registered);
  }

  /**
   * Transfers (novates) a transaction to the central counterparty's asset `targetAssetId`: the
   * transferred child, and the remainder left in the original asset when `qty` is less than its quantity.
   */
  async novateTransaction(command: { transactionId: string; qty: number; targetAssetId: string; known?: Transaction | null }): Promise<{ transferred: Transaction; remainder: Transaction | null }> {
    const transactionId = this.transactionIdOf(command.transactionId);
    const original = await this.factsOf(transactionId, command.known);
    const result = await this.options.sequencer.submit({ type: 'novateTransaction', transactionId, qty: command.qty, targetAssetId: command.targetAssetId, original });
    if (result.result !== 'OK') throw refusal(result);
    const [transferred, remainder] = offBookOf(result);
    if (!transferred) throw new ExchangeError(apiError('UNKNOWN_ERROR'));
    return { transferred: transactionViewToWire(transferred), remainder: remainder ? transactionViewToWire(remainder) : null };
  }

  /** Switches whether clearing counts the transaction's margins; resolves with the transaction as it then is. */
  async setTransactionMarginsExposure(command: { transactionId: string; active: boolean; known?: Transaction | null }): Promise<Transaction> {
    const transactionId = this.transactionIdOf(command.transactionId);
    const original = await this.factsOf(transactionId, command.known);
    const result = await this.options.sequencer.submit({ type: 'setTransactionMarginsExposure', transactionId, active: command.active, original });
    if (result.result !== 'OK') throw refusal(result);
    // The caller read it already (inside a database transaction the read models may wait on).
    const held = this.options.sequencer.engine.getTransaction(transactionId);
    if (command.known) return { ...command.known, marginsExposureActive: command.active };
    const transaction = held ? transactionViewToWire(held) : await this.transaction(command.transactionId);
    if (!transaction) throw new ExchangeError(apiError('TRANSACTION_NOT_FOUND', { transactionId: command.transactionId }));
    return { ...transaction, marginsExposureActive: command.active };
  }

  /**
   * A transaction with its participants, asset, quantity, session date and origin: the read model's
   * row (after the read models have caught up with the journal) with the engine's post-trade state
   * over it; undefined when unknown.
   */
  async transaction(transactionId: string): Promise<Transaction | undefined> {
    const id = Number(transactionId);
    if (!/^\d{1,15}$/.test(transactionId) || !Number.isSafeInteger(id)) return undefined;
    await this.options.readModelsFlushed?.();
    const stored = await this.options.storedTransaction?.(String(id));
    const held = this.options.sequencer.engine.getTransaction(id);
    if (stored && held) return { ...stored, origin: held.origin, status: held.status, marginsExposureActive: held.marginsExposureActive };
    if (stored) return { origin: 'book', status: 'active', ...stored };
    return held ? transactionViewToWire(held) : undefined;
  }

  /** Makes (active) or ends a whitelist relation between two clients; matters on bilateral assets. */
  async setWhitelistRelation(command: { clientCode: string; partnerCode: string; active: boolean }): Promise<void> {
    const result = await this.options.sequencer.submit({ type: 'setWhitelistRelation', clientCode: command.clientCode, partnerCode: command.partnerCode, active: command.active });
    if (result.result !== 'OK') throw refusal(result);
  }

  /** Per level of a bilateral asset's book, the quantity the clients may trade with (their partners' orders). */
  tradeableLevels(assetId: string, clientCodes: readonly string[]): TradeableLevels {
    const engine = this.options.sequencer.engine;
    const bilateral = engine.isBilateral(assetId);
    if (bilateral === undefined) throw new ExchangeError(apiError('ASSET_NOT_FOUND', { assetId }));
    if (!bilateral) throw new ExchangeError(apiError('ASSET_NOT_BILATERAL', { assetId }));
    return { assetId, ...engine.tradeableLevels(assetId, clientCodes)! };
  }

  private transactionIdOf(transactionId: string): number {
    const id = Number(transactionId);
    if (!/^\d{1,15}$/.test(String(transactionId)) || !Number.isSafeInteger(id) || id <= 0) throw new ExchangeError(apiError('TRANSACTION_NOT_FOUND', { transactionId: String(transactionId) }));
    return id;
  }

  /**
   * What the engine needs of a book transaction it does not hold (null when it holds it or none is
   * stored). `known`: the caller's read of it (a workflow reads it in its own database transaction).
   */
  private async factsOf(transactionId: number, known?: Transaction | null): Promise<TransactionFacts | null> {
    if (this.options.sequencer.engine.getTransaction(transactionId)) return null;
    const t = known ?? (await this.transaction(String(transactionId)));
    if (!t) return null;
    return {
      transactionId,
      assetId: t.assetId,
      buyer: t.buyer,
      seller: t.seller,
      price: t.price,
      qty: t.qty,
      txDate: t.txDate,
      timestamp: Date.parse(t.timestamp),
      origin: t.origin ?? 'book',
      parentTransactionId: idOrNull(t.parentTransactionId),
      grandParentTransactionId: idOrNull(t.grandParentTransactionId),
      marginsExposureActive: t.marginsExposureActive,
      // A book trade's orders and aggressor, so the engine's record (and the update pushed to the parties) is whole.
      ...((t.origin ?? 'book') === 'book' && t.buyOrderId !== '' && t.sellOrderId !== ''
        ? { buyOrderId: idOrNull(t.buyOrderId), sellOrderId: idOrNull(t.sellOrderId), aggressor: t.aggressor }
        : {}),
    };
  }

  /**
   * The order and the journal seq its state stands at, as the private order queue sends them, so the
   * client keeps whichever of reply and queue update is newer.
   */
  private orderOutcome(result: SequencedResult): OrderUpdate {
    if (result.result !== 'OK') throw refusal(result);
    const orderId = result.orderId;
    // The order's last event holds its state after this command (also when it has left the engine,
    // fully traded or cancelled); it skips the queue-position walk of engine.getOrder.
    let last: OrderEvent | undefined;
    for (const event of result.events) if (event.type === 'order' && event.orderId === orderId) last = event;
    if (last && result.journalSeq !== null) return { seq: result.journalSeq, order: orderToWire(orderViewOf(last)) };
    // A result still syncing when a snapshot was taken, or a command that changed nothing: the order as it is now.
    const { sequencer } = this.options;
    const view = orderId === undefined ? undefined : sequencer.engine.getOrder(orderId);
    if (!view) throw new ExchangeError(apiError('UNKNOWN_ERROR'));
    return { seq: sequencer.lastJournalSeq, order: orderToWire(view) };
  }

  /** A modify may send a validity instant only when the order's (new or current) type has one. */
  private requireValidityFits(orderId: number, request: ModifyOrderRequest): void {
    if (request.validity === undefined || request.validity === null) return;
    const validityType = request.validityType ?? this.options.sequencer.engine.getOrder(orderId, { position: false })?.validityType;
    if (validityType === 'day' || validityType === 'GTC') throw new ExchangeError(apiError('ORDER_VALIDITY_NOT_EXPECTED', { validityType }));
  }

  /** GTD may give a date (valid to the end of that day in Bucharest) or an instant; GTSV an instant. Not beyond MAX_VALIDITY_DAYS. */
  private parseValidity(text: string): number {
    const asDate = /^\d{4}-\d{2}-\d{2}$/.test(text) ? endOfDayInBucharest(text) : Date.parse(text);
    if (!Number.isFinite(asDate)) throw new ExchangeError(apiError('REQUEST_INVALID', { field: 'validity', issue: 'invalid_date' }));
    const max = (this.options.now ?? Date.now)() + MAX_VALIDITY_DAYS * DAY_MS;
    if (asDate > max) throw new ExchangeError(apiError('ORDER_VALIDITY_TOO_FAR', { max: new Date(max).toISOString().slice(0, 10) }));
    return asDate;
  }

  private ownOrderId(user: UserRecord, orderId: string): number {
    const id = Number(orderId);
    const engine = this.options.sequencer.engine;
    const order = Number.isSafeInteger(id) ? engine.getOrder(id, { position: false }) : undefined;
    // Someone else's order is reported as not found, another agency's too: its existence is not the
    // caller's business (a 403 would tell that it exists).
    const visible =
      order !== undefined &&
      (this.isAdmin(user) || user.clientCodes.includes(order.clientCode) || (user.roles.includes('agency') && user.agencyId !== null && engine.getClientAgency(order.clientCode) === user.agencyId));
    if (!visible) {
      throw new ExchangeError(apiError('ORDER_NOT_FOUND', { orderId }));
    }
    return id;
  }

  private requireClient(user: UserRecord, clientCode: string, assetId: string, way: string): void {
    // Agencies are checked by the engine against the client's agency (ORDER_AGENCY_CLIENT_FORBIDDEN).
    if (user.roles.includes('agency') || this.isAdmin(user)) return;
    if (!user.clientCodes.includes(clientCode)) throw new ExchangeError(apiError('ORDER_NO_RIGHT', { clientCode, assetId, way }));
  }

  private requireWriteScope(user: UserRecord): void {
    if (!user.scopes.includes('trading:write') && !this.isAdmin(user)) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'trading:write' }));
  }

  private actorOf(user: UserRecord): Actor {
    return { userId: user.id, brokerId: user.brokerId, agencyId: user.roles.includes('agency') ? user.agencyId : null };
  }

  private isAdmin(user: UserRecord): boolean {
    return user.roles.includes('administrator');
  }
}

function offBookOf(result: EngineResult): TransactionView[] {
  const out: TransactionView[] = [];
  for (const event of result.events) if (event.type === 'offBookTrade') out.push(event.transaction);
  return out;
}

function idOrNull(id: string | null): number | null {
  if (id === null) return null;
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) throw new ExchangeError(apiError('REQUEST_INVALID', { field: 'transactionId', issue: 'invalid' }));
  return n;
}

function timeOrNull(time: string | number | null): number | null {
  if (time === null) return null;
  const ms = typeof time === 'number' ? time : Date.parse(time);
  if (!Number.isFinite(ms)) throw new ExchangeError(apiError('REQUEST_INVALID', { field: 'timestamp', issue: 'invalid_date' }));
  return ms;
}

function refusal(result: EngineResult): ExchangeError {
  return new ExchangeError({ code: result.result as ErrorCode, params: result.params ?? {} } as never);
}

