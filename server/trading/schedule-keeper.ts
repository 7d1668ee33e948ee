import type { Market } from '../../protocol/index.ts';
import { marketConfigOf, SCHEDULE_DAYS, type SessionTimetables } from './engine-setup.ts';
import type { Sequencer } from './sequencer.ts';

const DAY_MS = 86_400_000;

export interface ScheduleKeeperOptions {
  sequencer: Sequencer;
  /** The markets as the store has them now (read at every check: a market added later gets a schedule too). */
  markets: () => Promise<Market[]>;
  timetables: SessionTimetables;
  now: () => number;
  /** A schedule ending sooner than this is renewed (default: a week short of the SCHEDULE_DAYS it is given). */
  renewWithinMs?: number;
  /**
   * No renewal while a market has a phase due within this margin: a market's configuration skips the
   * schedule entries already past at its own time, so one due between the last tick and the renewal
   * would be lost (default 60 s; the next check tries again).
   */
  quietMarginMs?: number;
}

/**
 * Keeps every market's session schedule ahead of the clock for a server that runs for months: the
 * engine gets SCHEDULE_DAYS of timetable at each start, and this renews it (a journaled upsertMarket
 * with the schedule from now on) once it ends within `renewWithinMs`.
 */
export class ScheduleKeeper {
  private timer: NodeJS.Timeout | null = null;
  private readonly renewWithinMs: number;
  private readonly quietMarginMs: number;

  constructor(private readonly options: ScheduleKeeperOptions) {
    this.renewWithinMs = options.renewWithinMs ?? (SCHEDULE_DAYS - 7) * DAY_MS;
    this.quietMarginMs = options.quietMarginMs ?? 60_000;
  }

  /** Checks every `intervalMs` (default hourly); the timer never keeps the process alive. */
  start(intervalMs = 3_600_000): void {
    this.stop();
    this.timer = setInterval(() => void this.check().catch((error: unknown) => console.error('session schedule renewal failed:', error)), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Renews the schedules that end too soon and can be renewed now; resolves with their market ids. */
  async check(): Promise<string[]> {
    const { timetables, sequencer, now } = this.options;
    if (timetables === null) return [];
    const renewed: string[] = [];
    for (const market of await this.options.markets()) {
      // The engine's time, which never goes back (the sequencer stamps max(now, engine clock)): after
      // the wall clock jumps back, the quiet margin and the renewal are judged on the time the
      // renewal will be stamped with, so no phase due meanwhile is skipped and none comes twice.
      const at = Math.max(now(), sequencer.engine.clock);
      const end = sequencer.engine.getScheduleEnd(market.id);
      if (end !== null && end > at + this.renewWithinMs) continue;
      const due = sequencer.engine.getNextScheduledPhase(market.id, Number.NEGATIVE_INFINITY);
      if (due !== null && due.at <= at + this.quietMarginMs) continue;
      const result = await sequencer.submit({ type: 'upsertMarket', market: marketConfigOf(market, at, timetables) });
      if (result.result === 'OK') renewed.push(market.id);
    }
    return renewed;
  }
}
