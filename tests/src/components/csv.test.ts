import { describe, expect, it } from 'vitest';
import { csvFileName, exchangeDate, toCsv } from '../../../src/components/csv.ts';

describe('CSV (RFC 4180, for Excel)', () => {
  it('starts with the UTF-8 BOM, ends records with CRLF and quotes only what needs it', () => {
    const text = toCsv(['Client', 'Note', 'Amount'], [
      ['RO-HIDRO', 'plată, „avans”', '1234.50'],
      ['RO-TERMO', 'he said "ok"', -12.5],
      ['RO-X', 'two\nlines', null],
      ['RO-Y', 'cr\rhere', undefined],
    ]);
    expect(text).toBe(
      '\uFEFFClient,Note,Amount\r\n' +
        'RO-HIDRO,"plată, „avans”",1234.50\r\n' +
        'RO-TERMO,"he said ""ok""",-12.5\r\n' +
        'RO-X,"two\nlines",\r\n' +
        'RO-Y,"cr\rhere",\r\n',
    );
    // Excel reads the diacritics from the bytes: EF BB BF, then UTF-8.
    const bytes = new TextEncoder().encode(text);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toContain('plată');
  });

  it('keeps a text a spreadsheet would run as a formula as text, but a negative amount as a number', () => {
    expect(toCsv(['a', 'b', 'c', 'd'], [['=HYPERLINK("x")', '+1+1', '-2400.00', '@SUM(A1)']])).toBe('\uFEFFa,b,c,d\r\n"\'=HYPERLINK(""x"")",\'+1+1,-2400.00,\'@SUM(A1)\r\n');
  });

  it('names the file by the tab and the exchange date (Bucharest), and reads instants as exchange dates', () => {
    // 22:30 UTC on 30 November is already 1 December in Bucharest (UTC+2).
    expect(csvFileName('warranties', new Date('2026-11-30T22:30:00.000Z'))).toBe('warranties-2026-12-01.csv');
    expect(exchangeDate('2026-06-30T21:30:00.000Z')).toBe('2026-07-01');
    expect(exchangeDate('2026-06-30T20:59:00.000Z')).toBe('2026-06-30');
    expect(exchangeDate('2026-06-30')).toBe('2026-06-30');
  });
});
