import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Market } from '../../../protocol/index.ts';
import { bucharestInstant, marketConfigOf, SCHEDULE_DAYS, sessionTimetables } from '../../../server/trading/engine-setup.ts';
import { ScheduleKeeper } from '../../../server/trading/schedule-keeper.ts';
import { Sequencer } from '../../../server/trading/sequencer.ts';

const DAY = 86_400_000;
const market = { id: 'GAS-SPOT', kind: 'spot', currency: 'RON' } as Market;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function exchangeAt(start: number) {
  const dir = mkdtempSync(join(tmpdir(), 'schedule-keeper-'));
  dirs.push(dir);
  const clock = { now: start };
  const { sequencer } = await Sequencer.open({ journalDir: dir, now: () => clock.now, tickIntervalMs: 0 });
  await sequencer.submit({ type: 'upsertMarket', market: marketConfigOf(market, start) });
  const keeper = new ScheduleKeeper({ sequencer, markets: async () => [market], timetables: sessionTimetables, now: () => clock.now });
  /** Moves the clock, one tick per hour as the server's ticks would apply the phases. */
  const advance = async (ms: number) => {
    const end = clock.now + ms;
    while (clock.now < end) {
      clock.now = Math.min(end, clock.now + 3_600_000);
      await sequencer.submit({ type: 'tick' });
    }
  };
  return { sequencer, keeper, clock, advance };
}

describe('ScheduleKeeper', () => {
  it('leaves a fresh schedule alone, and renews one that ends within a week from now on', async () => {
    const start = Date.parse('2026-11-25T09:00:00Z');
    const { sequencer, keeper, clock, advance } = await exchangeAt(start);
    const firstEnd = sequencer.engine.getScheduleEnd(market.id)!;
    expect(firstEnd).toBeGreaterThan(start + (SCHEDULE_DAYS - 1) * DAY);
    expect(await keeper.check()).toEqual([]);

    await advance(25 * DAY);
    expect(sequencer.engine.getMarketPhase(market.id)).toMatchObject({ phase: 'trading', sessionDate: '2026-12-20' });
    expect(await keeper.check()).toEqual([market.id]);
    const renewedEnd = sequencer.engine.getScheduleEnd(market.id)!;
    expect(renewedEnd).toBeGreaterThan(clock.now + (SCHEDULE_DAYS - 1) * DAY);
    // The phase of the moment is kept; the next one is still the same day's closing.
    expect(sequencer.engine.getMarketPhase(market.id)).toMatchObject({ phase: 'trading', sessionDate: '2026-12-20' });
    expect(sequencer.engine.getNextScheduledPhase(market.id, clock.now)).toMatchObject({ at: bucharestInstant('2026-12-20', '23:40'), phase: 'closing' });
    expect(await keeper.check()).toEqual([]);

    // Past the first schedule's end the days go on opening with their session dates.
    await advance(firstEnd - clock.now + 2 * DAY);
    expect(sequencer.engine.getMarketPhase(market.id)?.sessionDate).toBe(new Date(clock.now + 2 * 3_600_000).toISOString().slice(0, 10));
    await sequencer.close();
  });

  it('waits while a phase is due within its margin, so no scheduled phase is skipped', async () => {
    const start = Date.parse('2026-11-25T09:00:00Z');
    const { sequencer, keeper, clock, advance } = await exchangeAt(start);
    await advance(25 * DAY);
    // 30 s before the 23:40 Bucharest closing of 20 December.
    const closing = bucharestInstant('2026-12-20', '23:40');
    clock.now = closing - 30_000;
    expect(await keeper.check()).toEqual([]);
    clock.now = closing + 1_000;
    await sequencer.submit({ type: 'tick' });
    expect(sequencer.engine.getMarketPhase(market.id)?.phase).toBe('closing');
    expect(await keeper.check()).toEqual([market.id]);
    await sequencer.close();
  });
});
