import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderDailySettlementNote } from '../../../../server/clearing/documents/daily-settlement-note.ts';
import { dailyNote, noteLine } from './fixtures.ts';
import { parsePdf } from './pdf-text.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('daily settlement note PDF', () => {
  const note = dailyNote(
    [
      noteLine(1, { assetName: 'Gaze zilnic ș', variationMargin: 123_456, fees: 1_234 }),
      noteLine(2, { assetName: 'Energie bandă ț', variationMargin: -2_500_000_00, deliveryValue: -75_000_00, fees: 99, settlementPrice: null }),
    ],
    { clientName: 'Simulator Carpați Unu SRL — Țară Științe ĂÂÎ' },
  );

  it('is an A4 PDF naming the exchange, the client and code, the date and the issue time in EET', async () => {
    const pdf = renderDailySettlementNote(note, 'ro');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { pages, sizes, info } = await parsePdf(pdf);
    expect(pages).toHaveLength(1);
    expect(sizes).toEqual([[842, 595]]); // A4 landscape
    // The face is embedded from the package (a subset, "ABCDEF+DejaVuSans"), never left to the reader's fonts.
    const dictionaries = pdf.toString('latin1');
    expect(dictionaries).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
    expect(dictionaries).toContain('/FontFile2');
    const text = pages[0]!;
    expect(text).toEqual(expect.arrayContaining([
      'Bursa de energie și gaze naturale',
      'Notă zilnică de decontare',
      'Simulator Carpați Unu SRL — Țară Științe ĂÂÎ (SIM-CARP-1)',
      '24.11.2026',
      '24.11.2026 19:05:12 EET',
      'GAS-FWD',
      'Pagina 1 din 1',
    ]));
    expect(info.CreationDate).toBe('D:20261124170512Z');
  });

  it('extracts the Romanian diacritics back as comma-below letters, not the cedilla look-alikes', async () => {
    const text = (await parsePdf(renderDailySettlementNote(note, 'ro'))).pages.flat().join('\n');
    for (const letter of ['ă', 'â', 'î', 'ș', 'ț', 'Ă', 'Â', 'Î', 'Ș', 'Ț']) expect(text, letter).toContain(letter);
    expect(text).not.toMatch(/[şţŞŢ]/);
    expect(text).toContain('Gaze zilnic ș (GFWD-D-001)');
    expect(text).toContain('Energie bandă ț (GFWD-D-002)');
  });

  it("writes each line's figures with their decimals and the note's totals, in ro and en formats", async () => {
    const ro = (await parsePdf(renderDailySettlementNote(note, 'ro'))).pages[0]!;
    // Line 2: quantities with one decimal, prices with two, a missing settlement price as a dash.
    expect(ro).toEqual(expect.arrayContaining(['20,0', '5,0', '2,0', '23,0', '120,02', '—', '-2.500.000,00', '-75.000,00', '0,99']));
    // The totals row and the totals block are the note's own figures.
    expect(note.variationMargin).toBe(123_456 - 2_500_000_00);
    expect(ro).toEqual(expect.arrayContaining(['Total', '-2.498.765,44', '-75.000,00', '13,33']));
    expect(ro).toEqual(expect.arrayContaining(['-2.498.765,44 RON', '-75.000,00 RON', '13,33 RON', '15,00 RON']));
    const toPay = ro[ro.indexOf('De plătit') + 1];
    expect(toPay).toBe('2.573.793,77 RON');
    expect(note.toPay).toBe(2_498_765_44 + 75_000_00 + 13_33 + 1_500);
    expect(ro[ro.indexOf('De încasat') + 1]).toBe('0,00 RON');

    const en = (await parsePdf(renderDailySettlementNote(note, 'en'))).pages[0]!;
    expect(en).toEqual(expect.arrayContaining(['Energy and gas exchange', 'Daily settlement note', '24 Nov 2026 19:05:12 EET', 'Page 1 of 1']));
    expect(en[en.indexOf('To pay') + 1]).toBe('2,573,793.77 RON');
    expect(en).toEqual(expect.arrayContaining(['1,234.56', '-2,500,000.00', '120.02']));
  });

  it('runs a note of 80 lines over several pages, the header row and page numbers on each', async () => {
    const long = dailyNote(Array.from({ length: 80 }, (_, index) => noteLine(index + 1)));
    const { pages } = await parsePdf(renderDailySettlementNote(long, 'ro'));
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, index) => expect(page).toContain(`Pagina ${index + 1} din ${pages.length}`));
    // Every line once, in order, each table page under its own header row.
    const assets = pages.flat().filter((item) => /^Gaze zi \d+ \(/.test(item));
    expect(assets).toEqual(long.lines.map((line) => `${line.assetName} (${line.assetId})`));
    const tablePages = pages.filter((page) => page.some((item) => item.startsWith('Gaze zi ')));
    expect(tablePages.length).toBeGreaterThan(1);
    for (const page of tablePages) expect(page.filter((item) => item === 'Activ')).toHaveLength(1);
    const all = pages.flat();
    expect(all[all.indexOf('Total') + 1]).toBe('-832,40');
  });

  it('is byte-identical for the same input, whatever was rendered in between, and differs when the data does', () => {
    const first = renderDailySettlementNote(note, 'ro');
    renderDailySettlementNote(dailyNote([noteLine(7)]), 'en');
    const second = renderDailySettlementNote(note, 'ro');
    expect(sha256(second)).toBe(sha256(first));
    expect(second.equals(first)).toBe(true);
    expect(renderDailySettlementNote({ ...note, createdAt: '2026-11-24T17:05:13.000Z' }, 'ro').equals(first)).toBe(false);
    expect(renderDailySettlementNote(note, 'en').equals(first)).toBe(false);
  });

  it('says so when the client had no position that day', async () => {
    const empty = dailyNote([]);
    const { pages } = await parsePdf(renderDailySettlementNote(empty, 'en'));
    expect(pages[0]).toContain('No positions on this day.');
    expect(pages[0]![pages[0]!.indexOf('To pay') + 1]).toBe('15.00 RON');
  });
});
