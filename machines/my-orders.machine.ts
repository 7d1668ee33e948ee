/**
 * The user's orders: one order-lifecycle state per order id, fed by the private order queue and by the
 * replies to the user's own order calls. Each update goes through the order-lifecycle machine (a pure
 * transition), so the rules are that machine's: the higher seq wins whichever way the reply and the
 * queue arrive, and a status is never invented. An order that trades on entry is traded here as soon
 * as either the reply or the queue says so.
 */
import { EMPTY, map, type Observable } from 'rxjs';
import { enqueueActions, fromEventObservable, initialTransition, setup, transition, type SnapshotFrom } from 'xstate';
import type { Order, OrderUpdate } from '../protocol/market-data.ts';
import { orderActions, orderLifecycleMachine, orderUpdateToEvent, type OrderActions, type OrderLifecycleEvent, type OrderLifecycleSnapshot } from './order-lifecycle.machine.ts';

export type MyOrdersEvent = OrderLifecycleEvent;

export interface MyOrdersContext {
  /** Every order seen, by id: its lifecycle state (open or done). */
  orders: ReadonlyMap<string, OrderLifecycleSnapshot>;
  /** The ids of finished orders, oldest first, to forget the oldest beyond `keepFinished`. */
  finished: readonly string[];
}

/**
 * Finished orders are kept so that a late, older update cannot bring one back as open; only the newest
 * this many are kept (a late update is seconds old, never thousands of orders old).
 */
export const KEEP_FINISHED_ORDERS = 500;

const orderFeed = fromEventObservable<MyOrdersEvent, Record<string, never>>(() => EMPTY);

function lifecycleOf(orders: ReadonlyMap<string, OrderLifecycleSnapshot>, orderId: string): OrderLifecycleSnapshot {
  return orders.get(orderId) ?? initialTransition(orderLifecycleMachine, { orderId })[0];
}

export const myOrdersMachine = setup({
  types: {
    context: {} as MyOrdersContext,
    events: {} as MyOrdersEvent,
  },
  actors: { orderFeed },
  actions: {
    /** Keeps the lifecycle's next state when the update changed it (not older, not a repeat, a known status). */
    applyUpdate: enqueueActions(({ context, event, enqueue }) => {
      const before = lifecycleOf(context.orders, event.order.orderId);
      const [after] = transition(orderLifecycleMachine, before, event);
      if (after.context.seq === before.context.seq) return;
      const orders = new Map(context.orders).set(event.order.orderId, after);
      let finished = context.finished;
      if (after.hasTag('done') && !before.hasTag('done')) {
        finished = [...finished, event.order.orderId];
        while (finished.length > KEEP_FINISHED_ORDERS) {
          orders.delete(finished[0]!);
          finished = finished.slice(1);
        }
      }
      enqueue.assign({ orders, finished });
    }),
  },
}).createMachine({
  id: 'myOrders',
  context: { orders: new Map(), finished: [] },
  invoke: { id: 'orderFeed', src: 'orderFeed', input: {} },
  on: {
    ORDER_UPDATE: { actions: 'applyUpdate' },
  },
});

export type MyOrdersSnapshot = SnapshotFrom<typeof myOrdersMachine>;

/** The machine fed by the user's order updates (the queue merged with the replies). */
export function myOrdersMachineFrom(updates: Observable<OrderUpdate>) {
  return myOrdersMachine.provide({
    actors: { orderFeed: fromEventObservable<MyOrdersEvent, Record<string, never>>(() => updates.pipe(map(orderUpdateToEvent))) },
  });
}

/** An open order (on the book or suspended) with what its own state allows. */
export interface OpenOrder {
  order: Order;
  seq: number;
  actions: OrderActions;
}

/** The open orders, in the order they were first seen. */
export function selectOpenOrders(snapshot: MyOrdersSnapshot): OpenOrder[] {
  const open: OpenOrder[] = [];
  for (const lifecycle of snapshot.context.orders.values()) {
    const { order, seq } = lifecycle.context;
    if (order && lifecycle.hasTag('open')) open.push({ order, seq, actions: orderActions(lifecycle) });
  }
  return open;
}

/** One order's lifecycle state, or undefined when the order has not been seen. */
export function selectOrder(snapshot: MyOrdersSnapshot, orderId: string): OrderLifecycleSnapshot | undefined {
  return snapshot.context.orders.get(orderId);
}
