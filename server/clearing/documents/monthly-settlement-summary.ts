import { CLEARING_AMOUNT_DECIMALS, type MonthlySettlementSummary } from '../../../protocol/clearing.ts';
import { formatMonth, formatNumber, type DocumentLocale } from './format.ts';
import { labelsFor } from './labels.ts';
import { DocumentWriter } from './pdf-document.ts';

/** A client's monthly settlement summary (the month's notes added up) as an A4 PDF. */
export function renderMonthlySettlementSummary(summary: MonthlySettlementSummary, locale: DocumentLocale): Buffer {
  const l = labelsFor(locale);
  const amount = (value: number) => formatNumber(value, CLEARING_AMOUNT_DECIMALS, locale);
  const writer = new DocumentWriter({
    title: `${l.monthlySummaryTitle} ${summary.clientCode} ${summary.month}`,
    author: l.exchange,
    subject: `${summary.clientName} (${summary.clientCode})`,
    // The row has no time of its own: the month's first instant (UTC) keeps the bytes a function of the data.
    createdAt: new Date(`${summary.month}-01T00:00:00Z`),
    layout: 'portrait',
    footer: `${l.monthlySummaryTitle} · ${summary.clientName} (${summary.clientCode}) · ${formatMonth(summary.month, locale)}`,
    pageLabel: l.page,
  });
  writer.heading(l.exchange, l.clearingHouse, l.monthlySummaryTitle);
  writer.info([
    [l.client, `${summary.clientName} (${summary.clientCode})`],
    [l.month, formatMonth(summary.month, locale)],
    [l.notes, String(summary.notes)],
    [l.currency, summary.currency],
  ]);
  const columns = [
    { header: '', weight: 3, align: 'left' },
    { header: `${l.value} (${summary.currency})`, weight: 1.4, align: 'right' },
  ] as const;
  writer.table(columns, [
    [l.variationMargin, amount(summary.variationMargin)],
    [l.deliveryValue, amount(summary.deliveryValue)],
    [l.fees, amount(summary.fees)],
    [l.bankCommissions, amount(summary.bankCommissions)],
  ]);
  writer.sectionTitle(l.totals);
  const currency = (value: number) => `${amount(value)} ${summary.currency}`;
  writer.amounts(
    [
      [l.toPay, currency(summary.toPay)],
      [l.toReceive, currency(summary.toReceive)],
      [l.paid, currency(summary.paid)],
      [l.cashed, currency(summary.cashed)],
      [l.unpaid, currency(summary.unpaid)],
    ],
    4,
  );
  return writer.finish();
}
