/** Order ticket: coverage, SPEC §5 validation keys, phase blocks, submit/accept/refuse, idempotency keys. */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Order } from '../../protocol/market-data.ts';
import type { ClientMemory } from '../../machines/client-memory.ts';
import {
  initialClientCode,
  orderTicketMachine,
  orderTicketMachineWithApi,
  selectMoney,
  validateOrderForm,
  validationKeys,
  type OrderForm,
  type OrderSubmission,
  type OrderTicketInput,
  type TicketAsset,
} from '../../machines/order-ticket.machine.ts';
import type { PhasePermissions } from '../../machines/session-phase.machine.ts';
import { ApiCallError, createOrdersApi } from '../../streams/api.ts';
import { coverMachine } from './coverage.ts';
import { wireOrder } from '../helpers/wire-order.ts';

const asset: TicketAsset = { assetId: 'A1', priceDecimals: 2, quantityDecimals: 3, priceStep: 5, quantityStep: 1_000, minQuantity: 1_000, maxQuantity: 500_000, currency: 'RON', unit: 'MWh' };
const validForm: OrderForm = { way: 'bid', price: '123.45', qty: '10', validityType: 'day', validity: '', executionType: 'normal', clientCode: 'C1' };

const all = (phase: PhasePermissions['phase'], allowed: boolean): PhasePermissions => ({
  phase,
  canPlace: allowed,
  canModify: allowed,
  canChangePrice: allowed,
  canCancel: allowed,
  canSuspend: allowed,
  canActivate: allowed,
});
const closing: PhasePermissions = { phase: 'closing', canPlace: false, canModify: true, canChangePrice: false, canCancel: true, canSuspend: true, canActivate: false };

function order(overrides: Partial<Order> = {}): Order {
  return wireOrder({ orderId: 'O7', way: 'ask', price: 12_345, qty: 10_000, noCnt: 10, totalQty: 10_000, offeredQty: 10_000, offeredPrice: 12_345, validityType: 'GTC', ...overrides });
}

function ticket(input: Partial<OrderTicketInput> & Pick<OrderTicketInput, 'mode'>, answers: Array<unknown> = []) {
  const submissions: OrderSubmission[] = [];
  const machine = orderTicketMachine.provide({
    actors: {
      submitOrder: fromPromise<unknown, OrderSubmission>(async ({ input: submission }) => {
        submissions.push(submission);
        const answer = answers.shift();
        if (answer instanceof Error) throw answer;
        return answer ?? { ok: true };
      }),
    },
  });
  const actor = createActor(machine, { input: { asset, keyPrefix: 'k', ...input } }).start();
  return { actor, submissions };
}

describe('orderTicketMachine coverage', () => {
  it('reaches every state and every transition', () => {
    const forms: Array<Partial<OrderForm>> = [validForm, { ...validForm, price: '' }, { ...validForm, qty: 'x' }];
    const report = coverMachine(orderTicketMachine, {
      input: { mode: 'add', asset, keyPrefix: 'k' },
      samples: {
        CHANGE: forms.map((values) => ({ type: 'CHANGE', values })),
        PERMISSIONS: [
          { type: 'PERMISSIONS', permissions: closing },
          { type: 'PERMISSIONS', permissions: null },
        ],
        'xstate.done.actor.submitOrder': [{ type: 'xstate.done.actor.submitOrder', output: { orderId: 'O9' } }],
        'xstate.error.actor.submitOrder': [{ type: 'xstate.error.actor.submitOrder', error: { code: 'ORDER_INSUFFICIENT_FUNDS', params: { amountToDeposit: '10.00', currency: 'RON' } } }],
        'xstate.done.actor.funds': [{ type: 'xstate.done.actor.funds', output: { clientCode: 'C1', amount: 50_000 } }],
        'xstate.error.actor.funds': [{ type: 'xstate.error.actor.funds', error: new Error('offline') }],
      } as never,
      // The idempotency key counts submissions: leave it out of the state identity.
      serializeState: (s) => {
        const { keySeq: _k, submission: _s, ...rest } = s.context as Record<string, unknown>;
        return JSON.stringify({ value: s.value, context: rest });
      },
    });
    expect(report.states).toEqual(['orderTicket.accepted', 'orderTicket.editing', 'orderTicket.refused', 'orderTicket.submitting']);
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
    expect(report.paths).toContainEqual(['CHANGE', 'SUBMIT', 'xstate.error.actor.submitOrder']);
  });
});

describe('client-side validation', () => {
  const errorsOf = (values: Partial<OrderForm>, mode: 'add' | 'modify' = 'add', o: Order | null = null) => validateOrderForm(mode, { ...validForm, ...values }, asset, o).errors;
  const required = { key: 'validation.fieldRequired' };
  const priceStep = { key: 'validation.priceStep', params: { step: '0.05', currency: 'RON' } };
  const quantityRange = { key: 'validation.quantityRange', params: { min: '1.000', max: '500.000', unit: 'MWh' } };
  const quantityStep = { key: 'validation.quantityStep', params: { step: '1.000', unit: 'MWh' } };

  it('keeps the SPEC §5 messages for missing fields', () => {
    expect(errorsOf({})).toEqual({});
    expect(errorsOf({ price: '' })).toEqual({ price: { key: validationKeys.priceRequired } });
    expect(errorsOf({ price: '  ' })).toEqual({ price: { key: 'validation.priceRequired' } });
    expect(errorsOf({ qty: '' })).toEqual({ qty: required });
    expect(errorsOf({ way: '' })).toEqual({ way: required });
    expect(errorsOf({ clientCode: ' ' })).toEqual({ clientCode: required });
    expect(errorsOf({ validityType: '' })).toEqual({ validityType: required });
    expect(errorsOf({ validityType: 'GTD', validity: '' })).toEqual({ validity: required });
    expect(errorsOf({ validityType: 'GTSV', validity: '2026-01-02T12:00' })).toEqual({});
    // A market order (IOC/FOK) may go without a price.
    expect(errorsOf({ price: '', executionType: 'IOC' })).toEqual({});
  });

  it('states the price rule with its step and currency', () => {
    for (const price of ['abc', '12.345', '123.42', '1e3']) expect(errorsOf({ price }), price).toEqual({ price: priceStep });
    for (const price of ['0', '-5.00']) expect(errorsOf({ price }), price).toEqual({ price: { key: 'validation.priceMinimum', params: { min: '0.05', currency: 'RON' } } });
    expect(errorsOf({ price: '1234567890123' })).toEqual({ price: { key: 'validation.priceTooManyDigits', params: { maxDigits: 12 } } });
    expect(errorsOf({ price: '123,45' })).toEqual({});
  });

  it('states the quantity rule with its bounds or step and unit', () => {
    for (const qty of ['x', '0', '-1', '0.5', '1000']) expect(errorsOf({ qty }), qty).toEqual({ qty: quantityRange });
    for (const qty of ['10.0005', '10.5']) expect(errorsOf({ qty }), qty).toEqual({ qty: quantityStep });
    expect(errorsOf({ qty: '500' })).toEqual({});
    // Without a maximum the rule is the minimum alone (one step when the asset has no minimum either).
    const open: TicketAsset = { ...asset, maxQuantity: undefined, minQuantity: undefined };
    expect(validateOrderForm('add', { ...validForm, qty: '0' }, open).errors).toEqual({ qty: { key: 'validation.quantityMinimum', params: { min: '1.000', unit: 'MWh' } } });
  });

  it('every key it yields is one of validationKeys', () => {
    expect(new Set(Object.values(validationKeys))).toEqual(
      new Set([
        'validation.fieldRequired',
        'validation.priceRequired',
        'validation.priceStep',
        'validation.priceMinimum',
        'validation.priceTooManyDigits',
        'validation.quantityStep',
        'validation.quantityRange',
        'validation.quantityMinimum',
        'validation.contractCount',
      ]),
    );
  });

  it('contract-count assets take a whole number of contracts', () => {
    const byContracts = { ...asset, quantityInput: 'noCnt' as const };
    expect(validateOrderForm('add', { ...validForm, qty: '3' }, byContracts).errors).toEqual({});
    for (const qty of ['2.5', '0']) expect(validateOrderForm('add', { ...validForm, qty }, byContracts).errors, qty).toEqual({ qty: { key: 'validation.contractCount' } });
  });

  it('modify keeps a market order without price, and needs one for a limit order', () => {
    expect(errorsOf({ price: '' }, 'modify', order())).toEqual({ price: { key: 'validation.priceRequired' } });
    expect(errorsOf({ price: '' }, 'modify', order({ price: null, executionType: 'IOC' }))).toEqual({});
  });
});

describe('the client of a new order', () => {
  function memory(initial: Record<string, string> = {}): ClientMemory & { saved: Record<string, string> } {
    const saved = { ...initial };
    return { saved, recall: (assetId) => saved[assetId] ?? null, remember: (assetId, clientCode) => void (saved[assetId] = clientCode) };
  }

  it('starts with the one asked for, else the last one used on the asset, else the only one', () => {
    expect(initialClientCode('C2', ['C1', 'C2'], 'C1')).toBe('C2');
    expect(initialClientCode(undefined, ['C1', 'C2'], 'C2')).toBe('C2');
    expect(initialClientCode('', ['C1', 'C2'], 'C2')).toBe('C2');
    // A client the user no longer acts for is not offered again.
    expect(initialClientCode(undefined, ['C1', 'C2'], 'C9')).toBe('');
    expect(initialClientCode(undefined, ['C1'], null)).toBe('C1');
    expect(initialClientCode(undefined, ['C1', 'C2'], null)).toBe('');
  });

  it('the machine decides it from its input and offers the user\'s clients', () => {
    const { actor } = ticket({ mode: 'add', clientCodes: ['C1', 'C2'], clientMemory: memory({ A1: 'C2', B7: 'C1' }) });
    expect(actor.getSnapshot().context.form.clientCode).toBe('C2');
    expect(actor.getSnapshot().context.clientCodes).toEqual(['C1', 'C2']);
    actor.stop();
  });

  it('remembers the client of an accepted order for its asset, not of a refused one', async () => {
    const remembered = memory({ A1: 'C2' });
    const refusal = new ApiCallError('ORDER_CLIENT_NOT_ACTIVE', { clientCode: 'C1' }, 422);
    const { actor } = ticket({ mode: 'add', clientCodes: ['C1', 'C2'], clientMemory: remembered, defaults: { ...validForm, clientCode: 'C1' } }, [refusal, { orderId: 'O9' }]);
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('refused'));
    expect(remembered.saved).toEqual({ A1: 'C2' });
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (s) => s.matches('accepted'));
    expect(remembered.saved).toEqual({ A1: 'C1' });
    actor.stop();
  });

  it('a modify neither reads nor changes the memory', async () => {
    const remembered = memory({ A1: 'C2' });
    const { actor } = ticket({ mode: 'modify', order: order({ clientCode: 'C1' }), clientCodes: ['C1', 'C2'], clientMemory: remembered }, [{ orderId: 'O7' }]);
    expect(actor.getSnapshot().context.form.clientCode).toBe('C1');
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('accepted'));
    expect(remembered.saved).toEqual({ A1: 'C2' });
    actor.stop();
  });
});

describe('add', () => {
  it('shows the errors, then sends the exact request in minor units and is accepted; NEW starts another', async () => {
    const { actor, submissions } = ticket({ mode: 'add', defaults: { way: 'bid', clientCode: 'C1' } }, [{ orderId: 'O9' }]);
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors).toEqual({ price: { key: 'validation.priceRequired' }, qty: { key: 'validation.fieldRequired' }, validityType: { key: 'validation.fieldRequired' } });
    actor.send({ type: 'CHANGE', values: { price: '99.95' } });
    expect(actor.getSnapshot().context.errors).toEqual({ qty: { key: 'validation.fieldRequired' }, validityType: { key: 'validation.fieldRequired' } });
    actor.send({ type: 'CHANGE', values: { qty: '3', validityType: 'GTD', validity: '2026-01-10' } });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('submitting');
    await waitFor(actor, (s) => s.matches('accepted'));
    expect(submissions).toEqual([
      {
        mode: 'add',
        request: { idempotencyKey: 'k-1', assetId: 'A1', way: 'bid', price: 9_995, qty: 3_000, noCnt: 3_000, validityType: 'GTD', validity: '2026-01-10', executionType: 'normal', clientCode: 'C1' },
      },
    ]);
    expect(actor.getSnapshot().context.result).toEqual({ orderId: 'O9' });
    actor.send({ type: 'NEW' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.form).toMatchObject({ way: 'bid', clientCode: 'C1', validityType: 'GTD', price: '', qty: '' });
    actor.stop();
  });

  it('keeps the server refusal with its params; RETRY reuses the idempotency key, a change makes a new one', async () => {
    const funds = new ApiCallError('ORDER_INSUFFICIENT_FUNDS', { amountToDeposit: '1250.00', currency: 'RON' }, 422);
    const { actor, submissions } = ticket({ mode: 'add', defaults: validForm }, [new ApiCallError('CLIENT_NETWORK_ERROR'), funds, { orderId: 'O1' }]);
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('refused'));
    expect(actor.getSnapshot().context.refusal).toEqual({ code: 'CLIENT_NETWORK_ERROR', params: {} });
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (s) => s.matches('refused') && s.context.refusal?.code === 'ORDER_INSUFFICIENT_FUNDS');
    expect(actor.getSnapshot().context.refusal).toEqual({ code: 'ORDER_INSUFFICIENT_FUNDS', params: { amountToDeposit: '1250.00', currency: 'RON' } });
    actor.send({ type: 'CHANGE', values: { qty: '1' } });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.refusal).toBeNull();
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('accepted'));
    const keys = submissions.map((s) => (s.mode === 'add' ? s.request.idempotencyKey : ''));
    expect(keys).toEqual(['k-1', 'k-1', 'k-2']);
    actor.stop();
  });

  it('is blocked by the phase with the code the server would give, and goes once the phase allows', async () => {
    const { actor, submissions } = ticket({ mode: 'add', defaults: validForm, permissions: closing });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.blocked).toEqual({ code: 'SESSION_PHASE_FORBIDS', params: { phase: 'closing' } });
    actor.send({ type: 'PERMISSIONS', permissions: all('suspended', false) });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.blocked).toEqual({ code: 'SESSION_SUSPENDED', params: {} });
    actor.send({ type: 'PERMISSIONS', permissions: all('opening', true) });
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('accepted'));
    expect(submissions).toHaveLength(1);
    actor.stop();
  });
});

describe('modify, cancel, suspend, activate', () => {
  it('modify starts from the order, refuses a price change in closing but lets a quantity change through', async () => {
    const { actor, submissions } = ticket({ mode: 'modify', order: order(), permissions: closing });
    expect(actor.getSnapshot().context.form).toMatchObject({ way: 'ask', price: '123.45', qty: '10.000', validityType: 'GTC' });
    actor.send({ type: 'CHANGE', values: { price: '124.00' } });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.blocked).toEqual({ code: 'SESSION_CLOSING_NO_PRICE_CHANGE', params: {} });
    actor.send({ type: 'CHANGE', values: { price: '123.45', qty: '8' } });
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('accepted'));
    expect(submissions).toEqual([{ mode: 'modify', orderId: 'O7', request: { price: 12_345, qty: 8_000, validityType: 'GTC', validity: null } }]);
    actor.send({ type: 'NEW' });
    expect(actor.getSnapshot().value).toBe('accepted');
    actor.stop();
  });

  it.each(['cancel', 'suspend', 'activate'] as const)('%s sends the order id', async (mode) => {
    const { actor, submissions } = ticket({ mode, order: order({ suspended: mode === 'activate' }) });
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('accepted'));
    expect(submissions).toEqual([{ mode, orderId: 'O7' }]);
    actor.stop();
  });

  it('cancel is refused in a suspended session without calling the server', () => {
    const { actor, submissions } = ticket({ mode: 'cancel', order: order(), permissions: all('suspended', false) });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.blocked).toEqual({ code: 'SESSION_SUSPENDED', params: {} });
    expect(submissions).toEqual([]);
    actor.stop();
  });

  it('a contract-count asset sends noCnt', async () => {
    const { actor, submissions } = ticket({ mode: 'add', asset: { ...asset, quantityInput: 'noCnt' }, defaults: { ...validForm, qty: '4' } });
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('accepted'));
    expect(submissions[0]).toMatchObject({ mode: 'add', request: { noCnt: 4 } });
    expect(submissions[0]!.mode === 'add' && 'qty' in submissions[0]!.request).toBe(false);
    actor.stop();
  });
});

describe('the default order calls', () => {
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('POSTs an add, PATCHes a modify, POSTs cancel/suspend/activate with the bearer token, and keeps a refusal', async () => {
    const seen: Array<{ method: string; url: string; body: unknown; auth: string | undefined }> = [];
    let refuse = false;
    const fetchImpl = (async (url: string | URL | Request, init: RequestInit = {}) => {
      seen.push({ method: init.method ?? 'GET', url: String(url), body: init.body ? JSON.parse(String(init.body)) : undefined, auth: (init.headers as Record<string, string>)['Authorization'] });
      if (refuse) return json(409, { error: { code: 'SESSION_PHASE_FORBIDS', params: { phase: 'closed' } } });
      return json(200, { seq: seen.length, order: order() });
    }) as typeof fetch;
    const replies: unknown[] = [];
    const api = createOrdersApi({ fetch: fetchImpl, getToken: () => 'jwt', onReply: (update) => replies.push(update) });
    const add = createActor(orderTicketMachineWithApi(api), { input: { mode: 'add', asset, keyPrefix: 'k', defaults: validForm } }).start();
    add.send({ type: 'SUBMIT' });
    await waitFor(add, (s) => s.matches('accepted'));
    expect(add.getSnapshot().context.result).toEqual(order());
    const modify = createActor(orderTicketMachineWithApi(api), { input: { mode: 'modify', asset, order: order() } }).start();
    modify.send({ type: 'CHANGE', values: { qty: '5' } });
    modify.send({ type: 'SUBMIT' });
    await waitFor(modify, (s) => s.matches('accepted'));
    refuse = true;
    const cancel = createActor(orderTicketMachineWithApi(api), { input: { mode: 'cancel', asset, order: order() } }).start();
    cancel.send({ type: 'SUBMIT' });
    await waitFor(cancel, (s) => s.matches('refused'));
    expect(cancel.getSnapshot().context.refusal).toEqual({ code: 'SESSION_PHASE_FORBIDS', params: { phase: 'closed' } });
    expect(seen.map((r) => [r.method, r.url, r.auth])).toEqual([
      ['POST', '/session/api/orders', 'Bearer jwt'],
      ['PATCH', '/session/api/orders/O7', 'Bearer jwt'],
      ['POST', '/session/api/orders/O7/cancel', 'Bearer jwt'],
    ]);
    expect(seen[0]!.body).toMatchObject({ idempotencyKey: 'k-1', assetId: 'A1', way: 'bid', price: 12_345, qty: 10_000, noCnt: 10_000 });
    expect(seen[1]!.body).toEqual({ price: 12_345, qty: 5_000, validityType: 'GTC', validity: null });
    // Each accepted call's order and seq also go to the user's orders; a refusal does not.
    expect(replies).toEqual([
      { seq: 1, order: order() },
      { seq: 2, order: order() },
    ]);
    for (const a of [add, modify, cancel]) a.stop();
  });

  it('blocks the call when there is no usable token', async () => {
    let calls = 0;
    const fetchImpl = (async () => {
      calls += 1;
      return json(200, { order: order() });
    }) as typeof fetch;
    const actor = createActor(orderTicketMachineWithApi(createOrdersApi({ fetch: fetchImpl, getToken: () => null })), {
      input: { mode: 'suspend', asset, order: order() },
    }).start();
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('refused'));
    expect(actor.getSnapshot().context.refusal).toEqual({ code: 'AUTH_TOKEN_EXPIRED', params: {} });
    expect(calls).toBe(0);
    actor.stop();
  });
});

describe('funds and amounts', () => {
  const money = { ...asset, priceDecimals: 2, quantityDecimals: 1, quantityStep: 1, minQuantity: 1, marginBps: 1_000 };

  it("looks up the form's client's funds, follows a change of client, and says what a new order lacks", async () => {
    const asked: string[] = [];
    const funds: Record<string, number | null> = { C1: 10_000, C2: null };
    const api = { submit: async () => wireOrder() };
    const actor = createActor(
      orderTicketMachineWithApi(api, async (clientCode) => {
        asked.push(clientCode);
        return funds[clientCode] ?? null;
      }),
      { input: { mode: 'add', asset: money, defaults: { ...validForm, price: '151.00', qty: '12.0', clientCode: 'C1' } } },
    ).start();
    await waitFor(actor, (snapshot) => selectMoney(snapshot).funds !== null);
    // 151.00 x 12.0 = 1,812.00 RON; 10 % margin = 181.20 RON; C1 has 100.00 RON: 81.20 RON short.
    expect(selectMoney(actor.getSnapshot())).toEqual({ amounts: { value: 181_200, margin: 18_120 }, funds: 10_000, shortfall: 8_120 });
    actor.send({ type: 'CHANGE', values: { qty: '1.0' } });
    expect(selectMoney(actor.getSnapshot())).toEqual({ amounts: { value: 15_100, margin: 1_510 }, funds: 10_000, shortfall: null });
    actor.send({ type: 'CHANGE', values: { clientCode: 'C2' } });
    // Another client: no funds shown until its own answer (unknown here), never the last client's.
    expect(selectMoney(actor.getSnapshot()).funds).toBeNull();
    await waitFor(actor, () => asked.length === 2);
    expect(asked).toEqual(['C1', 'C2']);
    actor.send({ type: 'CHANGE', values: { price: '152.00' } });
    expect(asked).toEqual(['C1', 'C2']);
    actor.stop();
  });

  it('shows no amounts for an invalid form, and no funds for a cancel', async () => {
    const api = { submit: async () => wireOrder() };
    let asked = 0;
    const fundsOf = async () => {
      asked += 1;
      return 5;
    };
    const add = createActor(orderTicketMachineWithApi(api, fundsOf), { input: { mode: 'add', asset: money, defaults: { ...validForm, price: 'x' } } }).start();
    expect(selectMoney(add.getSnapshot()).amounts).toBeNull();
    const cancel = createActor(orderTicketMachineWithApi(api, fundsOf), { input: { mode: 'cancel', asset: money, order: wireOrder({ clientCode: 'C1' }) } }).start();
    expect(selectMoney(cancel.getSnapshot())).toEqual({ amounts: null, funds: null, shortfall: null });
    await waitFor(add, (snapshot) => selectMoney(snapshot).funds === 5);
    expect(asked).toBe(1);
    add.stop();
    cancel.stop();
  });
});
