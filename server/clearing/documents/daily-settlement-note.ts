import { CLEARING_AMOUNT_DECIMALS, type DailySettlementNote } from '../../../protocol/clearing.ts';
import { formatCalendarDate, formatExchangeTime, formatNumber, type DocumentLocale } from './format.ts';
import { labelsFor } from './labels.ts';
import { DocumentWriter } from './pdf-document.ts';

/** A client's daily settlement note as an A4 landscape PDF (ten columns of figures need the width). */
export function renderDailySettlementNote(note: DailySettlementNote, locale: DocumentLocale): Buffer {
  const l = labelsFor(locale);
  const amount = (value: number) => formatNumber(value, CLEARING_AMOUNT_DECIMALS, locale);
  const writer = new DocumentWriter({
    title: `${l.dailyNoteTitle} ${note.clientCode} ${note.sessionDate}`,
    author: l.exchange,
    subject: `${note.clientName} (${note.clientCode})`,
    createdAt: new Date(note.createdAt),
    layout: 'landscape',
    footer: `${l.dailyNoteTitle} · ${note.clientName} (${note.clientCode}) · ${formatCalendarDate(note.sessionDate, locale)}`,
    pageLabel: l.page,
  });
  writer.heading(l.exchange, l.clearingHouse, l.dailyNoteTitle);
  writer.info([
    [l.client, `${note.clientName} (${note.clientCode})`],
    [l.market, note.marketId],
    [l.sessionDate, formatCalendarDate(note.sessionDate, locale)],
    [l.document, note.noteId],
    [l.issuedAt, formatExchangeTime(note.createdAt, locale)],
    [l.currency, note.currency],
  ]);

  const money = (label: string) => `${label} (${note.currency})`;
  const columns = [
    { header: l.asset, weight: 3, align: 'left' },
    { header: l.openingQty, weight: 1, align: 'right' },
    { header: l.boughtQty, weight: 1, align: 'right' },
    { header: l.soldQty, weight: 1, align: 'right' },
    { header: l.closingQty, weight: 1, align: 'right' },
    { header: l.previousSettlementPrice, weight: 1.1, align: 'right' },
    { header: l.settlementPrice, weight: 1.1, align: 'right' },
    { header: money(l.variationMargin), weight: 1.3, align: 'right' },
    { header: money(l.deliveryValue), weight: 1.3, align: 'right' },
    { header: money(l.fees), weight: 1.1, align: 'right' },
  ] as const;
  const price = (value: number | null, decimals: number) => (value === null ? '—' : formatNumber(value, decimals, locale));
  const rows = note.lines.map((line) => {
    const qty = (value: number) => formatNumber(value, line.quantityDecimals, locale);
    return [
      `${line.assetName} (${line.assetId})`,
      qty(line.openingQty),
      qty(line.boughtQty),
      qty(line.soldQty),
      qty(line.closingQty),
      price(line.previousSettlementPrice, line.priceDecimals),
      price(line.settlementPrice, line.priceDecimals),
      amount(line.variationMargin),
      amount(line.deliveryValue),
      amount(line.fees),
    ];
  });
  if (rows.length === 0) writer.note(l.noLines);
  else writer.table(columns, rows, [l.total, '', '', '', '', '', '', amount(note.variationMargin), amount(note.deliveryValue), amount(note.fees)]);

  writer.sectionTitle(l.totals);
  const currency = (value: number) => `${amount(value)} ${note.currency}`;
  writer.amounts(
    [
      [l.variationMargin, currency(note.variationMargin)],
      [l.deliveryValue, currency(note.deliveryValue)],
      [l.fees, currency(note.fees)],
      [l.bankCommissions, currency(note.bankCommissions)],
      [l.toPay, currency(note.toPay)],
      [l.toReceive, currency(note.toReceive)],
    ],
    4,
  );
  return writer.finish();
}
