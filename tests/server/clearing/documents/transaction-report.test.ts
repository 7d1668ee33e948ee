import { describe, expect, it } from 'vitest';
import { renderTransactionReport, type ReportAsset } from '../../../../server/clearing/documents/transaction-report.ts';
import { transaction, transactionReport } from './fixtures.ts';
import { parsePdf } from './pdf-text.ts';

const assets = new Map<string, ReportAsset>([
  ['ESPOT-DA-H01', { name: 'Energie PZU ora 01', priceDecimals: 2, quantityDecimals: 1, currency: 'RON' }],
  ['GSPOT-DA', { name: 'Gaze ziua următoare', priceDecimals: 2, quantityDecimals: 0, currency: 'RON' }],
]);

describe('transaction report PDF', () => {
  const report = transactionReport();
  // Out of order on purpose; one trade the client is no party to (never in its report).
  const transactions = [
    transaction(12, { buyer: 'RO-TERMO', seller: 'RO-HIDRO', price: 41_000, qty: 50, timestamp: '2026-11-24T09:30:00.000Z' }),
    transaction(11, { buyer: 'RO-HIDRO', seller: 'RO-TERMO', price: 40_012, qty: 105, timestamp: '2026-11-24T08:15:00.000Z' }),
    transaction(13, { assetId: 'GSPOT-DA', buyer: 'RO-HIDRO', seller: 'RO-INDUS', price: 15_099, qty: 3, timestamp: '2026-11-24T21:59:59.000Z' }),
    transaction(14, { buyer: 'RO-TERMO', seller: 'RO-INDUS', price: 1, qty: 1, timestamp: '2026-11-24T10:00:00.000Z' }),
  ];

  it("lists the client's transactions of the day, oldest first, in Bucharest time, with values and totals", async () => {
    const pdf = renderTransactionReport(report, transactions, 'ro', assets);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { pages, info } = await parsePdf(pdf);
    const text = pages[0]!;
    expect(text).toEqual(expect.arrayContaining(['Raport de tranzacții', 'Hidro Furnizare SA (RO-HIDRO)', '24.11.2026', 'Raport tranzacții 2026-11-24 (TR-RO-HIDRO-2026-11-24)', '24.11.2026 20:00:00 EET']));
    expect(info.Title).toBe('Raport tranzacții 2026-11-24');
    const rowOf = (id: string) => {
      const at = text.indexOf(id);
      return text.slice(at - 1, at + 6);
    };
    // 40.012 × 10,5 = 4.201,26 exactly; 410,00 × 5,0 = 2.050,00; 150,99 × 3 = 452,97.
    expect(rowOf('11')).toEqual(['24.11.2026 10:15:00', '11', 'Energie PZU ora 01', 'Cumpărare', '10,5', '400,12', '4.201,26']);
    expect(rowOf('12')).toEqual(['24.11.2026 11:30:00', '12', 'Energie PZU ora 01', 'Vânzare', '5,0', '410,00', '2.050,00']);
    expect(rowOf('13')).toEqual(['24.11.2026 23:59:59', '13', 'Gaze ziua următoare', 'Cumpărare', '3', '150,99', '452,97']);
    expect(text).not.toContain('14');
    const order = ['11', '12', '13'].map((id) => text.indexOf(id));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text[text.indexOf('Tranzacții:') + 1]).toBe('3');
    // Totals per asset, then per currency.
    const energy = text.lastIndexOf('Energie PZU ora 01');
    expect(text.slice(energy, energy + 5)).toEqual(['Energie PZU ora 01', '10,5', '5,0', '4.201,26 RON', '2.050,00 RON']);
    expect(text[text.indexOf('Valoare cumpărări (RON)') + 1]).toBe('4.654,23 RON');
    expect(text[text.indexOf('Valoare vânzări (RON)') + 1]).toBe('2.050,00 RON');
  });

  it('wraps a long asset name in its cell instead of cutting it', async () => {
    const long = 'Energie electrică ziua următoare, ora 01 (00:00-01:00)';
    const named = new Map([...assets, ['ESPOT-DA-H01', { ...assets.get('ESPOT-DA-H01')!, name: long }]]);
    const { pages } = await parsePdf(renderTransactionReport(report, transactions, 'ro', named));
    const text = pages[0]!;
    const start = text.findIndex((item) => item.startsWith('Energie electrică'));
    expect(start).toBeGreaterThan(0);
    let joined = text[start]!;
    let next = start + 1;
    while (joined.length < long.length && next < text.length) joined += ` ${text[next++]}`;
    expect(joined).toBe(long);
    expect(next - start).toBeGreaterThan(1); // on more than one line of its cell
    expect(text[next]).toBe('Cumpărare');
  });

  it('values a trade as the engine does: rounded up to the bani', async () => {
    const odd = [transaction(21, { buyer: 'RO-HIDRO', seller: 'X', price: 33_333, qty: 1, timestamp: '2026-11-24T08:00:00.000Z' })];
    const text = (await parsePdf(renderTransactionReport(report, odd, 'en', assets))).pages[0]!;
    // 333.33 × 0.1 = 33.333 → 33.34
    expect(text).toContain('33.34');
    expect(text).toContain('Value (RON)');
    expect(text).toEqual(expect.arrayContaining(['Transaction report', 'Buy', '0.1', '333.33', 'Page 1 of 1']));
  });

  it('says so when the client had no transaction that day', async () => {
    const text = (await parsePdf(renderTransactionReport(report, [transactions[3]!], 'en', assets))).pages[0]!;
    expect(text).toContain('No transactions on this day.');
    expect(text[text.indexOf('Transactions:') + 1]).toBe('0');
  });

  it('refuses to guess the decimals of an asset it does not know', () => {
    const unknown = [transaction(31, { assetId: 'NO-SUCH', buyer: 'RO-HIDRO', seller: 'X', price: 1, qty: 1, timestamp: '2026-11-24T08:00:00.000Z' })];
    expect(() => renderTransactionReport(report, unknown, 'ro', assets)).toThrow(/unknown asset NO-SUCH/);
  });

  it('is byte-identical for the same input, in any order of the transactions', () => {
    const first = renderTransactionReport(report, transactions, 'ro', assets);
    expect(renderTransactionReport(report, [...transactions].reverse(), 'ro', assets).equals(first)).toBe(true);
    expect(renderTransactionReport({ ...report, createdAt: '2026-11-24T18:00:01.000Z' }, transactions, 'ro', assets).equals(first)).toBe(false);
  });
});
