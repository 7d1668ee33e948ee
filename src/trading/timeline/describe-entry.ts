import type { IntlShape } from 'react-intl';
import type { Locale, ValidityType } from '../../../protocol/enums.ts';
import type { OrderTimelineChange, OrderTimelineEntry, TimelineActor, TimelineObligation } from '../../../protocol/order-timeline.ts';
import type { WorkflowKind } from '../../../protocol/workflows.ts';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { formatCalendarDate, formatExchangeDateTime, formatMinor } from '../../i18n/format.ts';
import { BASE_PATH, localePath } from '../../i18n/locale.ts';
import type { MessageKey } from '../../i18n/messages/index.ts';
import { historyActionLabel, kindLabels, statusLabelKey } from '../../workflows/labels.ts';
import { formatAmount } from '../account/amounts.ts';
import { exchangeZoneName } from './zone.ts';

/** What a timeline entry shows: its label, its lines of text and, where the app has a place for it, a link. */
export interface EntryView {
  label: string;
  lines: string[];
  link: { href: string; label: string } | null;
  tone: 'info' | 'success' | 'warning' | 'neutral';
}

export interface EntryFormat {
  intl: IntlShape;
  locale: Locale;
  priceDecimals: number;
  quantityDecimals: number;
  amountDecimals: number;
}

/** An exchange time with the zone in force written out: '22.11.2026, 11:01:01 EET'. */
export function exchangeTime(intl: IntlShape, at: string): string {
  return `${formatExchangeDateTime(intl, at)} ${exchangeZoneName(at)}`;
}

/** The account tab where each workflow kind is listed. */
const workflowTab: Record<WorkflowKind, string> = {
  otc: 'otc-transactions',
  transfer: 'transactions',
  marginActivation: 'transactions',
  contract: 'transaction-contracts',
  whitelist: 'whitelist-requests',
};

const directionLabels: Record<TimelineObligation['direction'], MessageKey> = { pay: 'orderTimeline.direction.pay', receive: 'orderTimeline.direction.receive' };

const actorLabels: Record<TimelineActor, MessageKey> = {
  ownSide: 'orderTimeline.actor.ownSide',
  counterparty: 'orderTimeline.actor.counterparty',
  exchange: 'orderTimeline.actor.exchange',
  system: 'orderTimeline.actor.system',
};

const say = (intl: IntlShape, id: MessageKey, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);

function changeLine(format: EntryFormat, change: OrderTimelineChange): string {
  const { intl } = format;
  const price = (value: OrderTimelineChange['from']) => (typeof value === 'number' ? formatMinor(intl, value, format.priceDecimals) : '—');
  const qty = (value: OrderTimelineChange['from']) => (typeof value === 'number' ? formatMinor(intl, value, format.quantityDecimals) : '—');
  const validity = (value: OrderTimelineChange['from']) => (typeof value === 'string' ? say(intl, enumLabelKey('validityType', value as ValidityType)) : '—');
  const instant = (value: OrderTimelineChange['from']) => (typeof value === 'string' ? exchangeTime(intl, value) : '—');
  switch (change.field) {
    case 'price':
      return say(intl, 'orderTimeline.change.price', { from: price(change.from), to: price(change.to) });
    case 'qty':
      return say(intl, 'orderTimeline.change.qty', { from: qty(change.from), to: qty(change.to) });
    case 'validityType':
      return say(intl, 'orderTimeline.change.validityType', { from: validity(change.from), to: validity(change.to) });
    case 'validity':
      return say(intl, 'orderTimeline.change.validity', { from: instant(change.from), to: instant(change.to) });
    case 'suspended':
      return say(intl, change.to === true ? 'orderTimeline.change.suspended' : 'orderTimeline.change.activated');
  }
}

/** The view of one entry in the reader's language: numbers with the asset's decimals, amounts with the currency's. */
export function describeEntry(format: EntryFormat, entry: OrderTimelineEntry): EntryView {
  const { intl, locale } = format;
  const price = (value: number | null) => (value === null ? '—' : formatMinor(intl, value, format.priceDecimals));
  const qty = (value: number) => formatMinor(intl, value, format.quantityDecimals);
  const tab = (slug: string) => `${BASE_PATH}${localePath(locale, `/my-account/${slug}`)}`;
  const transactions = { href: tab('transactions'), label: say(intl, 'orderTimeline.link.transactions') };
  switch (entry.kind) {
    case 'entered':
      return {
        label: say(intl, 'orderTimeline.kind.entered'),
        lines: [
          say(intl, 'orderTimeline.entered', { price: price(entry.price), qty: qty(entry.qty), validity: say(intl, enumLabelKey('validityType', entry.validityType)) }),
          ...(entry.suspended ? [say(intl, 'orderTimeline.enteredSuspended')] : []),
        ],
        link: null,
        tone: 'info',
      };
    case 'modified':
      return {
        label: say(intl, 'orderTimeline.kind.modified'),
        lines: entry.changes.length === 0 ? [say(intl, 'orderTimeline.change.none')] : entry.changes.map((change) => changeLine(format, change)),
        link: null,
        tone: 'info',
      };
    case 'fill':
      return {
        label: say(intl, 'orderTimeline.kind.fill'),
        lines: [say(intl, 'orderTimeline.fill', { qty: qty(entry.qty), price: price(entry.price), transactionId: entry.transactionId, remaining: qty(entry.remainingQty) })],
        link: transactions,
        tone: 'success',
      };
    case 'filled':
      return { label: say(intl, 'orderTimeline.kind.filled'), lines: [say(intl, 'orderTimeline.filled', { qty: qty(entry.tradedQty), price: price(entry.tradedPrice) })], link: null, tone: 'success' };
    case 'cancelled':
      return {
        label: say(intl, 'orderTimeline.kind.cancelled'),
        lines: [say(intl, entry.reason === 'ioc' ? 'orderTimeline.cancelled.ioc' : 'orderTimeline.cancelled.user', { open: qty(entry.openQty), traded: qty(entry.tradedQty) })],
        link: null,
        tone: 'warning',
      };
    case 'expired':
      return { label: say(intl, 'orderTimeline.kind.expired'), lines: [say(intl, 'orderTimeline.expired', { open: qty(entry.openQty), traded: qty(entry.tradedQty) })], link: null, tone: 'warning' };
    case 'clearing': {
      if (entry.step === 'marginExposure') {
        const blocked = entry.marginsExposureActive !== false;
        return {
          label: say(intl, blocked ? 'orderTimeline.kind.marginBlocked' : 'orderTimeline.kind.marginNotCounted'),
          lines: [say(intl, blocked ? 'orderTimeline.marginBlocked' : 'orderTimeline.marginNotCounted', { transactionId: entry.transactionId })],
          link: null,
          tone: 'neutral',
        };
      }
      return {
        label: say(intl, 'orderTimeline.kind.reported'),
        lines: [
          say(intl, 'orderTimeline.reported', {
            transactionId: entry.transactionId,
            batchId: entry.batchId ?? '—',
            pieces: entry.pieces ?? 0,
            pieceQty: entry.piecesQty === null ? '—' : qty(entry.piecesQty),
            amount: entry.singlePieceAmount === null ? '—' : formatMinor(intl, entry.singlePieceAmount, format.amountDecimals),
          }),
        ],
        link: null,
        tone: 'neutral',
      };
    }
    case 'settlement':
      return {
        label: say(intl, 'orderTimeline.kind.settlement'),
        lines: [
          say(intl, 'orderTimeline.settlement', { transactionId: entry.transactionId, runId: entry.settlementRunId, date: formatCalendarDate(intl, entry.sessionDate), price: price(entry.settlementPrice) }),
          ...(entry.noteId ? [say(intl, 'orderTimeline.settlementNote', { noteId: entry.noteId })] : []),
          ...entry.obligations.map((obligation) =>
            say(intl, 'orderTimeline.obligation', {
              kind: say(intl, `clearing.obligationKind.${obligation.kind}` as MessageKey),
              direction: say(intl, directionLabels[obligation.direction]),
              amount: formatAmount(intl, obligation.amount, format.amountDecimals, obligation.currency),
              dueDate: formatCalendarDate(intl, obligation.dueDate),
              status: say(intl, `clearing.obligationStatus.${obligation.status}` as MessageKey),
            }),
          ),
        ],
        link: { href: tab('daily-settlement-notes'), label: say(intl, 'orderTimeline.link.notes') },
        tone: 'success',
      };
    case 'workflow': {
      const statusKey = statusLabelKey(entry.workflowKind, entry.status, intl.messages);
      const actionKey = entry.lastAction ? historyActionLabel(entry.lastAction.action, entry.workflowKind) : null;
      return {
        label: say(intl, 'orderTimeline.kind.workflow', { workflow: say(intl, kindLabels[entry.workflowKind]) }),
        lines: [
          say(intl, 'orderTimeline.workflow', {
            transactionId: entry.transactionId,
            status: statusKey ? say(intl, statusKey) : entry.status,
            initiator: say(intl, actorLabels[entry.initiatedBy]),
          }),
          ...(entry.lastAction
            ? [say(intl, 'orderTimeline.workflowLast', { action: actionKey ? say(intl, actionKey) : entry.lastAction.action, actor: say(intl, actorLabels[entry.lastAction.by]), at: exchangeTime(intl, entry.lastAction.at) })]
            : []),
        ],
        link: { href: tab(workflowTab[entry.workflowKind]), label: say(intl, 'orderTimeline.link.workflow') },
        tone: 'info',
      };
    }
  }
}
