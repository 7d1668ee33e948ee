/**
 * The order dialog: add, modify, cancel, suspend, activate.
 *
 *   editing --SUBMIT [form invalid]--> editing (errors: the SPEC §5 message keys)
 *   editing --SUBMIT [phase forbids]--> editing (blocked: the server's SESSION_* code)
 *   editing --SUBMIT--> submitting --ok--> accepted --NEW (add)--> editing
 *                                  '--error--> refused (server code + params) --CHANGE--> editing
 *                                                                              --RETRY--> submitting
 *
 * Client-side validation uses protocol/decimal.ts with the asset's decimals and steps and yields
 * exactly the keys of the SPEC §5 messages: 'Price is required!' -> validation.priceRequired,
 * 'Invalid price!' -> validation.priceInvalid, 'Invalid quantity!' -> validation.quantityInvalid,
 * 'Field required!' -> validation.fieldRequired. The server's own rules (limits, funds...) come back
 * as a refusal with its code. An add carries an idempotency key: the same until the form changes,
 * so a retry after a network error cannot place the order twice.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { isMultipleOf, parseDecimal } from '../protocol/decimal.ts';
import type { ExecutionType, ValidityType, Way } from '../protocol/enums.ts';
import type { Order } from '../protocol/market-data.ts';
import type { AddOrderRequest, ModifyOrderRequest } from '../protocol/orders.ts';
import { toClientError, type ClientError, type OrderSubmission, type OrdersApi } from '../streams/api.ts';
import { phaseRefusal, type OrderAction, type PhasePermissions } from './session-phase.machine.ts';

export type OrderTicketMode = 'add' | 'modify' | 'cancel' | 'suspend' | 'activate';

/** What the ticket needs of the asset specification. */
export interface TicketAsset {
  assetId: string;
  priceDecimals: number;
  quantityDecimals: number;
  priceStep: number;
  quantityStep: number;
  minQuantity?: number;
  maxQuantity?: number;
  /** Whether the quantity is entered as a contract count (noCnt); default qty. */
  quantityInput?: 'qty' | 'noCnt';
  /** Quantity per contract in minor units (engine default 1): noCnt of a qty order = ceil(qty / contractQty). */
  contractQty?: number;
}

export interface OrderForm {
  way: Way | '';
  price: string;
  qty: string;
  validityType: ValidityType | '';
  /** GTD date or GTSV date-time, as the date picker gives it. */
  validity: string;
  executionType: ExecutionType;
  clientCode: string;
}
export type OrderFormField = keyof OrderForm;

export const validationKeys = {
  priceRequired: 'validation.priceRequired',
  invalidPrice: 'validation.priceInvalid',
  invalidQuantity: 'validation.quantityInvalid',
  fieldRequired: 'validation.fieldRequired',
} as const;
export type ValidationKey = (typeof validationKeys)[keyof typeof validationKeys];
export type FormErrors = Partial<Record<OrderFormField, ValidationKey>>;

export type { OrderSubmission };

export type OrderTicketEvent =
  | { type: 'CHANGE'; values: Partial<OrderForm> }
  | { type: 'SUBMIT' }
  | { type: 'RETRY' }
  | { type: 'NEW' }
  | { type: 'PERMISSIONS'; permissions: PhasePermissions | null };

export interface OrderTicketInput {
  mode: OrderTicketMode;
  asset: TicketAsset;
  /** The order acted on (all modes but add). */
  order?: Order | null;
  /** Initial values for an add (way from the clicked book side, client code...). */
  defaults?: Partial<OrderForm>;
  permissions?: PhasePermissions | null;
  /** Prefix of idempotency keys; default a random UUID. Keys are `${prefix}-${n}`. */
  keyPrefix?: string;
}

export interface OrderTicketContext {
  mode: OrderTicketMode;
  asset: TicketAsset;
  order: Order | null;
  form: OrderForm;
  initialForm: OrderForm;
  errors: FormErrors;
  /** The phase forbids the action: the code the server would answer. */
  blocked: ClientError | null;
  permissions: PhasePermissions | null;
  submission: OrderSubmission | null;
  /** Form of the last submission: its key is reused while the form is unchanged. */
  submittedForm: OrderForm | null;
  keyPrefix: string;
  keySeq: number;
  result: unknown;
  refusal: ClientError | null;
}

const emptyForm: OrderForm = { way: '', price: '', qty: '', validityType: '', validity: '', executionType: 'normal', clientCode: '' };

function formatMinor(minor: number | null, decimals: number): string {
  if (minor === null) return '';
  const negative = minor < 0;
  const digits = String(Math.abs(minor)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return (negative ? '-' : '') + whole + (decimals > 0 ? '.' + fraction : '');
}

/** The form a ticket starts with: the order's values for modify, the defaults for add. */
export function initialOrderForm(mode: OrderTicketMode, asset: TicketAsset, order: Order | null, defaults: Partial<OrderForm> = {}): OrderForm {
  if (mode === 'add' || !order) return { ...emptyForm, ...defaults };
  const byContracts = asset.quantityInput === 'noCnt';
  return {
    way: order.way,
    price: formatMinor(order.price, asset.priceDecimals),
    qty: byContracts ? String(order.noCnt) : formatMinor(order.offeredQty, asset.quantityDecimals),
    validityType: order.validityType,
    validity: order.validity ?? '',
    executionType: order.executionType,
    clientCode: order.clientCode,
  };
}

function sameForm(a: OrderForm | null, b: OrderForm): boolean {
  return a !== null && (Object.keys(b) as OrderFormField[]).every((k) => a[k] === b[k]);
}

interface Parsed {
  price: number | null;
  qty: number | null;
}

function validatePrice(text: string, asset: TicketAsset, required: boolean): { error?: ValidationKey; value: number | null } {
  if (text.trim() === '') return required ? { error: validationKeys.priceRequired, value: null } : { value: null };
  const parsed = parseDecimal(text, asset.priceDecimals);
  if (!parsed.ok || parsed.value <= 0 || !isMultipleOf(parsed.value, asset.priceStep)) return { error: validationKeys.invalidPrice, value: null };
  return { value: parsed.value };
}

function validateQuantity(text: string, asset: TicketAsset): { error?: ValidationKey; value: number | null } {
  if (text.trim() === '') return { error: validationKeys.fieldRequired, value: null };
  const byContracts = asset.quantityInput === 'noCnt';
  const parsed = parseDecimal(text, byContracts ? 0 : asset.quantityDecimals);
  if (!parsed.ok || parsed.value <= 0) return { error: validationKeys.invalidQuantity, value: null };
  if (!byContracts) {
    if (!isMultipleOf(parsed.value, asset.quantityStep)) return { error: validationKeys.invalidQuantity, value: null };
    if (asset.minQuantity !== undefined && parsed.value < asset.minQuantity) return { error: validationKeys.invalidQuantity, value: null };
    if (asset.maxQuantity !== undefined && parsed.value > asset.maxQuantity) return { error: validationKeys.invalidQuantity, value: null };
  }
  return { value: parsed.value };
}

/**
 * Client-side validation of a ticket; `errors` is empty when the form can be sent.
 * Only the SPEC §5 keys are produced; the server checks the rest.
 */
export function validateOrderForm(mode: OrderTicketMode, form: OrderForm, asset: TicketAsset, order: Order | null = null): { errors: FormErrors; parsed: Parsed } {
  const errors: FormErrors = {};
  const parsed: Parsed = { price: null, qty: null };
  if (mode !== 'add' && mode !== 'modify') return { errors, parsed };
  if (mode === 'add') {
    if (form.way === '') errors.way = validationKeys.fieldRequired;
    if (form.clientCode.trim() === '') errors.clientCode = validationKeys.fieldRequired;
  }
  if (form.validityType === '') errors.validityType = validationKeys.fieldRequired;
  else if ((form.validityType === 'GTD' || form.validityType === 'GTSV') && form.validity.trim() === '') errors.validity = validationKeys.fieldRequired;
  // A market order (no price) is only IOC or FOK; an order placed without a price stays without one.
  const priceRequired = mode === 'add' ? form.executionType === 'normal' : order?.price !== null;
  const price = validatePrice(form.price, asset, priceRequired);
  if (price.error) errors.price = price.error;
  parsed.price = price.value;
  const qty = validateQuantity(form.qty, asset);
  if (qty.error) errors.qty = qty.error;
  parsed.qty = qty.value;
  return { errors, parsed };
}

/** The request a valid form makes. */
export function buildSubmission(context: Pick<OrderTicketContext, 'mode' | 'asset' | 'order' | 'form'>, idempotencyKey: string): OrderSubmission {
  const { mode, asset, order, form } = context;
  if (mode === 'cancel' || mode === 'suspend' || mode === 'activate') return { mode, orderId: order?.orderId ?? '' };
  const { parsed } = validateOrderForm(mode, form, asset, order);
  const byContracts = asset.quantityInput === 'noCnt';
  const timed = form.validityType === 'GTD' || form.validityType === 'GTSV';
  if (mode === 'modify') {
    const request: ModifyOrderRequest = { price: parsed.price, qty: parsed.qty ?? undefined };
    if (form.validityType !== '') request.validityType = form.validityType;
    request.validity = timed ? form.validity.trim() : null;
    if (byContracts) delete request.qty;
    return { mode, orderId: order?.orderId ?? '', request };
  }
  const request: AddOrderRequest = {
    idempotencyKey,
    assetId: asset.assetId,
    way: form.way,
    price: parsed.price,
    validityType: form.validityType,
    validity: timed ? form.validity.trim() : null,
    executionType: form.executionType,
    clientCode: form.clientCode.trim(),
  };
  if (byContracts) request.noCnt = parsed.qty ?? undefined;
  else {
    request.qty = parsed.qty ?? undefined;
    // protocol's completeAddOrder wants noCnt on every add; the engine derives it the same way.
    if (parsed.qty !== null) request.noCnt = Math.ceil(parsed.qty / (asset.contractQty ?? 1));
  }
  return { mode, request };
}

const actionOf: Record<OrderTicketMode, OrderAction> = { add: 'place', modify: 'modify', cancel: 'cancel', suspend: 'suspend', activate: 'activate' };

/** The phase refusal for the ticket as it stands, or null. */
export function ticketPhaseRefusal(context: Pick<OrderTicketContext, 'mode' | 'asset' | 'order' | 'form' | 'permissions'>): ClientError | null {
  let priceChange = false;
  if (context.mode === 'modify' && context.order) {
    const price = validateOrderForm('modify', context.form, context.asset, context.order).parsed.price;
    priceChange = price !== context.order.price;
  }
  return phaseRefusal(context.permissions, actionOf[context.mode], priceChange);
}

export const orderTicketMachine = setup({
  types: {
    context: {} as OrderTicketContext,
    events: {} as OrderTicketEvent,
    input: {} as OrderTicketInput,
  },
  actors: {
    submitOrder: fromPromise<unknown, OrderSubmission>(async () => {
      throw new Error('submitOrder actor not provided: use orderTicketMachine.provide()');
    }),
  },
  guards: {
    formInvalid: ({ context }) => Object.keys(validateOrderForm(context.mode, context.form, context.asset, context.order).errors).length > 0,
    phaseForbids: ({ context }) => ticketPhaseRefusal(context) !== null,
    isAddMode: ({ context }) => context.mode === 'add',
  },
  actions: {
    updateForm: assign(({ context, event }) => {
      if (event.type !== 'CHANGE') return {};
      const form = { ...context.form, ...event.values };
      // A field the user changes loses its error; the others keep theirs until the next submit.
      const errors = { ...context.errors };
      for (const key of Object.keys(event.values) as OrderFormField[]) delete errors[key];
      return { form, errors, blocked: null, refusal: null };
    }),
    showValidationErrors: assign(({ context }) => ({ errors: validateOrderForm(context.mode, context.form, context.asset, context.order).errors, blocked: null })),
    showPhaseBlock: assign(({ context }) => ({ blocked: ticketPhaseRefusal(context), errors: {} })),
    prepareSubmission: assign(({ context }) => {
      const keySeq = sameForm(context.submittedForm, context.form) ? context.keySeq : context.keySeq + 1;
      return {
        keySeq,
        submittedForm: context.form,
        submission: buildSubmission(context, `${context.keyPrefix}-${keySeq}`),
        errors: {},
        blocked: null,
        refusal: null,
      };
    }),
    storeResult: assign((_, params: { output: unknown }) => ({ result: params.output })),
    storeRefusal: assign((_, params: { error: unknown }) => ({ refusal: toClientError(params.error) })),
    updatePermissions: assign(({ event }) => (event.type === 'PERMISSIONS' ? { permissions: event.permissions } : {})),
    resetForNext: assign(({ context }) => ({
      form: { ...context.initialForm, way: context.form.way, clientCode: context.form.clientCode, validityType: context.form.validityType },
      errors: {},
      blocked: null,
      refusal: null,
      result: null,
      submission: null,
      submittedForm: null,
    })),
  },
}).createMachine({
  id: 'orderTicket',
  context: ({ input }) => {
    const form = initialOrderForm(input.mode, input.asset, input.order ?? null, input.defaults);
    return {
      mode: input.mode,
      asset: input.asset,
      order: input.order ?? null,
      form,
      initialForm: form,
      errors: {},
      blocked: null,
      permissions: input.permissions ?? null,
      submission: null,
      submittedForm: null,
      keyPrefix: input.keyPrefix ?? globalThis.crypto.randomUUID(),
      keySeq: 0,
      result: null,
      refusal: null,
    };
  },
  initial: 'editing',
  on: {
    PERMISSIONS: { actions: 'updatePermissions' },
  },
  states: {
    editing: {
      on: {
        CHANGE: { actions: 'updateForm' },
        SUBMIT: [
          { guard: 'formInvalid', actions: 'showValidationErrors' },
          { guard: 'phaseForbids', actions: 'showPhaseBlock' },
          { target: 'submitting', actions: 'prepareSubmission' },
        ],
      },
    },
    submitting: {
      invoke: {
        id: 'submitOrder',
        src: 'submitOrder',
        input: ({ context }) => context.submission!,
        onDone: { target: 'accepted', actions: { type: 'storeResult', params: ({ event }) => ({ output: event.output }) } },
        onError: { target: 'refused', actions: { type: 'storeRefusal', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    accepted: {
      tags: ['done'],
      on: { NEW: { guard: 'isAddMode', target: 'editing', actions: 'resetForNext' } },
    },
    refused: {
      on: {
        CHANGE: { target: 'editing', actions: 'updateForm' },
        RETRY: 'submitting',
      },
    },
  },
});

export type OrderTicketSnapshot = SnapshotFrom<typeof orderTicketMachine>;

/** The ticket with the real order calls (streams/api.ts createOrdersApi). */
export function orderTicketMachineWithApi(api: OrdersApi) {
  return orderTicketMachine.provide({
    actors: { submitOrder: fromPromise<unknown, OrderSubmission>(({ input, signal }) => api.submit(input, signal)) },
  });
}
