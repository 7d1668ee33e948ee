import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destinations, type PhaseUpdate } from '../../../protocol/index.ts';
import { bucharestInstant, marketSchedule, sessionTimetables } from '../../../server/trading/engine-setup.ts';
import { connectCollector, type CollectingClient } from '../../helpers/stomp-test-client.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const iso = (ms: number) => new Date(ms).toISOString();

describe('daily session schedule', () => {
  it('turns Bucharest wall-clock times into instants across the EET/EEST change', () => {
    // 29 March 2026: clocks go from 03:00 EET to 04:00 EEST.
    expect(iso(bucharestInstant('2026-03-29', '00:00'))).toBe('2026-03-28T22:00:00.000Z');
    expect(iso(bucharestInstant('2026-03-29', '23:40'))).toBe('2026-03-29T20:40:00.000Z');
    expect(iso(bucharestInstant('2026-10-25', '23:40'))).toBe('2026-10-25T21:40:00.000Z');
  });

  it('gives every day its opening (with the session date), trading, closing and closed, oldest first', () => {
    const now = Date.parse('2026-11-22T09:00:00Z');
    const schedule = marketSchedule(sessionTimetables.spot, now, 2);
    expect(schedule.map((entry) => [iso(entry.at), entry.phase, entry.sessionDate ?? null])).toEqual([
      ['2026-11-21T22:00:00.000Z', 'opening', '2026-11-22'],
      ['2026-11-21T22:10:00.000Z', 'trading', null],
      ['2026-11-22T21:40:00.000Z', 'closing', null],
      ['2026-11-22T21:50:00.000Z', 'closed', null],
      ['2026-11-22T22:00:00.000Z', 'opening', '2026-11-23'],
      ['2026-11-22T22:10:00.000Z', 'trading', null],
      ['2026-11-23T21:40:00.000Z', 'closing', null],
      ['2026-11-23T21:50:00.000Z', 'closed', null],
    ]);
  });
});

describe('next phase on /topic/phase', () => {
  let t: TestServer;
  let watcher: CollectingClient;
  const market = 'GAS-SPOT';

  beforeAll(async () => {
    t = await startTestServer({ tickIntervalMs: 0, timetables: sessionTimetables });
    watcher = await connectCollector(t.server.port, await t.login('admin'));
  });
  async function renewWatcher(): Promise<void> {
    await watcher.close();
    watcher = await connectCollector(t.server.port, await t.login('admin'));
  }
  afterAll(async () => {
    await watcher?.close();
    await t?.server.close();
  });

  it('sends the next scheduled phase on subscribe and, after each scheduled change, the one after it', async () => {
    // The market's schedule as the server configures it from the timetable, at the test's clock.
    const now = t.clock.now();
    const schedule = marketSchedule(sessionTimetables.spot, now, 2);
    await t.server.sequencer.submit({ type: 'upsertMarket', market: { marketId: market, currency: 'RON', schedule } });
    const closing = schedule.find((entry) => entry.phase === 'closing' && entry.at > now)!;
    const closed = schedule.find((entry) => entry.phase === 'closed' && entry.at > now)!;
    const opening = schedule.find((entry) => entry.phase === 'opening' && entry.at > now)!;

    await watcher.subscribe(destinations.phase(market));
    const onSubscribe = await watcher.waitFor<PhaseUpdate>(destinations.phase(market), (messages) => messages.length >= 1);
    expect(onSubscribe[0]).toMatchObject({ marketId: market, assetId: null, phase: 'trading', nextPhase: 'closing', nextPhaseAt: iso(closing.at) });

    // The clock reaches the closing: the tick applies it and the update names the closed phase next.
    t.clock.advance(closing.at - t.clock.now());
    await t.server.sequencer.submit({ type: 'tick' });
    const afterClosing = await watcher.waitFor<PhaseUpdate>(destinations.phase(market), (messages) => messages.some((m) => m.phase === 'closing'));
    expect(afterClosing.find((m) => m.phase === 'closing' && m.assetId === null)).toMatchObject({ nextPhase: 'closed', nextPhaseAt: iso(closed.at) });

    t.clock.advance(closed.at - t.clock.now());
    await t.server.sequencer.submit({ type: 'tick' });
    const afterClosed = await watcher.waitFor<PhaseUpdate>(destinations.phase(market), (messages) => messages.some((m) => m.phase === 'closed'));
    expect(afterClosed.find((m) => m.phase === 'closed' && m.assetId === null)).toMatchObject({ nextPhase: 'opening', nextPhaseAt: iso(opening.at) });

    // A late subscriber gets the same next phase with the current one.
    const late = await connectCollector(t.server.port, await t.login('broker1'));
    try {
      await late.subscribe(destinations.phase(market));
      const current = await late.waitFor<PhaseUpdate>(destinations.phase(market), (messages) => messages.length >= 1);
      expect(current[0]).toMatchObject({ phase: 'closed', nextPhase: 'opening', nextPhaseAt: iso(opening.at) });
    } finally {
      await late.close();
    }
  });

  it('says null when nothing more is scheduled', async () => {
    // The clock moved past the first watcher's token: its session has ended (issue 13, item 6).
    await renewWatcher();
    await t.server.sequencer.submit({ type: 'upsertMarket', market: { marketId: 'EL-SPOT', currency: 'RON', schedule: [] } });
    await watcher.subscribe(destinations.phase('EL-SPOT'));
    const messages = await watcher.waitFor<PhaseUpdate>(destinations.phase('EL-SPOT'), (list) => list.length >= 1);
    expect(messages[0]).toMatchObject({ marketId: 'EL-SPOT', nextPhase: null, nextPhaseAt: null });
  });

  it('configures the demo markets with a schedule at start, so a phase always has a next change', async () => {
    await watcher.subscribe(destinations.phase('GAS-FWD'));
    const messages = await watcher.waitFor<PhaseUpdate>(destinations.phase('GAS-FWD'), (list) => list.length >= 1);
    expect(messages[0]!.nextPhase).toMatch(/^(opening|trading|closing|closed)$/);
    expect(Date.parse(messages[0]!.nextPhaseAt!)).toBeGreaterThan(t.clock.now() - 60_000);
  });
});
