import { randomUUID } from 'node:crypto';
import { apiError, ExchangeError, WARRANTY_NOTICE_DAYS, type Warranty, type WarrantyInput, type WarrantyStatus } from '../../protocol/index.ts';
import type { CollateralRepository, WarrantyRecord } from '../store/collateral.repository.ts';
import type { Store } from '../store/store.ts';
import { bucharestInstant } from '../trading/engine-setup.ts';
import { bucharestDate } from '../trading/time.ts';
import type { ClearingNotifier } from './clearing-notifier.ts';

/** A calendar date moved by whole days. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** A warranty's status on `today`: it counts on days d with depositDate <= d < validityDate. */
export function warrantyStatus(warranty: Pick<WarrantyRecord, 'depositDate' | 'validityDate' | 'releasedAt'>, today: string): WarrantyStatus {
  if (warranty.releasedAt !== null) return 'released';
  if (today < warranty.depositDate) return 'pending';
  if (today >= warranty.validityDate) return 'expired';
  return 'active';
}

export interface CollateralServiceOptions {
  store: Store;
  repository: CollateralRepository;
  notifier: Pick<ClearingNotifier, 'notify' | 'alert'>;
  now: () => number;
  /** Called with the clients whose clearing limit may have changed (engine-funds.ts refreshes them). */
  onLimitChanged: (clientCodes: readonly string[]) => Promise<void>;
}

/**
 * Warranties (collateral): recorded, edited and released by the administrator; the holder is told
 * WARRANTY_NOTICE_DAYS before one stops counting. The notice check runs at start, after each change,
 * and at every Bucharest midnight (+1 min), when a warranty starts or stops counting, which is also
 * when the clearing limits are refreshed.
 */
export class CollateralService {
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> = Promise.resolve();
  private daily: Promise<void> = Promise.resolve();

  constructor(private readonly options: CollateralServiceOptions) {}

  today(): string {
    return bucharestDate(this.options.now());
  }

  toWire(record: WarrantyRecord): Warranty {
    return {
      clientWarrantyId: record.id,
      clientCode: record.clientCode,
      clientName: record.clientName,
      warrantyNumber: record.warrantyNumber,
      warrantyName: record.warrantyName,
      kind: record.kind,
      depositDate: record.depositDate,
      validityDate: record.validityDate,
      value: record.value,
      currency: record.currency,
      status: warrantyStatus(record, this.today()),
      releasedAt: record.releasedAt,
    };
  }

  async list(clientCodes: readonly string[] | null, range: { from?: string; to?: string }): Promise<Warranty[]> {
    const records = await this.options.repository.warranties(clientCodes);
    // A warranty is in a range when its validity span [depositDate, validityDate) meets it.
    return records.filter((record) => (range.to === undefined || record.depositDate <= range.to) && (range.from === undefined || record.validityDate > range.from)).map((record) => this.toWire(record));
  }

  private async validate(input: WarrantyInput): Promise<void> {
    if (input.validityDate <= input.depositDate) throw new ExchangeError(apiError('CLEARING_WARRANTY_DATES_INVALID', { depositDate: input.depositDate, validityDate: input.validityDate }));
    const clients = await this.options.store.reference.clients();
    if (!clients.some((client) => client.code === input.clientCode)) throw new ExchangeError(apiError('CLEARING_CLIENT_NOT_FOUND', { clientCode: input.clientCode }));
    // Limits are kept in the one clearing currency (every market of the exchange trades in it).
    const expected = (await this.options.store.reference.markets())[0]?.currency ?? 'RON';
    if (input.currency !== expected) throw new ExchangeError(apiError('CLEARING_WARRANTY_CURRENCY', { currency: input.currency, expected }));
  }

  async create(input: WarrantyInput): Promise<Warranty> {
    await this.validate(input);
    const id = `W-${randomUUID()}`;
    if (!(await this.options.repository.insertWarranty(id, input, new Date(this.options.now())))) {
      throw new ExchangeError(apiError('CLEARING_WARRANTY_DUPLICATE', { warrantyNumber: input.warrantyNumber }));
    }
    return this.changed(id, [input.clientCode]);
  }

  async update(id: string, input: WarrantyInput): Promise<Warranty> {
    const before = await this.existing(id);
    if (before.releasedAt !== null) throw new ExchangeError(apiError('CLEARING_WARRANTY_RELEASED', { clientWarrantyId: id }));
    await this.validate(input);
    const result = await this.options.repository.updateWarranty(id, input, new Date(this.options.now()));
    if (result === 'duplicate') throw new ExchangeError(apiError('CLEARING_WARRANTY_DUPLICATE', { warrantyNumber: input.warrantyNumber }));
    if (result === 'missing') throw new ExchangeError(apiError('CLEARING_WARRANTY_RELEASED', { clientWarrantyId: id }));
    return this.changed(id, [...new Set([before.clientCode, input.clientCode])]);
  }

  async release(id: string, by: string): Promise<Warranty> {
    const before = await this.existing(id);
    if (!(await this.options.repository.releaseWarranty(id, by, new Date(this.options.now())))) {
      throw new ExchangeError(apiError('CLEARING_WARRANTY_RELEASED', { clientWarrantyId: before.id }));
    }
    return this.changed(id, [before.clientCode]);
  }

  private async existing(id: string): Promise<WarrantyRecord> {
    const record = await this.options.repository.warranty(id);
    if (!record) throw new ExchangeError(apiError('CLEARING_WARRANTY_NOT_FOUND', { clientWarrantyId: id }));
    return record;
  }

  private async changed(id: string, clientCodes: readonly string[]): Promise<Warranty> {
    await this.options.onLimitChanged(clientCodes);
    await this.checkNotices();
    const at = new Date(this.options.now()).toISOString();
    for (const clientCode of clientCodes) this.options.notifier.notify({ kind: 'warranty', clientCode, marketId: null, sessionDate: null, at });
    return this.toWire((await this.options.repository.warranty(id))!);
  }

  /**
   * Notifies the holders of the warranties that stop counting within WARRANTY_NOTICE_DAYS, once per
   * validity date (notified_for). Serialised: two checks at once would not double a notice anyway
   * (markNotified is conditional), but would query twice.
   */
  checkNotices(): Promise<void> {
    this.checking = this.checking.then(async () => {
      const today = this.today();
      const due = await this.options.repository.warrantiesToNotify(today, addDays(today, WARRANTY_NOTICE_DAYS + 1));
      const at = new Date(this.options.now()).toISOString();
      for (const warranty of due) {
        if (!(await this.options.repository.markNotified(warranty.id, warranty.validityDate))) continue;
        this.options.notifier.alert(
          'warrantyExpiring',
          warranty.clientCode,
          { clientWarrantyId: warranty.id, warrantyNumber: warranty.warrantyNumber, validityDate: warranty.validityDate, value: warranty.value, currency: warranty.currency },
          at,
        );
      }
    });
    const result = this.checking;
    this.checking = result.catch(() => {});
    return result;
  }

  /** Checks now and after every Bucharest midnight; `daily` also refreshes every clearing limit. */
  start(daily: () => Promise<void>): void {
    const run = async () => {
      try {
        await daily();
        await this.checkNotices();
      } catch (error) {
        console.error('clearing: the daily warranty check failed:', error);
      }
    };
    const schedule = () => {
      const next = bucharestInstant(addDays(this.today(), 1), '00:01');
      this.timer = setTimeout(() => {
        this.daily = run().finally(() => {
          if (this.timer) schedule();
        });
      }, Math.max(1_000, next - this.options.now()));
      this.timer.unref();
    };
    this.daily = run();
    schedule();
  }

  /** Waits for the notice check under way. */
  async settled(): Promise<void> {
    await this.daily;
    await this.checking;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
