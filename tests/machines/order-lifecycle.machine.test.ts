/** Order lifecycle: coverage, mirroring the order stream, legacy statuses, the server always wins. */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { Order, OrderUpdate } from '../../protocol/market-data.ts';
import { orderActions, orderLifecycleMachine, orderLifecycleMachineFrom, type OrderLike } from '../../machines/order-lifecycle.machine.ts';
import { coverMachine } from './coverage.ts';
import { wireOrder } from '../helpers/wire-order.ts';

const order = wireOrder;
const legacy = (status: string, overrides: Partial<Order> = {}): OrderLike => ({ ...order(overrides), status });

describe('orderLifecycleMachine coverage', () => {
  it('reaches every state and every transition', () => {
    const statuses = ['created', 'modified', 'traded', 'tradedPartially', 'cancelled', 'total', 'partial', 'bogus'];
    const samples = [1, 2].flatMap((seq) => statuses.map((status) => ({ type: 'ORDER_UPDATE' as const, seq, order: legacy(status) })));
    samples.push({ type: 'ORDER_UPDATE', seq: 3, order: legacy('cancelled', { orderId: 'O2' }) });
    const report = coverMachine(orderLifecycleMachine, { input: { orderId: 'O1' }, samples: { ORDER_UPDATE: samples } });
    expect(report.states).toEqual([
      'orderLifecycle.cancelled',
      'orderLifecycle.created',
      'orderLifecycle.modified',
      'orderLifecycle.traded',
      'orderLifecycle.tradedPartially',
      'orderLifecycle.unknown',
    ]);
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
    expect(report.transitions).toHaveLength(6);
  });
});

describe('mirrors the order stream', () => {
  it('follows the server through created, modified, tradedPartially, traded', () => {
    const updates = new Subject<OrderUpdate>();
    const actor = createActor(orderLifecycleMachineFrom(updates), { input: { orderId: 'O1' } }).start();
    expect(actor.getSnapshot().value).toBe('unknown');
    expect(orderActions(actor.getSnapshot())).toEqual({ canModify: false, canCancel: false, canSuspend: false, canActivate: false });
    updates.next({ seq: 10, order: order() });
    expect(actor.getSnapshot().value).toBe('created');
    expect(orderActions(actor.getSnapshot())).toEqual({ canModify: true, canCancel: true, canSuspend: true, canActivate: false });
    updates.next({ seq: 11, order: order({ status: 'modified', price: 10_100 }) });
    updates.next({ seq: 12, order: order({ orderId: 'O2', status: 'cancelled' }) });
    expect(actor.getSnapshot().value).toBe('modified');
    expect(actor.getSnapshot().context.order?.price).toBe(10_100);
    updates.next({ seq: 13, order: order({ status: 'tradedPartially', tradedQty: 40, suspended: true }) });
    expect(actor.getSnapshot().value).toBe('tradedPartially');
    expect(orderActions(actor.getSnapshot())).toEqual({ canModify: false, canCancel: true, canSuspend: false, canActivate: true });
    updates.next({ seq: 14, order: order({ status: 'traded', tradedQty: 100 }) });
    expect(actor.getSnapshot().value).toBe('traded');
    expect(actor.getSnapshot().hasTag('done')).toBe(true);
    expect(actor.getSnapshot().context.seq).toBe(14);
    actor.stop();
  });

  it('ignores an older or repeated update and an unknown status; never invents one', () => {
    const actor = createActor(orderLifecycleMachine, { input: { orderId: 'O1' } }).start();
    actor.send({ type: 'ORDER_UPDATE', seq: 5, order: order({ status: 'cancelled' }) });
    actor.send({ type: 'ORDER_UPDATE', seq: 4, order: order({ status: 'created' }) });
    actor.send({ type: 'ORDER_UPDATE', seq: 5, order: order({ status: 'modified' }) });
    actor.send({ type: 'ORDER_UPDATE', seq: 6, order: legacy('exploded') });
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(actor.getSnapshot().context.seq).toBe(5);
    // The server's later word wins even when it is unusual.
    actor.send({ type: 'ORDER_UPDATE', seq: 7, order: order({ status: 'modified' }) });
    expect(actor.getSnapshot().value).toBe('modified');
    actor.stop();
  });

  it('maps the legacy set: total -> traded, partial -> tradedPartially', () => {
    const actor = createActor(orderLifecycleMachine, { input: { orderId: 'O1' } }).start();
    actor.send({ type: 'ORDER_UPDATE', seq: 1, order: legacy('partial') });
    expect(actor.getSnapshot().value).toBe('tradedPartially');
    expect(actor.getSnapshot().context.order?.status).toBe('tradedPartially');
    actor.send({ type: 'ORDER_UPDATE', seq: 2, order: legacy('total') });
    expect(actor.getSnapshot().value).toBe('traded');
    expect(actor.getSnapshot().context.order?.status).toBe('traded');
    actor.stop();
  });

  it('starts from a known order when given one', () => {
    const actor = createActor(orderLifecycleMachine, { input: { orderId: 'O1', initial: { seq: 3, order: legacy('partial') } } }).start();
    expect(actor.getSnapshot().value).toBe('tradedPartially');
    expect(actor.getSnapshot().context).toMatchObject({ seq: 3, pendingInitial: null });
    actor.stop();
  });
});
