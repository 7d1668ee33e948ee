import { CLEARING_AMOUNT_DECIMALS, type TransactionReport } from '../../../protocol/clearing.ts';
import { orderValue } from '../../../protocol/margin.ts';
import type { Transaction } from '../../../protocol/market-data.ts';
import { formatCalendarDate, formatExchangeTime, formatNumber, type DocumentLocale } from './format.ts';
import { labelsFor } from './labels.ts';
import { DocumentWriter } from './pdf-document.ts';

/** What a report needs of an asset to write its transactions: a transaction carries only minor units and the asset's id. */
export interface ReportAsset {
  name: string;
  priceDecimals: number;
  quantityDecimals: number;
  currency: string;
}

/** A trade's value as the engine reckons it (price × quantity in amount units, rounded up in size). */
function tradeValue(price: number, qty: number, asset: ReportAsset): number {
  return price < 0 ? -orderValue(-price, qty, asset) : orderValue(price, qty, asset);
}

interface Leg {
  transaction: Transaction;
  side: 'buy' | 'sell';
  asset: ReportAsset;
  value: number;
}

/**
 * A client's transactions of a session date as an A4 PDF: one row per transaction and side the
 * client was on, oldest first, then the totals per asset. `assets` gives every traded asset's name
 * and decimals (a transaction of an unknown asset is an error, never a guess at its decimals).
 */
export function renderTransactionReport(report: TransactionReport, transactions: readonly Transaction[], locale: DocumentLocale, assets: ReadonlyMap<string, ReportAsset>): Buffer {
  const l = labelsFor(locale);
  const legs: Leg[] = [];
  const ordered = [...transactions].sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.transactionId.localeCompare(b.transactionId, 'en', { numeric: true }));
  for (const transaction of ordered) {
    const asset = assets.get(transaction.assetId);
    if (!asset) throw new Error(`transaction report ${report.reportId}: unknown asset ${transaction.assetId}`);
    const value = tradeValue(transaction.price, transaction.qty, asset);
    if (transaction.buyer === report.clientCode) legs.push({ transaction, side: 'buy', asset, value });
    if (transaction.seller === report.clientCode) legs.push({ transaction, side: 'sell', asset, value });
  }

  const writer = new DocumentWriter({
    title: report.report,
    author: l.exchange,
    subject: `${report.client} (${report.clientCode})`,
    createdAt: new Date(report.createdAt),
    layout: 'portrait',
    footer: `${l.transactionReportTitle} · ${report.client} (${report.clientCode}) · ${formatCalendarDate(report.sessionDate, locale)}`,
    pageLabel: l.page,
  });
  writer.heading(l.exchange, l.clearingHouse, l.transactionReportTitle);
  writer.info([
    [l.client, `${report.client} (${report.clientCode})`],
    [l.sessionDate, formatCalendarDate(report.sessionDate, locale)],
    [l.document, `${report.report} (${report.reportId})`],
    [l.issuedAt, formatExchangeTime(report.createdAt, locale)],
    [l.transactions, String(legs.length)],
  ]);
  if (legs.length === 0) {
    writer.note(l.noTransactions);
    return writer.finish();
  }
  writer.note(l.timesNote);
  const amount = (value: number) => formatNumber(value, CLEARING_AMOUNT_DECIMALS, locale);
  // One currency (the usual case) goes in the header; several are written on each value.
  const currencies = new Set(legs.map((leg) => leg.asset.currency));
  const single = currencies.size === 1 ? [...currencies][0]! : null;
  writer.table(
    [
      { header: l.time, weight: 1.8, align: 'left' },
      { header: l.transaction, weight: 0.95, align: 'left' },
      { header: l.asset, weight: 2.5, align: 'left' },
      { header: l.side, weight: 1, align: 'left' },
      { header: l.quantity, weight: 1.05, align: 'right' },
      { header: l.price, weight: 0.9, align: 'right' },
      { header: single ? `${l.value} (${single})` : l.value, weight: 1.5, align: 'right' },
    ],
    legs.map(({ transaction, side, asset, value }) => [
      formatExchangeTime(transaction.timestamp, locale, false),
      transaction.transactionId,
      asset.name,
      side === 'buy' ? l.buy : l.sell,
      formatNumber(transaction.qty, asset.quantityDecimals, locale),
      formatNumber(transaction.price, asset.priceDecimals, locale),
      single ? amount(value) : `${amount(value)} ${asset.currency}`,
    ]),
  );

  // Totals per asset (quantities of different assets do not add up), and per currency for the values.
  const perAsset = new Map<string, { asset: ReportAsset; bought: bigint; sold: bigint; boughtValue: bigint; soldValue: bigint }>();
  for (const { transaction, side, asset, value } of legs) {
    const sums = perAsset.get(transaction.assetId) ?? { asset, bought: 0n, sold: 0n, boughtValue: 0n, soldValue: 0n };
    if (side === 'buy') {
      sums.bought += BigInt(transaction.qty);
      sums.boughtValue += BigInt(value);
    } else {
      sums.sold += BigInt(transaction.qty);
      sums.soldValue += BigInt(value);
    }
    perAsset.set(transaction.assetId, sums);
  }
  const perCurrency = new Map<string, { bought: bigint; sold: bigint }>();
  for (const sums of perAsset.values()) {
    const currency = perCurrency.get(sums.asset.currency) ?? { bought: 0n, sold: 0n };
    currency.bought += sums.boughtValue;
    currency.sold += sums.soldValue;
    perCurrency.set(sums.asset.currency, currency);
  }
  const exact = (value: bigint) => {
    const asNumber = Number(value);
    if (!Number.isSafeInteger(asNumber)) throw new RangeError('report total exceeds the safe integer range');
    return asNumber;
  };
  writer.sectionTitle(l.totals);
  writer.table(
    [
      { header: l.asset, weight: 2.4, align: 'left' },
      { header: l.boughtQty, weight: 1, align: 'right' },
      { header: l.soldQty, weight: 1, align: 'right' },
      { header: l.boughtValue, weight: 1.4, align: 'right' },
      { header: l.soldValue, weight: 1.4, align: 'right' },
    ],
    [...perAsset.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, sums]) => [
        sums.asset.name,
        formatNumber(exact(sums.bought), sums.asset.quantityDecimals, locale),
        formatNumber(exact(sums.sold), sums.asset.quantityDecimals, locale),
        `${amount(exact(sums.boughtValue))} ${sums.asset.currency}`,
        `${amount(exact(sums.soldValue))} ${sums.asset.currency}`,
      ]),
  );
  writer.amounts(
    [...perCurrency.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([currency, sums]) => [
        [`${l.boughtValue} (${currency})`, `${amount(exact(sums.bought))} ${currency}`],
        [`${l.soldValue} (${currency})`, `${amount(exact(sums.sold))} ${currency}`],
      ] as const),
    0,
  );
  return writer.finish();
}
