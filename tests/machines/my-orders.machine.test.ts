/** My orders: the queue and the replies through the order-lifecycle machine, the higher seq winning. */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { KEEP_FINISHED_ORDERS, myOrdersMachine, myOrdersMachineFrom, selectOpenOrders, selectOrder } from '../../machines/my-orders.machine.ts';
import type { OrderUpdate } from '../../protocol/market-data.ts';
import { wireOrder as order } from '../helpers/wire-order.ts';
import { coverMachine } from './coverage.ts';

const update = (seq: number, overrides: Parameters<typeof order>[0] = {}) => ({ type: 'ORDER_UPDATE' as const, seq, order: order(overrides) });

function started() {
  return createActor(myOrdersMachine).start();
}

describe('myOrdersMachine coverage', () => {
  it('reaches every state and every transition', () => {
    const report = coverMachine(myOrdersMachine, { samples: { ORDER_UPDATE: [update(1), update(1), update(2, { status: 'traded' })] } });
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
    expect(report.transitions).toHaveLength(1);
  });
});

describe('an order that trades on entry never shows as open', () => {
  it('the reply (traded) first, then an older queue update (created): stays traded', () => {
    const actor = started();
    actor.send(update(7, { status: 'traded', tradedQty: 100 }));
    actor.send(update(6, { status: 'created' }));
    expect(selectOpenOrders(actor.getSnapshot())).toEqual([]);
    expect(selectOrder(actor.getSnapshot(), 'O1')?.value).toBe('traded');
  });

  it('the queue (traded) first, then the reply with the same seq: one state, traded', () => {
    const actor = started();
    actor.send(update(7, { status: 'traded', tradedQty: 100 }));
    const before = actor.getSnapshot().context.orders;
    actor.send(update(7, { status: 'traded', tradedQty: 100 }));
    expect(actor.getSnapshot().context.orders).toBe(before);
    expect(selectOpenOrders(actor.getSnapshot())).toEqual([]);
  });

  it('a partial fill on entry is open as tradedPartially with its actions; its end closes it', () => {
    const actor = started();
    actor.send(update(3, { status: 'tradedPartially', tradedQty: 40 }));
    const [open] = selectOpenOrders(actor.getSnapshot());
    expect(open).toMatchObject({ seq: 3, order: { status: 'tradedPartially', tradedQty: 40 }, actions: { canModify: true, canCancel: true, canSuspend: true, canActivate: false } });
    actor.send(update(9, { status: 'traded', tradedQty: 100 }));
    expect(selectOpenOrders(actor.getSnapshot())).toEqual([]);
    // A stale copy of the partial fill cannot reopen it.
    actor.send(update(3, { status: 'tradedPartially', tradedQty: 40 }));
    expect(selectOpenOrders(actor.getSnapshot())).toEqual([]);
  });

  it('keeps orders apart and ignores statuses it does not know', () => {
    const actor = started();
    actor.send(update(1, { orderId: 'A' }));
    actor.send(update(2, { orderId: 'B', suspended: true }));
    actor.send({ type: 'ORDER_UPDATE', seq: 3, order: { ...order({ orderId: 'A' }), status: 'bogus' } });
    const open = selectOpenOrders(actor.getSnapshot());
    expect(open.map((entry) => [entry.order.orderId, entry.seq, entry.actions.canActivate])).toEqual([
      ['A', 1, false],
      ['B', 2, true],
    ]);
  });
});

describe('fed by a stream', () => {
  it('takes the updates of the stream it is provided with', () => {
    const updates = new Subject<OrderUpdate>();
    const actor = createActor(myOrdersMachineFrom(updates)).start();
    updates.next({ seq: 1, order: order() });
    updates.next({ seq: 2, order: order({ status: 'cancelled' }) });
    updates.next({ seq: 3, order: order({ orderId: 'O2' }) });
    expect(selectOpenOrders(actor.getSnapshot()).map((entry) => entry.order.orderId)).toEqual(['O2']);
    actor.stop();
  });

  it(`forgets the oldest finished orders beyond ${KEEP_FINISHED_ORDERS}, never an open one`, () => {
    const actor = started();
    actor.send(update(1, { orderId: 'open' }));
    for (let i = 0; i < KEEP_FINISHED_ORDERS + 5; i++) actor.send(update(2 + i, { orderId: `done-${i}`, status: 'cancelled' }));
    const { orders, finished } = actor.getSnapshot().context;
    expect(finished).toHaveLength(KEEP_FINISHED_ORDERS);
    expect(orders.has('done-0')).toBe(false);
    expect(orders.has(`done-${KEEP_FINISHED_ORDERS + 4}`)).toBe(true);
    expect(selectOpenOrders(actor.getSnapshot()).map((entry) => entry.order.orderId)).toEqual(['open']);
  });
});
