import type { IntlShape } from 'react-intl';
import type { Notification, Order } from '../../../protocol/market-data.ts';
import type { AssetSpecification, Market } from '../../../protocol/reference.ts';
import { enumLabelKey, enumLabelGroups } from '../../i18n/enum-labels.ts';
import { formatMinor } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/messages/index.ts';
import { workflowKinds } from '../../../protocol/workflows.ts';
import { statusLabelKey } from '../../workflows/labels.ts';
import { workflowSubject } from '../../workflows/naming.ts';
import type { Member, NotificationCategory, NotificationEntry } from './notification-center.ts';
import { localNameIn } from '../../i18n/reference-names.ts';

export type Tone = 'info' | 'success' | 'warning';

export interface Reference {
  assets: ReadonlyMap<string, AssetSpecification>;
  markets?: ReadonlyMap<string, Market>;
}

export const categoryLabel: Record<NotificationCategory, MessageKey> = {
  order: 'notifications.category.order',
  trade: 'notifications.category.trade',
  phase: 'notifications.category.phase',
  workflow: 'notifications.category.workflow',
  system: 'notifications.category.system',
};

/** The messages the server's notifications may name; anything else is shown generically. */
const serverMessages: Partial<Record<Notification['kind'], MessageKey>> = {
  orderTraded: 'notifications.orderTraded',
  orderExpired: 'notifications.orderExpired',
  orderCancelled: 'notifications.orderCancelled',
  phaseChanged: 'notifications.phaseChanged',
};

const cancelReasons: Record<string, MessageKey> = { ioc: 'notifications.reason.ioc', expired: 'notifications.reason.expired', operator: 'notifications.reason.operator' };

function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

function orderValues(intl: IntlShape, order: Order, reference: Reference) {
  const asset = reference.assets.get(order.assetId);
  return {
    way: intl.formatMessage({ id: enumLabelKey('way', order.way) }),
    status: order.status as string, // notify.order words it inside the sentence (select), in lower case
    asset: asset?.code ?? order.assetId,
    qty: asset ? formatMinor(intl, order.offeredQty, asset.quantityDecimals) : String(order.offeredQty),
    price: order.price === null ? '—' : asset ? formatMinor(intl, order.price, asset.priceDecimals) : String(order.price),
    client: order.clientCode,
  };
}

/** The raw values of a server notification, formatted for its message: asset code, numbers in the asset's decimals, labels. */
function serverValues(intl: IntlShape, n: Notification, reference: Reference): Record<string, string> {
  const v = n.values;
  const asset = typeof v.assetId === 'string' ? reference.assets.get(v.assetId) : undefined;
  const minor = (value: string | number | undefined, decimals: number | undefined) =>
    value === undefined ? '—' : typeof value === 'number' && decimals !== undefined ? formatMinor(intl, value, decimals) : String(value);
  const marketOf = typeof v.marketId === 'string' ? reference.markets?.get(v.marketId) : undefined;
  const market = marketOf ? localNameIn(intl, marketOf) : typeof v.marketId === 'string' ? v.marketId : '';
  return {
    orderId: String(v.orderId ?? ''),
    transactionId: String(v.transactionId ?? ''),
    asset: asset?.code ?? String(v.assetId ?? ''),
    client: String(v.clientCode ?? ''),
    qty: minor(v.qty, asset?.quantityDecimals),
    price: minor(v.price, asset?.priceDecimals),
    way: isOneOf(enumLabelGroups.way.values, v.way) ? intl.formatMessage({ id: enumLabelKey('way', v.way) }) : String(v.way ?? ''),
    // notifications.phaseChanged words the phase inside the sentence (select), in lower case.
    phase: String(v.phase ?? ''),
    reason: typeof v.reason === 'string' && cancelReasons[v.reason] ? intl.formatMessage({ id: cancelReasons[v.reason]! }) : String(v.reason ?? ''),
    market,
    scope: v.assetId ? 'asset' : 'market',
  };
}

/**
 * A workflow's transition: the status it is now in, in the reader's language and inside the sentence
 * (lower case), not the machine's own name ("awaitingAdminApproval"); a status this client does not
 * know is shown as it is.
 */
function workflowValues(intl: IntlShape, n: Notification): Record<string, string | number> {
  const values: Record<string, string | number> = { ...n.values };
  const kind = n.values.workflow;
  const status = n.values.status;
  // Named by its transaction's number when it has one, else by its kind (the two clients follow); never by the internal instance id.
  const transactionId = n.values.transactionId;
  values.subject = isOneOf(workflowKinds, kind)
    ? workflowSubject(intl, kind, typeof transactionId === 'string' || typeof transactionId === 'number' ? String(transactionId) : null)
    : intl.formatMessage({ id: 'notifications.workflow.other' });
  if (isOneOf(workflowKinds, kind) && typeof status === 'string') {
    const key = statusLabelKey(kind, status, intl.messages);
    if (key) {
      const label = intl.formatMessage({ id: key });
      values.status = label.charAt(0).toLocaleLowerCase(intl.locale) + label.slice(1);
    }
  }
  return values;
}

/** A grouped entry: "12 orders of RO-HIDRO expired", "3 trades on GSPOT-DA", in the user's language. */
function describeGroup(intl: IntlShape, entry: NotificationEntry, reference: Reference): { text: string; tone: Tone } {
  const { members } = entry;
  const first = members[0]!;
  const count = members.length;
  const sameAsset = members.every((member) => member.assetId === first.assetId) && first.assetId !== '';
  const assetCode = (id: string) => reference.assets.get(id)?.code ?? id;
  const values = { count, client: first.clientCode, asset: sameAsset ? assetCode(first.assetId) : '', scope: sameAsset ? 'asset' : 'any' };
  const all = (kind: Member['kind']) => members.every((member) => member.kind === kind);
  if (first.kind === 'fill') return { tone: 'success', text: intl.formatMessage({ id: 'notifications.group.fills' }, { count, asset: assetCode(first.assetId) }) };
  if (all('expired')) return { tone: 'warning', text: intl.formatMessage({ id: 'notifications.group.expired' }, values) };
  if (all('systemCancelled')) return { tone: 'warning', text: intl.formatMessage({ id: 'notifications.group.systemCancelled' }, values) };
  if (members.every((member) => member.kind === 'expired' || member.kind === 'systemCancelled' || member.kind === 'ended')) {
    return { tone: 'warning', text: intl.formatMessage({ id: 'notifications.group.ended' }, values) };
  }
  const { content } = entry;
  if (first.kind === 'order' && content.source === 'order') {
    const { order } = content;
    const status = intl.formatMessage({ id: order.suspended ? 'notifications.group.suspended' : enumLabelKey('orderStatus', order.status) });
    return { tone: 'info', text: intl.formatMessage({ id: 'notifications.group.orders' }, { ...values, status }) };
  }
  if (first.kind === 'phase' && content.source === 'server') {
    // Where the market is now (the latest change), then how many changes the entry holds.
    const now = intl.formatMessage({ id: 'notifications.phaseChanged' }, serverValues(intl, content.notification, reference));
    return { tone: 'info', text: `${now} ${intl.formatMessage({ id: 'notifications.group.phases' }, { count })}` };
  }
  return { tone: 'info', text: intl.formatMessage({ id: 'notifications.group.other' }, { count, kind: intl.formatMessage({ id: categoryLabel[entry.category] }) }) };
}

/** The text and tone of an entry in the user's language. */
export function describeEntry(intl: IntlShape, entry: NotificationEntry, reference: Reference): { text: string; tone: Tone } {
  if (entry.members.length > 1) return describeGroup(intl, entry, reference);
  const { content } = entry;
  if (content.source === 'order') {
    const { order } = content;
    return {
      tone: order.status === 'cancelled' ? 'warning' : 'info',
      text: intl.formatMessage({ id: order.suspended ? 'notify.orderSuspended' : 'notify.order' }, orderValues(intl, order, reference)),
    };
  }
  if (content.source === 'trade') {
    const { trade } = content;
    const asset = reference.assets.get(trade.assetId);
    return {
      tone: 'success',
      text: intl.formatMessage(
        { id: 'notify.trade' },
        {
          asset: asset?.code ?? trade.assetId,
          qty: asset ? formatMinor(intl, trade.qty, asset.quantityDecimals) : String(trade.qty),
          price: asset ? formatMinor(intl, trade.price, asset.priceDecimals) : String(trade.price),
          buyer: trade.buyer,
          seller: trade.seller,
        },
      ),
    };
  }
  const n = content.notification;
  const tone: Tone = n.kind === 'orderTraded' ? 'success' : n.kind === 'orderExpired' || n.kind === 'orderCancelled' ? 'warning' : 'info';
  const key = serverMessages[n.kind];
  if (key && key === n.messageKey) return { tone, text: intl.formatMessage({ id: key }, serverValues(intl, n, reference)) };
  if (n.messageKey === 'notifications.workflow') return { tone, text: intl.formatMessage({ id: 'notifications.workflow' }, workflowValues(intl, n)) };
  // Kinds that come later bring their own keys: shown when this client knows them.
  if (Object.prototype.hasOwnProperty.call(intl.messages, n.messageKey)) {
    return { tone, text: intl.formatMessage({ id: n.messageKey as MessageKey }, n.values) };
  }
  return { tone, text: intl.formatMessage({ id: 'notifications.generic' }, { kind: intl.formatMessage({ id: categoryLabel[entry.category] }) }) };
}
