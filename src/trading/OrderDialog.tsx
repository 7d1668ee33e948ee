import * as Dialog from '@radix-ui/react-dialog';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import {
  orderTicketMachineWithApi,
  selectMoney,
  type OrderForm,
  type OrderFormField,
  type OrderTicketMode,
  type TicketAsset,
  type TicketMoney,
} from '../../machines/order-ticket.machine.ts';
import type { ClientMemory } from '../../machines/client-memory.ts';
import type { PhasePermissions } from '../../machines/session-phase.machine.ts';
import { AMOUNT_DECIMALS } from '../../protocol/margin.ts';
import { executionTypes, validityTypes, ways, type ExecutionType, type ValidityType, type Way } from '../../protocol/enums.ts';
import type { Order } from '../../protocol/market-data.ts';
import type { AssetSpecification, Market } from '../../protocol/reference.ts';
import type { OrdersApi } from '../../streams/api.ts';
import { useReturnFocus } from '../components/dialogs/return-focus.ts';
import { enumLabelKey } from '../i18n/enum-labels.ts';
import { displayParams, formatApiError, tidy } from '../i18n/format-error.ts';
import { formatMinor } from '../i18n/format.ts';
import type { MessageKey } from '../i18n/messages/index.ts';
import { fetchAvailableFunds } from './account/account-api.ts';
import { localNameIn } from '../i18n/reference-names.ts';
import { DateField } from '../components/date-field/DateField.tsx';

export interface OrderTicketRequest {
  mode: OrderTicketMode;
  asset: AssetSpecification;
  order?: Order | null;
  defaults?: Partial<OrderForm>;
}

export interface OrderDialogProps {
  /** The ticket to show; null closes the dialog. */
  request: OrderTicketRequest | null;
  onClose: () => void;
  api: OrdersApi;
  /** The client codes the user acts for (brokers, agencies). */
  clientCodes: readonly string[];
  permissions: PhasePermissions | null;
  onAccepted?: (order: Order | null, mode: OrderTicketMode) => void;
  /** Idempotency key prefix (tests). */
  keyPrefix?: string;
  /** Markets and assets the user may trade: a new order can move to another one (market and asset selects). */
  markets?: readonly Market[];
  assets?: readonly AssetSpecification[];
  /** A new order moved to another asset: the desk opens a fresh ticket for it with these values. */
  onAssetChange?: (asset: AssetSpecification, carried: Partial<OrderForm>) => void;
  /** The client's available funds (amount units), shown beside the margin; null when not checked. */
  fundsOf?: (clientCode: string, signal: AbortSignal) => Promise<number | null>;
  /** The signed-in user's last client per asset: a new ticket starts with it (the machine decides). */
  clientMemory?: ClientMemory | null;
}

const titles: Record<OrderTicketMode, MessageKey> = {
  add: 'ticket.title.add',
  modify: 'ticket.title.modify',
  cancel: 'ticket.title.cancel',
  suspend: 'ticket.title.suspend',
  activate: 'ticket.title.activate',
};
const submitLabels: Record<OrderTicketMode, MessageKey> = {
  add: 'ticket.submit.add',
  modify: 'ticket.submit.modify',
  cancel: 'ticket.submit.cancel',
  suspend: 'ticket.submit.suspend',
  activate: 'ticket.submit.activate',
};
const descriptions: Record<OrderTicketMode, MessageKey> = {
  add: 'ticket.describe.add',
  modify: 'ticket.describe.modify',
  cancel: 'ticket.describe.cancel',
  suspend: 'ticket.describe.suspend',
  activate: 'ticket.describe.activate',
};


export function ticketAsset(asset: AssetSpecification): TicketAsset {
  return {
    assetId: asset.id,
    priceDecimals: asset.priceDecimals,
    quantityDecimals: asset.quantityDecimals,
    priceStep: asset.priceStep,
    quantityStep: asset.quantityStep,
    minQuantity: asset.minQuantity,
    maxQuantity: asset.maxQuantity,
    currency: asset.currency,
    unit: asset.unit,
    marginBps: asset.marginBps,
  };
}

function sameMoney(a: TicketMoney, b: TicketMoney): boolean {
  return a.funds === b.funds && a.shortfall === b.shortfall && a.amounts?.value === b.amounts?.value && a.amounts?.margin === b.amounts?.margin;
}

/** An ISO instant as the value of a datetime-local input (the browser's time zone). */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** What a new order keeps when it moves to another asset (prices and quantities do not carry over). */
function carried(form: OrderForm): Partial<OrderForm> {
  return { way: form.way, clientCode: form.clientCode, validityType: form.validityType, executionType: form.executionType };
}

function Ticket({ request, onClose, api, clientCodes, permissions, onAccepted, keyPrefix, markets = [], assets = [], onAssetChange, fundsOf = fetchAvailableFunds, clientMemory = null }: OrderDialogProps & { request: OrderTicketRequest }) {
  const intl = useIntl();
  const idBase = useId();
  const machine = useMemo(() => orderTicketMachineWithApi(api, fundsOf), [api, fundsOf]);
  const actor = useActorRef(machine, {
    input: {
      mode: request.mode,
      asset: ticketAsset(request.asset),
      order: request.order ?? null,
      defaults: { validityType: 'day', executionType: 'normal', ...request.defaults },
      permissions,
      clientCodes,
      clientMemory,
      ...(keyPrefix ? { keyPrefix } : {}),
    },
  });
  const state = useSelector(actor, (snapshot) => snapshot);
  const { form, errors, blocked, refusal, mode } = state.context;
  const submitting = state.matches('submitting');
  const accepted = state.matches('accepted');
  const editable = mode === 'add' || mode === 'modify';
  const asset = request.asset;

  useEffect(() => {
    actor.send({ type: 'PERMISSIONS', permissions });
  }, [actor, permissions]);

  const acceptedRef = useRef(false);
  useEffect(() => {
    if (accepted && !acceptedRef.current) {
      acceptedRef.current = true;
      onAccepted?.((state.context.result as Order | null) ?? null, mode);
      onClose();
    }
  }, [accepted, mode, onAccepted, onClose, state.context.result]);

  const [localValidity, setLocalValidity] = useState(() => (form.validityType === 'GTSV' && form.validity ? toLocalInput(form.validity) : ''));

  const change = (values: Partial<OrderForm>) => actor.send({ type: 'CHANGE', values });
  const submit = () => {
    if (submitting) return;
    if (state.matches('refused')) actor.send({ type: 'RETRY' });
    else actor.send({ type: 'SUBMIT' });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    const target = event.target as HTMLElement;
    if (target.tagName === 'BUTTON' || target.tagName === 'TEXTAREA') return;
    event.preventDefault();
    submit();
  };

  const fieldId = (field: OrderFormField) => `${idBase}-${field}`;
  const errorOf = (field: OrderFormField) => errors[field] ?? null;
  const fieldProps = (field: OrderFormField) => {
    const error = errorOf(field);
    return {
      id: fieldId(field),
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${fieldId(field)}-error` : undefined,
      disabled: submitting,
    };
  };
  const fieldError = (field: OrderFormField) => {
    const error = errorOf(field);
    return error ? (
      <p className="field-error" id={`${fieldId(field)}-error`} role="alert">
        {tidy(intl.formatMessage({ id: error.key }, displayParams(intl, error.params)))}
      </p>
    ) : null;
  };
  const fieldClass = (field: OrderFormField) => (errorOf(field) ? 'field field-invalid' : 'field');

  const { amounts, funds, shortfall } = useSelector(actor, selectMoney, sameMoney);
  const problem = blocked ?? refusal;
  const order = request.order ?? null;

  return (
    <form
      className="order-ticket"
      noValidate
      onKeyDown={onKeyDown}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      data-mode={mode}
    >
      <Dialog.Description className="dialog-description">
        <FormattedMessage id={descriptions[mode]} values={{ asset: localNameIn(intl, asset), orderId: order?.orderId ?? '' }} />
      </Dialog.Description>
      {order && !editable && (
        <p className="ticket-summary">
          <FormattedMessage
            id="ticket.summary"
            values={{
              way: intl.formatMessage({ id: enumLabelKey('way', order.way) }),
              qty: formatMinor(intl, order.offeredQty, asset.quantityDecimals),
              unit: asset.unit,
              price: order.price === null ? '—' : formatMinor(intl, order.price, asset.priceDecimals),
              client: order.clientCode,
            }}
          />
        </p>
      )}
      {mode === 'add' && onAssetChange && assets.length > 0 && (
        <div className="ticket-grid">
          <div className="field">
            <label htmlFor={`${idBase}-market`}>
              <FormattedMessage id="ticket.market" />
            </label>
            <select
              id={`${idBase}-market`}
              value={asset.marketId}
              disabled={submitting}
              onChange={(e) => {
                const next = assets.find((candidate) => candidate.marketId === e.target.value);
                if (next) onAssetChange(next, carried(form));
              }}
            >
              {markets
                .filter((market) => assets.some((candidate) => candidate.marketId === market.id))
                .map((market) => (
                  <option key={market.id} value={market.id}>
                    {localNameIn(intl, market)}
                  </option>
                ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${idBase}-asset`}>
              <FormattedMessage id="ticket.asset" />
            </label>
            <select
              id={`${idBase}-asset`}
              value={asset.id}
              disabled={submitting}
              onChange={(e) => {
                const next = assets.find((candidate) => candidate.id === e.target.value);
                if (next) onAssetChange(next, carried(form));
              }}
            >
              {assets
                .filter((candidate) => candidate.marketId === asset.marketId)
                .map((candidate) => (
                  <option key={candidate.id} value={candidate.id}>
                    {candidate.code}
                  </option>
                ))}
            </select>
          </div>
        </div>
      )}
      {editable && (
        <div className="ticket-grid">
          <div className={fieldClass('way')}>
            <label htmlFor={fieldId('way')}>
              <FormattedMessage id="ticket.way" />
            </label>
            <select {...fieldProps('way')} value={form.way} disabled={submitting || mode !== 'add'} onChange={(e) => change({ way: e.target.value as Way })}>
              <option value="">{intl.formatMessage({ id: 'ticket.choose' })}</option>
              {ways.map((way) => (
                <option key={way} value={way}>
                  {intl.formatMessage({ id: enumLabelKey('way', way) })}
                </option>
              ))}
            </select>
            {fieldError('way')}
          </div>
          <div className={fieldClass('clientCode')}>
            <label htmlFor={fieldId('clientCode')}>
              <FormattedMessage id="ticket.clientCode" />
            </label>
            <select
              {...fieldProps('clientCode')}
              value={form.clientCode}
              disabled={submitting || mode !== 'add'}
              onChange={(e) => change({ clientCode: e.target.value })}
            >
              <option value="">{intl.formatMessage({ id: 'ticket.choose' })}</option>
              {(mode === 'add' ? state.context.clientCodes : [form.clientCode]).map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
            {fieldError('clientCode')}
          </div>
          <div className={fieldClass('price')}>
            <label htmlFor={fieldId('price')}>
              <FormattedMessage id="ticket.price" values={{ currency: asset.currency }} />
            </label>
            <input {...fieldProps('price')} inputMode="decimal" autoComplete="off" value={form.price} onChange={(e) => change({ price: e.target.value })} />
            {fieldError('price')}
          </div>
          <div className={fieldClass('qty')}>
            <label htmlFor={fieldId('qty')}>
              <FormattedMessage id="ticket.quantity" values={{ unit: asset.unit }} />
            </label>
            <input {...fieldProps('qty')} inputMode="decimal" autoComplete="off" value={form.qty} onChange={(e) => change({ qty: e.target.value })} />
            {fieldError('qty')}
          </div>
          <div className={fieldClass('validityType')}>
            <label htmlFor={fieldId('validityType')}>
              <FormattedMessage id="ticket.validityType" />
            </label>
            <select
              {...fieldProps('validityType')}
              value={form.validityType}
              onChange={(e) => {
                setLocalValidity('');
                change({ validityType: e.target.value as ValidityType, validity: '' });
              }}
            >
              <option value="">{intl.formatMessage({ id: 'ticket.choose' })}</option>
              {validityTypes.map((type) => (
                <option key={type} value={type}>
                  {intl.formatMessage({ id: enumLabelKey('validityType', type) })}
                </option>
              ))}
            </select>
            {fieldError('validityType')}
          </div>
          {mode === 'add' && (
            <div className="field">
              <label htmlFor={fieldId('executionType')}>
                <FormattedMessage id="ticket.executionType" />
              </label>
              <select {...fieldProps('executionType')} value={form.executionType} onChange={(e) => change({ executionType: e.target.value as ExecutionType })}>
                {executionTypes.map((type) => (
                  <option key={type} value={type}>
                    {intl.formatMessage({ id: enumLabelKey('executionType', type) })}
                  </option>
                ))}
              </select>
            </div>
          )}
          {form.validityType === 'GTD' && (
            <div className={fieldClass('validity')}>
              <label htmlFor={fieldId('validity')}>
                <FormattedMessage id="ticket.validityDate" />
              </label>
              <DateField {...fieldProps('validity')} label={intl.formatMessage({ id: 'ticket.validityDate' })} value={form.validity.slice(0, 10)} onChange={(iso) => change({ validity: iso })} />
              {fieldError('validity')}
            </div>
          )}
          {form.validityType === 'GTSV' && (
            <div className={fieldClass('validity')}>
              <label htmlFor={fieldId('validity')}>
                <FormattedMessage id="ticket.validityDateTime" />
              </label>
              <input
                {...fieldProps('validity')}
                type="datetime-local"
                value={localValidity}
                onChange={(e) => {
                  setLocalValidity(e.target.value);
                  const date = new Date(e.target.value);
                  change({ validity: e.target.value && !Number.isNaN(date.getTime()) ? date.toISOString() : '' });
                }}
              />
              {fieldError('validity')}
            </div>
          )}
        </div>
      )}
      {editable && (
        <div className="ticket-value" aria-live="polite">
          <dl className="ticket-amounts">
            <dt>
              <FormattedMessage id="ticket.orderValue" />
            </dt>
            <dd className="mono" data-testid="order-value">
              {amounts === null ? '—' : `${formatMinor(intl, amounts.value, AMOUNT_DECIMALS)} ${asset.currency}`}
            </dd>
            <dt>
              <FormattedMessage id="ticket.margin" values={{ percent: asset.marginBps / 100 }} />
            </dt>
            <dd className="mono" data-testid="order-margin">
              <strong>{amounts === null ? '—' : `${formatMinor(intl, amounts.margin, AMOUNT_DECIMALS)} ${asset.currency}`}</strong>
            </dd>
            {funds !== null && (
              <>
                <dt>
                  <FormattedMessage id="ticket.availableFunds" values={{ client: form.clientCode }} />
                </dt>
                <dd className="mono" data-testid="available-funds">
                  {`${formatMinor(intl, funds, AMOUNT_DECIMALS)} ${asset.currency}`}
                </dd>
              </>
            )}
          </dl>
          {shortfall !== null ? (
            <p className="field-error" role="status" data-testid="funds-shortfall">
              <FormattedMessage id="ticket.fundsShortfall" values={{ amount: `${formatMinor(intl, shortfall, AMOUNT_DECIMALS)} ${asset.currency}` }} />
            </p>
          ) : (
            <p className="field-hint">
              <FormattedMessage id="ticket.marginNote" />
            </p>
          )}
        </div>
      )}
      {problem && (
        <div className="alert alert-error" role="alert">
          {formatApiError(intl, problem)}
        </div>
      )}
      <div className="dialog-actions">
        <Dialog.Close asChild>
          <button type="button" className="button button-secondary" disabled={submitting}>
            <FormattedMessage id="ticket.close" />
          </button>
        </Dialog.Close>
        <button
          type="submit"
          className={mode === 'cancel' ? 'button button-danger' : form.way === 'ask' ? 'button button-ask' : form.way === 'bid' ? 'button button-bid' : 'button button-primary'}
          disabled={submitting}
          aria-busy={submitting || undefined}
        >
          <FormattedMessage id={submitting ? 'ticket.sending' : submitLabels[mode]} />
        </button>
      </div>
    </form>
  );
}

const ticketKeys = new WeakMap<OrderTicketRequest, number>();
let nextTicketKey = 1;
/** A fresh machine for every request (a new object each time a ticket is opened). */
function ticketKey(request: OrderTicketRequest): number {
  let key = ticketKeys.get(request);
  if (key === undefined) {
    key = nextTicketKey++;
    ticketKeys.set(request, key);
  }
  return key;
}

/**
 * The order dialog (SPEC §2): add, modify, cancel, suspend, activate, driven by the order ticket
 * machine. Enter sends, Escape closes (Radix), focus goes back to what opened it.
 */
export function OrderDialog(props: OrderDialogProps) {
  const intl = useIntl();
  const returnFocus = useReturnFocus();
  const { request, onClose } = props;
  return (
    <Dialog.Root open={request !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog dialog-wide"
          onOpenAutoFocus={() => returnFocus.remember()}
          onCloseAutoFocus={(event) => returnFocus.restore(event)}
        >
          {request && (
            <>
              <Dialog.Title className="dialog-title">
                {intl.formatMessage({ id: titles[request.mode] }, { asset: localNameIn(intl, request.asset), orderId: request.order?.orderId ?? '' })}
              </Dialog.Title>
              <Ticket key={ticketKey(request)} {...props} request={request} />
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
