import {
  apiError,
  completeAddOrder,
  ExchangeError,
  type AddOrderRequest,
  type ErrorCode,
  type ModifyOrderRequest,
  type Order,
  type OrderUpdate,
  type SessionPhase,
} from '../../protocol/index.ts';
import { orderViewOf } from '../engine/events.ts';
import type { Actor, EngineResult, OrderEvent } from '../engine/types.ts';
import type { UserRecord } from '../store/users.repository.ts';
import type { SequencedResult, Sequencer, UnstampedCommand } from './sequencer.ts';
import { endOfDayInBucharest } from './time.ts';
import { orderToWire } from './wire.ts';

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

function refusal(result: EngineResult): ExchangeError {
  return new ExchangeError({ code: result.result as ErrorCode, params: result.params ?? {} } as never);
}

