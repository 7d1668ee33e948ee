import { describe, expect, it } from 'vitest';
import { renderMonthlySettlementSummary } from '../../../../server/clearing/documents/monthly-settlement-summary.ts';
import { monthlySummary } from './fixtures.ts';
import { parsePdf } from './pdf-text.ts';

const after = (items: string[], label: string) => items[items.indexOf(label) + 1];

describe('monthly settlement summary PDF', () => {
  const summary = monthlySummary({ clientCode: 'SIM-CARP-2', clientName: 'Simulator Carpați Doi SRL' });

  it("names the client and month and writes the month's figures, in ro", async () => {
    const pdf = renderMonthlySettlementSummary(summary, 'ro');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { pages, sizes, info } = await parsePdf(pdf);
    expect(sizes).toEqual([[595, 842]]); // A4 portrait
    const text = pages[0]!;
    expect(text).toEqual(expect.arrayContaining(['Bursa de energie și gaze naturale', 'Situație lunară de decontare', 'Simulator Carpați Doi SRL (SIM-CARP-2)', 'noiembrie 2026', 'Pagina 1 din 1']));
    expect(after(text, 'Note de decontare:')).toBe('19');
    expect(after(text, 'Marjă de variație')).toBe('1.234.567,89');
    expect(after(text, 'Valoare livrări')).toBe('-45.000,00');
    expect(after(text, 'Comisioane bursă')).toBe('1.250,75');
    expect(after(text, 'Comisioane bancare')).toBe('300,00');
    expect(after(text, 'De plătit')).toBe('46.550,75 RON');
    expect(after(text, 'De încasat')).toBe('1.234.567,89 RON');
    expect(after(text, 'Plătit')).toBe('40.000,00 RON');
    expect(after(text, 'Încasat')).toBe('1.000.000,00 RON');
    expect(after(text, 'Neplătit')).toBe('6.550,75 RON');
    // No time of its own in the row: the month's first instant, so the same summary gives the same file.
    expect(info.CreationDate).toBe('D:20261101000000Z');
  });

  it('writes the figures in en formats', async () => {
    const text = (await parsePdf(renderMonthlySettlementSummary(summary, 'en'))).pages[0]!;
    expect(text).toEqual(expect.arrayContaining(['Energy and gas exchange', 'Monthly settlement summary', 'November 2026', 'Page 1 of 1']));
    expect(after(text, 'Variation margin')).toBe('1,234,567.89');
    expect(after(text, 'Unpaid')).toBe('6,550.75 RON');
  });

  it('is byte-identical for the same input', () => {
    const first = renderMonthlySettlementSummary(summary, 'ro');
    expect(renderMonthlySettlementSummary(summary, 'ro').equals(first)).toBe(true);
    expect(renderMonthlySettlementSummary({ ...summary, unpaid: summary.unpaid + 1 }, 'ro').equals(first)).toBe(false);
  });
});
