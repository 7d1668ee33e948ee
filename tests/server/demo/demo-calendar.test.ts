/**
 * The demo's calendar (server/demo/demo-calendar.ts): the fixture's dated products roll to the periods
 * listed on the day the demo is made, and stay exactly the fixture's up to their own limits.
 */
import { describe, expect, it } from 'vitest';
import { isoWeek, periodsToRoll, rollDatedAsset, romanianMonthOf } from '../../../server/demo/demo-calendar.ts';
import { demoAssetId, demoExchangeOn, readDemoExchange } from '../../../server/demo/demo-exchange.ts';

const fixture = readDemoExchange();
const template = (id: string) => fixture.assets.find((asset) => asset.id === id)!;
const on = (id: string, today: string) => rollDatedAsset(template(id), today);
const dates = (asset: ReturnType<typeof on>) => [asset.spec.deliveryStart, asset.spec.deliveryEnd, asset.spec.tradingStart, asset.spec.tradingEnd];

describe('the demo calendar', () => {
  it('lists the fixture as it is on 6 December 2026 and up to the forwards\' last trading day', () => {
    for (const today of ['2026-11-22', '2026-12-06', '2026-12-30']) {
      for (const asset of fixture.assets.filter((candidate) => candidate.spec.type !== 'week')) expect(rollDatedAsset(asset, today), `${asset.id} on ${today}`).toBe(asset);
    }
    for (const asset of fixture.assets) expect(rollDatedAsset(asset, '2026-12-06'), asset.id).toBe(asset);
    expect(demoExchangeOn(Date.parse('2026-12-06T10:00:00Z'))).toEqual(fixture);
  });

  it('rolls the month to the next one whose trading has not ended', () => {
    const february = on('GFWD-M-2027-01', '2026-12-31');
    expect(february).toMatchObject({ id: 'GFWD-M-2027-02', code: 'GFWD-M-2027-02', name: 'Gas February 2027', names: { ro: 'Gaze naturale februarie 2027', en: 'Gas February 2027' } });
    expect(dates(february)).toEqual(['2027-02-01', '2027-02-28', '2026-12-01', '2027-01-30']);
    expect(february.spec.documents).toEqual([
      { title: 'Contract specification', fileName: 'GFWD-M-2027-02-specification.pdf', url: '/session/api/assets/GFWD-M-2027-02/documents/GFWD-M-2027-02-specification.pdf' },
      { title: 'Trading rules', fileName: 'trading-rules.pdf', url: '/session/api/assets/GFWD-M-2027-02/documents/trading-rules.pdf' },
    ]);
    expect(on('GFWD-M-2027-01', '2027-01-15').id).toBe('GFWD-M-2027-02');
    expect(on('GFWD-M-2027-01', '2027-01-31').id).toBe('GFWD-M-2027-03');
    const august = on('EFWD-M-2027-01-BASE', '2027-07-01');
    expect(august).toMatchObject({ id: 'EFWD-M-2027-08-BASE', names: { ro: 'Energie electrică bandă august 2027', en: 'Power base August 2027' } });
    expect(dates(august)).toEqual(['2027-08-01', '2027-08-31', '2027-06-01', '2027-07-30']);
    // Every monthly product of the fixture rolls alike, so a forward and its CCP twin keep the same delivery.
    for (const id of ['GREL-M-2027-01', 'GBIL-M-2027-01', 'GCCP-M-2027-01', 'ECCP-M-2027-01']) expect(on(id, '2027-07-01').id).toBe(id.replace('2027-01', '2027-08'));
    expect(on('GCCP-M-2027-01', '2027-07-01').spec.deliveryStart).toBe(august.spec.deliveryStart);
  });

  it('rolls the quarter to the next one not started and the year to the next year, trading from the day the demo is made at the latest', () => {
    const q2 = on('GFWD-Q1-2027', '2027-01-15');
    expect(q2).toMatchObject({ id: 'GFWD-Q2-2027', names: { ro: 'Gaze naturale trimestrul 2 2027', en: 'Gas Q2 2027' } });
    expect(dates(q2)).toEqual(['2027-04-01', '2027-06-30', '2027-01-01', '2027-03-30']);
    expect(on('EFWD-Q1-2027-PEAK', '2027-07-01')).toMatchObject({ id: 'EFWD-Q4-2027-PEAK', names: { ro: 'Energie electrică vârf trimestrul 4 2027', en: 'Power peak Q4 2027' } });
    const year = on('GFWD-Y-2027', '2027-01-15');
    expect(year).toMatchObject({ id: 'GFWD-Y-2028', names: { ro: 'Gaze naturale anul calendaristic 2028', en: 'Gas calendar 2028' } });
    // The template's shape would start trading on 1 July 2027: listed from the day the demo is made instead.
    expect(dates(year)).toEqual(['2028-01-01', '2028-12-31', '2027-01-15', '2027-12-30']);
    expect(dates(on('GFWD-Y-2027', '2027-07-01'))).toEqual(['2028-01-01', '2028-12-31', '2027-07-01', '2027-12-30']);
  });

  it('rolls the PMC week to the week in delivery, across the year end', () => {
    expect(on('PMC-BASE-W49', '2026-12-07')).toMatchObject({ id: 'PMC-BASE-W50', names: { ro: 'PMC bandă săptămâna 50', en: 'PMC base week 50' } });
    expect(dates(on('PMC-BASE-W49', '2026-12-31'))).toEqual(['2026-12-28', '2027-01-03', '2026-12-14', '2026-12-25']);
    expect(on('PMC-PEAK-W49', '2026-12-31').id).toBe('PMC-PEAK-W53');
    const week2 = on('PMC-BASE-W49', '2027-01-15');
    expect(week2).toMatchObject({ id: 'PMC-BASE-W02', names: { ro: 'PMC bandă săptămâna 2', en: 'PMC base week 2' } });
    expect(dates(week2)).toEqual(['2027-01-11', '2027-01-17', '2026-12-28', '2027-01-08']);
    expect([isoWeek('2026-11-30'), isoWeek('2027-01-03'), isoWeek('2027-01-04'), isoWeek('2020-12-31'), isoWeek('2021-01-03')]).toEqual([49, 53, 1, 53, 53]);
  });

  it('never rolls backwards and leaves day and hour products alone', () => {
    expect(periodsToRoll('month', template('GFWD-M-2027-01').spec, '2025-03-01')).toBe(0);
    expect(periodsToRoll('quarter', template('GFWD-Q1-2027').spec, '2027-03-30')).toBe(1);
    expect(periodsToRoll('quarter', template('GFWD-Q1-2027').spec, '2027-03-31')).toBe(2);
    expect(periodsToRoll('year', template('GFWD-Y-2027').spec, '2028-12-30')).toBe(2);
    expect(periodsToRoll('year', template('GFWD-Y-2027').spec, '2028-12-31')).toBe(3);
    for (const id of ['GSPOT-DA', 'ESPOT-DA-H01', 'GBG-D']) expect(on(id, '2027-07-01')).toBe(template(id));
  });

  it('makes the demo exchange of a date with the rights that name dated products rolled too', () => {
    const now = Date.parse('2027-01-15T08:00:00Z');
    const exchange = demoExchangeOn(now);
    const ids = exchange.assets.map((asset) => asset.id);
    expect(ids).toHaveLength(fixture.assets.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id.includes('2027-01') || id.includes('Q1-2027') || id.includes('Y-2027') || id.endsWith('W49'))).toEqual([]);
    expect(exchange.clientClearing['RO-GAZEST']!.gasReleaseAssets).toEqual(['GREL-M-2027-02']);
    expect(demoAssetId('GFWD-M-2027-01', now)).toBe('GFWD-M-2027-02');
    expect(demoAssetId('GSPOT-DA', now)).toBe('GSPOT-DA');
    expect(() => demoAssetId('GFWD-M-1999-01', now)).toThrow(/no demo asset/);
    // Bucharest's day: 22:30 UTC on 30 December is 00:30 on the 31st there.
    expect(demoAssetId('GFWD-M-2027-01', Date.parse('2026-12-30T21:30:00Z'))).toBe('GFWD-M-2027-01');
    expect(demoAssetId('GFWD-M-2027-01', Date.parse('2026-12-30T22:30:00Z'))).toBe('GFWD-M-2027-02');
    expect(romanianMonthOf('2027-08-01')).toBe('august');
  });

  it('refuses a dated template whose id does not spell its period', () => {
    const odd = { ...template('GFWD-M-2027-01'), id: 'GFWD-FRONT-MONTH' };
    expect(() => rollDatedAsset(odd, '2027-07-01')).toThrow(/does not spell its month/);
  });
});
