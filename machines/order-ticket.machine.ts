/**
 * The order dialog: add, modify, cancel, suspend, activate.
 *
 *   editing --SUBMIT [form invalid]--> editing (errors: the SPEC §5 message keys)
 *   editing --SUBMIT [phase forbids]--> editing (blocked: the server's SESSION_* code)
 *   editing --SUBMIT--> submitting --ok--> accepted --NEW (add)--> editing
 *                                  '--error--> refused (server code + params) --CHANGE--> editing
 *                                                                              --RETRY--> submitting
 *
 * Client-side validation uses protocol/decimal.ts with the asset's decimals and steps. A message
 * states the rule broken, with its step or bounds (issue 11: 'Price must be a multiple of 0.01 RON',
 * 'Quantity must be between 1 and 1,000 MWh'): each error is a key and its params, decimal strings
 * as the server sends them, so the view localises both alike. 'Price is required!' and 'Field
 * required!' keep the SPEC §5 wording. The server's own rules (limits, funds...) come back as a
 * refusal with its code. An add carries an idempotency key: the same until the form changes, so a
 * retry after a network error cannot place the order twice.
 *
 * The client: a new order starts with the one given, else the client last used on this asset
 * (`clientMemory`, per user), else the user's only client. An accepted add is remembered.
 */
import { assign, enqueueActions, fromPromise, setup, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { orderMargin, orderValue } from '../protocol/margin.ts';
import { formatDecimal, isMultipleOf, MAX_WHOLE_DIGITS, parseDecimal } from '../protocol/decimal.ts';
import type { ExecutionType, ValidityType, Way } from '../protocol/enums.ts';
import type { Order } from '../protocol/market-data.ts';
import type { AddOrderRequest, ModifyOrderRequest } from '../protocol/orders.ts';
import { toClientError, type ClientError, type OrderSubmission, type OrdersApi } from '../streams/api.ts';
import type { ClientMemory } from './client-memory.ts';
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
  /** Shown with price and quantity rules ('RON', 'MWh'). */
  currency?: string;
  unit?: string;
  /** Share of an order's value blocked as margin, in basis points (the asset's marginBps); 0 or absent: none. */
  marginBps?: number;
}

/** A client's available funds (amount units) as the exchange saw them; amount null: not checked or unknown. */
export interface TicketFunds {
  clientCode: string;
  amount: number | null;
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
  fieldRequired: 'validation.fieldRequired',
  priceRequired: 'validation.priceRequired',
  /** {step} {currency} */
  priceStep: 'validation.priceStep',
  /** {min} {currency}: the smallest price, one step. */
  priceMinimum: 'validation.priceMinimum',
  /** {maxDigits} */
  priceTooManyDigits: 'validation.priceTooManyDigits',
  /** {step} {unit} */
  quantityStep: 'validation.quantityStep',
  /** {min} {max} {unit} */
  quantityRange: 'validation.quantityRange',
  /** {min} {unit}: an asset without a maximum. */
  quantityMinimum: 'validation.quantityMinimum',
  /** A whole number of contracts, at least one. */
  contractCount: 'validation.contractCount',
} as const;
export type ValidationKey = (typeof validationKeys)[keyof typeof validationKeys];
/** A field's error: the message key and its params (decimal strings with a dot, codes, units). */
export interface FormError {
  key: ValidationKey;
  params?: Record<string, string | number>;
}
export type FormErrors = Partial<Record<OrderFormField, FormError>>;

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
  /** The clients the user acts for: the ticket's client list. */
  clientCodes?: readonly string[];
  /** The last client per asset (per user); an accepted add updates it. */
  clientMemory?: ClientMemory | null;
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
  clientCodes: readonly string[];
  clientMemory: ClientMemory | null;
  /** The available funds of the client last looked up (add and modify); null until known. */
  funds: TicketFunds | null;
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

/**
 * The client a new order starts with: the one asked for, else the one last used on the asset (while
 * the user still acts for it), else the user's only client, else none (the user picks).
 */
export function initialClientCode(asked: string | undefined, clientCodes: readonly string[], remembered: string | null): string {
  if (asked) return asked;
  if (remembered && clientCodes.includes(remembered)) return remembered;
  return clientCodes.length === 1 ? clientCodes[0]! : '';
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

type FieldCheck = { error?: FormError; value: number | null };

function priceRule(asset: TicketAsset): FormError {
  return { key: validationKeys.priceStep, params: { step: formatDecimal(asset.priceStep, asset.priceDecimals), currency: asset.currency ?? '' } };
}

function validatePrice(text: string, asset: TicketAsset, required: boolean): FieldCheck {
  if (text.trim() === '') return required ? { error: { key: validationKeys.priceRequired }, value: null } : { value: null };
  const parsed = parseDecimal(text, asset.priceDecimals);
  if (!parsed.ok) {
    if (parsed.reason === 'tooManyWholeDigits' || parsed.reason === 'unsafe') return { error: { key: validationKeys.priceTooManyDigits, params: { maxDigits: MAX_WHOLE_DIGITS } }, value: null };
    return { error: priceRule(asset), value: null };
  }
  if (parsed.value <= 0) {
    return { error: { key: validationKeys.priceMinimum, params: { min: formatDecimal(asset.priceStep, asset.priceDecimals), currency: asset.currency ?? '' } }, value: null };
  }
  if (!isMultipleOf(parsed.value, asset.priceStep)) return { error: priceRule(asset), value: null };
  return { value: parsed.value };
}

/** The bounds rule of the quantity: between min and max, or at least min (one step when the asset sets none). */
function quantityBounds(asset: TicketAsset): FormError {
  const unit = asset.unit ?? '';
  const min = formatDecimal(asset.minQuantity ?? asset.quantityStep, asset.quantityDecimals);
  if (asset.maxQuantity === undefined) return { key: validationKeys.quantityMinimum, params: { min, unit } };
  return { key: validationKeys.quantityRange, params: { min, max: formatDecimal(asset.maxQuantity, asset.quantityDecimals), unit } };
}

function validateQuantity(text: string, asset: TicketAsset): FieldCheck {
  if (text.trim() === '') return { error: { key: validationKeys.fieldRequired }, value: null };
  if (asset.quantityInput === 'noCnt') {
    const parsed = parseDecimal(text, 0);
    if (!parsed.ok || parsed.value <= 0) return { error: { key: validationKeys.contractCount }, value: null };
    return { value: parsed.value };
  }
  const stepRule: FormError = { key: validationKeys.quantityStep, params: { step: formatDecimal(asset.quantityStep, asset.quantityDecimals), unit: asset.unit ?? '' } };
  const parsed = parseDecimal(text, asset.quantityDecimals);
  if (!parsed.ok) return { error: parsed.reason === 'tooManyDecimals' ? stepRule : quantityBounds(asset), value: null };
  if (parsed.value <= 0) return { error: quantityBounds(asset), value: null };
  if (asset.minQuantity !== undefined && parsed.value < asset.minQuantity) return { error: quantityBounds(asset), value: null };
  if (asset.maxQuantity !== undefined && parsed.value > asset.maxQuantity) return { error: quantityBounds(asset), value: null };
  if (!isMultipleOf(parsed.value, asset.quantityStep)) return { error: stepRule, value: null };
  return { value: parsed.value };
}

/**
 * Client-side validation of a ticket; `errors` is empty when the form can be sent.
 * Fields, steps and bounds only; the server checks the rest.
 */
export function validateOrderForm(mode: OrderTicketMode, form: OrderForm, asset: TicketAsset, order: Order | null = null): { errors: FormErrors; parsed: Parsed } {
  const errors: FormErrors = {};
  const parsed: Parsed = { price: null, qty: null };
  if (mode !== 'add' && mode !== 'modify') return { errors, parsed };
  const required: FormError = { key: validationKeys.fieldRequired };
  if (mode === 'add') {
    if (form.way === '') errors.way = required;
    if (form.clientCode.trim() === '') errors.clientCode = required;
  }
  if (form.validityType === '') errors.validityType = required;
  else if ((form.validityType === 'GTD' || form.validityType === 'GTSV') && form.validity.trim() === '') errors.validity = required;
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
    /** Funds are advice before sending (the server's check is the authority): by default not checked. */
    loadFunds: fromPromise<TicketFunds, { clientCode: string }>(async ({ input }) => ({ clientCode: input.clientCode, amount: null })),
  },
  guards: {
    formInvalid: ({ context }) => Object.keys(validateOrderForm(context.mode, context.form, context.asset, context.order).errors).length > 0,
    phaseForbids: ({ context }) => ticketPhaseRefusal(context) !== null,
    isAddMode: ({ context }) => context.mode === 'add',
  },
  actions: {
    /** Looks up the funds of the form's client when it is not the one looked up last (one lookup at a time). */
    checkFunds: enqueueActions(({ context, enqueue }) => {
      const clientCode = context.form.clientCode.trim();
      if ((context.mode !== 'add' && context.mode !== 'modify') || clientCode === '' || context.funds?.clientCode === clientCode) return;
      enqueue.stopChild('funds');
      enqueue.assign({ funds: { clientCode, amount: null } });
      enqueue.spawnChild('loadFunds', { id: 'funds', input: { clientCode } });
    }),
    keepFunds: assign(({ context }, params: { funds: TicketFunds }) => (params.funds.clientCode === context.funds?.clientCode ? { funds: params.funds } : {})),
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
    rememberClient: ({ context }) => {
      const clientCode = context.submittedForm?.clientCode.trim();
      if (context.mode === 'add' && clientCode) context.clientMemory?.remember(context.asset.assetId, clientCode);
    },
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
    const clientCodes = input.clientCodes ?? [];
    const clientMemory = input.clientMemory ?? null;
    const defaults: Partial<OrderForm> =
      input.mode === 'add'
        ? { ...input.defaults, clientCode: initialClientCode(input.defaults?.clientCode, clientCodes, clientMemory?.recall(input.asset.assetId) ?? null) }
        : (input.defaults ?? {});
    const form = initialOrderForm(input.mode, input.asset, input.order ?? null, defaults);
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
      clientCodes,
      clientMemory,
      funds: null,
    };
  },
  initial: 'editing',
  entry: 'checkFunds',
  on: {
    PERMISSIONS: { actions: 'updatePermissions' },
    // The done event of the spawned lookup (not in the event union: spawned children's events are untyped).
    'xstate.done.actor.funds': { actions: { type: 'keepFunds', params: ({ event }: { event: AnyEventObject }) => ({ funds: (event as unknown as { output: TicketFunds }).output }) } },
    // A failed lookup shows no funds: the server's check at sending is the authority.
    'xstate.error.actor.funds': {},
  },
  states: {
    editing: {
      on: {
        CHANGE: { actions: ['updateForm', 'checkFunds'] },
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
        onDone: { target: 'accepted', actions: [{ type: 'storeResult', params: ({ event }) => ({ output: event.output }) }, 'rememberClient'] },
        onError: { target: 'refused', actions: { type: 'storeRefusal', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    accepted: {
      tags: ['done'],
      on: { NEW: { guard: 'isAddMode', target: 'editing', actions: 'resetForNext' } },
    },
    refused: {
      on: {
        CHANGE: { target: 'editing', actions: ['updateForm', 'checkFunds'] },
        RETRY: 'submitting',
      },
    },
  },
});

export type OrderTicketSnapshot = SnapshotFrom<typeof orderTicketMachine>;

/** The ticket with the real order calls (streams/api.ts createOrdersApi). */
export function orderTicketMachineWithApi(api: OrdersApi, fundsOf?: (clientCode: string, signal: AbortSignal) => Promise<number | null>) {
  return orderTicketMachine.provide({
    actors: {
      submitOrder: fromPromise<unknown, OrderSubmission>(({ input, signal }) => api.submit(input, signal)),
      ...(fundsOf
        ? {
            loadFunds: fromPromise<TicketFunds, { clientCode: string }>(async ({ input, signal }) => ({
              clientCode: input.clientCode,
              amount: await fundsOf(input.clientCode, signal).catch(() => null),
            })),
          }
        : {}),
    },
  });
}

/** The order's value and the margin it will block, exactly as the engine reckons them (amount units); null until price and quantity are valid. */
export function orderAmounts(form: OrderForm, asset: TicketAsset): { value: number; margin: number } | null {
  const price = parseDecimal(form.price, asset.priceDecimals);
  const qty = parseDecimal(form.qty, asset.quantityDecimals);
  if (!price.ok || !qty.ok || price.value <= 0 || qty.value <= 0) return null;
  try {
    const value = orderValue(price.value, qty.value, asset);
    return { value, margin: orderMargin(value, asset.marginBps ?? 0) };
  } catch {
    return null;
  }
}

export interface TicketMoney {
  /** Value and margin of the order as filled in; null when price or quantity is not valid yet. */
  amounts: { value: number; margin: number } | null;
  /** The client's available funds; null while unknown or not checked. */
  funds: number | null;
  /** What the client lacks to cover the margin of a new order; null when nothing or unknown. */
  shortfall: number | null;
}

/** The ticket's money: value, margin, the client's funds and the deposit the exchange would ask for. */
export function selectMoney(snapshot: OrderTicketSnapshot): TicketMoney {
  const { mode, form, asset, funds } = snapshot.context;
  const editable = mode === 'add' || mode === 'modify';
  const amounts = editable ? orderAmounts(form, asset) : null;
  const available = editable && funds !== null && funds.clientCode === form.clientCode.trim() ? funds.amount : null;
  const shortfall = mode === 'add' && amounts !== null && available !== null && amounts.margin > available ? amounts.margin - Math.max(0, available) : null;
  return { amounts, funds: available, shortfall };
}
