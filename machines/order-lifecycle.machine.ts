/**
 * One order as the server reports it: unknown until the first update, then created, modified,
 * traded, tradedPartially or cancelled. The machine mirrors the order stream and never invents a
 * status: the server's latest status wins (even out of the usual order), an update older than the
 * one kept (lower seq) or about another order is ignored. Legacy statuses (total, partial...) are
 * mapped with legacyOrderStatusMap.
 */
import { EMPTY, map, type Observable } from 'rxjs';
import { assign, enqueueActions, fromEventObservable, setup, type SnapshotFrom } from 'xstate';
import type { OrderStatus } from '../protocol/enums.ts';
import type { Order, OrderUpdate } from '../protocol/market-data.ts';
import { normalizeOrderStatus, orderUpdates$ } from '../streams/orders.ts';

/** An order as it may arrive: `status` can still be a legacy name. */
export type OrderLike = Omit<Order, 'status'> & { status: string };

export type OrderLifecycleEvent = { type: 'ORDER_UPDATE'; seq: number; order: OrderLike };

export interface OrderLifecycleInput {
  orderId: string;
  /** The order as known already (REST list); applied as the first update. */
  initial?: { seq: number; order: OrderLike } | null;
}

export interface OrderLifecycleContext {
  orderId: string;
  seq: number;
  /** The latest order from the server, status mapped to the current set. */
  order: Order | null;
  pendingInitial: { seq: number; order: OrderLike } | null;
}

const orderUpdates = fromEventObservable<OrderLifecycleEvent, { orderId: string }>(() => EMPTY);

const toStatus = (status: OrderStatus) => ({
  guard: { type: 'hasStatus' as const, params: { status } },
  target: `.${status}`,
  actions: 'recordUpdate' as const,
});

export const orderLifecycleMachine = setup({
  types: {
    context: {} as OrderLifecycleContext,
    events: {} as OrderLifecycleEvent,
    input: {} as OrderLifecycleInput,
  },
  actors: { orderUpdates },
  guards: {
    /** Another order, an older or repeated update, or a status neither set knows. */
    isIgnored: ({ context, event }) =>
      event.order.orderId !== context.orderId || event.seq <= context.seq || normalizeOrderStatus(event.order.status) === null,
    hasStatus: ({ event }, params: { status: OrderStatus }) => normalizeOrderStatus(event.order.status) === params.status,
  },
  actions: {
    recordUpdate: assign(({ event }) => ({
      seq: event.seq,
      order: { ...event.order, status: normalizeOrderStatus(event.order.status)! },
    })),
    applyInitial: enqueueActions(({ context, enqueue }) => {
      const initial = context.pendingInitial;
      if (!initial) return;
      enqueue.assign({ pendingInitial: null });
      enqueue.raise({ type: 'ORDER_UPDATE', seq: initial.seq, order: initial.order });
    }),
  },
}).createMachine({
  id: 'orderLifecycle',
  context: ({ input }) => ({ orderId: input.orderId, seq: -1, order: null, pendingInitial: input.initial ?? null }),
  initial: 'unknown',
  invoke: { id: 'orderUpdates', src: 'orderUpdates', input: ({ context }) => ({ orderId: context.orderId }) },
  on: {
    ORDER_UPDATE: [
      { guard: 'isIgnored' },
      toStatus('created'),
      toStatus('modified'),
      toStatus('traded'),
      toStatus('tradedPartially'),
      toStatus('cancelled'),
    ],
  },
  states: {
    unknown: { entry: 'applyInitial' },
    created: { tags: ['open'] },
    modified: { tags: ['open'] },
    tradedPartially: { tags: ['open'] },
    traded: { tags: ['done'] },
    cancelled: { tags: ['done'] },
  },
});

export type OrderLifecycleSnapshot = SnapshotFrom<typeof orderLifecycleMachine>;

export function orderUpdateToEvent(update: OrderUpdate): OrderLifecycleEvent {
  return { type: 'ORDER_UPDATE', seq: update.seq, order: update.order };
}

/**
 * The machine fed by the user's order stream: pass one shared stream (myOrders$(c).pipe(share()))
 * so that many orders use one STOMP subscription.
 */
export function orderLifecycleMachineFrom(updates: Observable<OrderUpdate>) {
  return orderLifecycleMachine.provide({
    actors: {
      orderUpdates: fromEventObservable<OrderLifecycleEvent, { orderId: string }>(({ input }) => orderUpdates$(updates, input.orderId).pipe(map(orderUpdateToEvent))),
    },
  });
}

export interface OrderActions {
  canModify: boolean;
  canCancel: boolean;
  canSuspend: boolean;
  canActivate: boolean;
}

/** What the order's own state allows (the session phase may forbid more). */
export function orderActions(snapshot: OrderLifecycleSnapshot): OrderActions {
  const open = snapshot.hasTag('open');
  const suspended = snapshot.context.order?.suspended ?? false;
  return { canModify: open && !suspended, canCancel: open, canSuspend: open && !suspended, canActivate: open && suspended };
}
