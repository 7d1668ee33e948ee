import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetSpecification } from '../../../protocol/index.ts';
import { readDemoExchange } from '../../../server/demo/demo-exchange.ts';
import { addDays, rollingPeriods } from '../../../server/trading/asset-periods.ts';
import { sessionTimetables } from '../../../server/trading/engine-setup.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const demoAssets = readDemoExchange().assets;
const demoAsset = (id: string) => demoAssets.find((asset) => asset.id === id)!;

describe('rolling periods', () => {
  it('adds calendar days across months, years and clock changes', () => {
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
    expect(addDays('2026-11-22', 0)).toBe('2026-11-22');
  });

  it('day-ahead delivers the day after its session, within-day on it; fixed-period assets keep their dates', () => {
    expect(rollingPeriods(demoAsset('GSPOT-DA'), '2027-02-28')).toEqual({ tradingStart: '2027-02-28', tradingEnd: '2027-02-28', deliveryStart: '2027-03-01', deliveryEnd: '2027-03-01' });
    expect(rollingPeriods(demoAsset('GSPOT-WD'), '2027-02-28')).toEqual({ tradingStart: '2027-02-28', tradingEnd: '2027-02-28', deliveryStart: '2027-02-28', deliveryEnd: '2027-02-28' });
    expect(rollingPeriods(demoAsset('GFWD-M-2027-01'), '2027-02-28')).toBeNull();
    // No session yet (the engine's empty date): the stored periods stand.
    expect(rollingPeriods(demoAsset('GSPOT-DA'), '')).toBeNull();
  });

  it('every spot and balancing-group day or hour asset of the demo rolls', () => {
    const daily = demoAssets.filter((asset) => ['GAS-SPOT', 'EL-SPOT', 'GAS-BG'].includes(asset.marketId) && ['day', 'hour'].includes(asset.spec.type));
    expect(daily.length).toBeGreaterThan(25);
    expect(daily.filter((asset) => rollingPeriods(asset, '2027-01-10') === null).map((asset) => asset.id)).toEqual([]);
  });
});

describe('served periods follow the session date', () => {
  let t: TestServer;
  let token: string;
  // 27 February 2027, 11:00 in Bucharest: far from the fixture's dates, a day before a month ends.
  beforeAll(async () => {
    t = await startTestServer({ timetables: sessionTimetables, tickIntervalMs: 0 }, Date.parse('2027-02-27T09:00:00Z'));
    token = await t.login('broker1');
  });
  afterAll(async () => {
    await t?.server.close();
  });

  const asset = async (id: string) => (await t.get(`/assets/${id}`, token)).body as AssetSpecification;
  const periods = (spec: AssetSpecification) => [spec.tradingStart, spec.tradingEnd, spec.deliveryStart, spec.deliveryEnd];

  it('serves the periods of the current session, and the next ones once the schedule opens the next session', async () => {
    expect(t.server.sequencer.engine.getMarketPhase('GAS-SPOT')?.sessionDate).toBe('2027-02-27');
    expect(periods(await asset('GSPOT-DA'))).toEqual(['2027-02-27', '2027-02-27', '2027-02-28', '2027-02-28']);
    expect(periods(await asset('GSPOT-WD'))).toEqual(['2027-02-27', '2027-02-27', '2027-02-27', '2027-02-27']);
    expect(periods(await asset('ESPOT-DA-H01'))).toEqual(['2027-02-27', '2027-02-27', '2027-02-28', '2027-02-28']);
    const list = (await t.get('/assets', token)).body.assets as AssetSpecification[];
    expect(periods(list.find((spec) => spec.id === 'GBG-D')!)).toEqual(['2027-02-27', '2027-02-27', '2027-02-28', '2027-02-28']);
    // A forward keeps its contract's periods: the month the demo listed when it was made (server/demo/demo-calendar.ts), March, traded to 27 February.
    expect(periods(await asset('GFWD-M-2027-03'))).toEqual(['2027-01-01', '2027-02-27', '2027-03-01', '2027-03-31']);

    // 00:00:30 on 28 February in Bucharest: the schedule's opening starts the next session.
    t.clock.advance(Date.parse('2027-02-27T22:00:30Z') - t.clock.now());
    await t.server.sequencer.submit({ type: 'tick' });
    expect(t.server.sequencer.engine.getMarketPhase('GAS-SPOT')).toEqual({ phase: 'opening', sessionDate: '2027-02-28' });
    token = await t.login('broker1');
    expect(periods(await asset('GSPOT-DA'))).toEqual(['2027-02-28', '2027-02-28', '2027-03-01', '2027-03-01']);
    expect(periods(await asset('GSPOT-WD'))).toEqual(['2027-02-28', '2027-02-28', '2027-02-28', '2027-02-28']);
  });

  it('puts the current periods in the asset documents too', async () => {
    const response = await fetch(`${t.api}/assets/GSPOT-DA/documents/GSPOT-DA-specification.pdf`);
    expect(response.status).toBe(200);
    const text = Buffer.from(await response.arrayBuffer()).toString('latin1');
    expect(text).toContain('Delivery period: 2027-03-01 to 2027-03-01');
  });
});
