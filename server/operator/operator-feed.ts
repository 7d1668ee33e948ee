import type { SettlementRun } from '../../protocol/clearing.ts';
import { destinations } from '../../protocol/destinations.ts';
import { OPERATOR_HEALTH_INTERVAL_MS, type ConnectedUser, type OperatorMarket, type OperatorSnapshot } from '../../protocol/operator.ts';
import type { Participant } from '../../protocol/participants.ts';
import type { Market } from '../../protocol/reference.ts';
import type { Principal, StompGateway } from '../gateway/stomp-gateway.ts';
import type { AssetRecord } from '../store/reference.repository.ts';
import type { SessionTimetables } from '../trading/engine-setup.ts';
import type { Sequencer } from '../trading/sequencer.ts';
import { scheduledPhaseAt } from './market-phases.ts';

export interface OperatorFeedOptions {
  sequencer: Pick<Sequencer, 'engine' | 'lastJournalSeq' | 'orderCommands' | 'journalSyncP99Ms' | 'lastSnapshot' | 'onEvents'>;
  gateway: Pick<StompGateway, 'sendToUser' | 'stats' | 'sessions' | 'subscriberCount'>;
  /** Markets and assets with their names (the store's reference data). */
  reference: { markets(): Promise<Market[]>; assets(): Promise<AssetRecord[]> };
  /** Clients and brokers with their suspension (server/participants/). */
  participants: () => Promise<Participant[]>;
  /** Journal records the read models have not written yet. */
  readModelBehindBy: () => number;
  /** The newest settlement run of each market. */
  lastSettlementRuns: () => Promise<SettlementRun[]>;
  /** Clients with a margin call now, in the currency's minor units. */
  openMarginCalls: () => Array<{ clientCode: string; amount: number; currency: string }>;
  /** Display names of users (connected users show them); unknown ids show the username. */
  userNames: () => Promise<ReadonlyMap<string, string>>;
  timetables: SessionTimetables;
  now: () => number;
  /** Ms between snapshots for the health figures while an administrator listens (default OPERATOR_HEALTH_INTERVAL_MS). */
  intervalMs?: number;
  /** Ms a change waits for the ones right behind it (a market's phase comes with each of its assets'). Default 50. */
  changeDelayMs?: number;
  /** A monotonic clock for the rates (default performance.now). */
  monotonic?: () => number;
}

/** Rates from a running total: the difference of two readings at least a second apart. */
class RateSampler {
  private rate = 0;
  private lastAt: number;

  constructor(
    private lastCount: number,
    at: number,
  ) {
    this.lastAt = at;
  }

  read(count: number, at: number): number {
    const elapsed = at - this.lastAt;
    if (elapsed >= 1000) {
      this.rate = Math.round(((count - this.lastCount) * 10_000) / elapsed) / 10;
      this.lastCount = count;
      this.lastAt = at;
    }
    return Math.max(0, this.rate);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The operator console's live picture (issue 16): builds the OperatorSnapshot from the engine, the
 * gateway's counters, the journal, the read models and clearing, and publishes it on
 * /user/queue/operator: in full to a new subscriber, then to every listening administrator after a
 * phase, participant or settlement change (`changed`) and every `intervalMs` for the health figures,
 * only while someone is subscribed.
 */
export class OperatorFeed {
  /** Administrators who subscribed (a send to one no longer subscribed costs a map lookup). */
  private readonly listeners = new Set<string>();
  /** When each market entered its current phase, as seen by this server. */
  private readonly since = new Map<string, number>();
  private readonly startedAt: number;
  private readonly orders: RateSampler;
  private readonly messages: RateSampler;
  private readonly monotonic: () => number;
  private names: ReadonlyMap<string, string> = new Map();
  private interval: NodeJS.Timeout | null = null;
  private changeTimer: NodeJS.Timeout | null = null;
  private publishing: Promise<void> | null = null;
  private publishAgain = false;
  private stopListening: (() => void) | null = null;
  private closed = false;

  constructor(private readonly options: OperatorFeedOptions) {
    this.startedAt = options.now();
    this.monotonic = options.monotonic ?? (() => performance.now());
    const at = this.monotonic();
    this.orders = new RateSampler(options.sequencer.orderCommands, at);
    this.messages = new RateSampler(options.gateway.stats().messagesSent, at);
  }

  /** Follows the engine's phase changes (call once the sequencer runs). */
  start(): void {
    this.stopListening = this.options.sequencer.onEvents((events) => {
      let phaseChanged = false;
      for (const event of events) {
        if (event.type !== 'phase') continue;
        phaseChanged = true;
        if (event.assetId === null) this.since.set(event.marketId, event.at);
      }
      if (phaseChanged) this.changed();
    });
  }

  /** The gateway's onSubscribe hook: true when it was the operator queue (a snapshot is on its way). */
  onSubscribe = (principal: Principal, destination: string, reply: (body: unknown) => void): boolean => {
    if (destination !== destinations.operator) return false;
    // The gateway lets administrators alone subscribe; checked again, the queue carries the whole exchange.
    if (!principal.roles.includes('administrator')) return true;
    this.listeners.add(principal.userId);
    this.ensureInterval();
    this.snapshot().then(reply, (error: unknown) => console.error('operator snapshot failed:', error));
    return true;
  };

  /** A phase, participant or settlement changed: a new snapshot goes out shortly (if anyone listens). */
  changed = (): void => {
    if (this.closed || this.changeTimer !== null || !this.listening()) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = null;
      this.publish();
    }, this.options.changeDelayMs ?? 50);
    this.changeTimer.unref();
  };

  /** The picture now (GET /admin/operator and every publication). */
  async snapshot(): Promise<OperatorSnapshot> {
    const { options } = this;
    const now = options.now();
    const [markets, participants, connectedUsers, lastRuns] = await Promise.all([
      this.markets(now),
      options.participants(),
      this.connectedUsers(),
      options.lastSettlementRuns(),
    ]);
    const stats = options.gateway.stats();
    const at = this.monotonic();
    const { sequencer } = options;
    const lastSnapshot = sequencer.lastSnapshot;
    const p99 = sequencer.journalSyncP99Ms();
    return {
      at: iso(now),
      markets,
      participants,
      connectedUsers,
      gateway: {
        connections: stats.connections,
        subscriptions: stats.subscriptions,
        slowConsumersDropped: stats.slowConsumersDropped,
        messagesPerSecond: this.messages.read(stats.messagesSent, at),
      },
      engine: {
        ordersPerSecond: this.orders.read(sequencer.orderCommands, at),
        journalSyncP99Ms: p99 === null ? null : Math.round(p99 * 1000) / 1000,
        journalLastSeq: sequencer.lastJournalSeq,
        readModelBehindBy: options.readModelBehindBy(),
        lastSnapshotAt: lastSnapshot?.at == null ? null : iso(lastSnapshot.at),
        lastSnapshotSeq: lastSnapshot?.seq ?? null,
      },
      clearing: {
        lastRuns: lastRuns.map((run) => ({ marketId: run.marketId, sessionDate: run.sessionDate, status: run.status, finishedAt: run.completedAt })),
        openMarginCalls: options.openMarginCalls(),
      },
    };
  }

  close(): void {
    this.closed = true;
    this.stopListening?.();
    if (this.interval) clearInterval(this.interval);
    if (this.changeTimer) clearTimeout(this.changeTimer);
    this.interval = this.changeTimer = null;
  }

  /** Resolves once a publication under way has gone out (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.publishing) await this.publishing;
  }

  private listening(): boolean {
    return this.listeners.size > 0 && this.options.gateway.subscriberCount(destinations.operator) > 0;
  }

  private ensureInterval(): void {
    if (this.interval !== null || this.closed) return;
    this.interval = setInterval(() => {
      if (this.listening()) this.publish();
      else {
        // Nobody listens: no work until the next subscription.
        clearInterval(this.interval!);
        this.interval = null;
      }
    }, this.options.intervalMs ?? OPERATOR_HEALTH_INTERVAL_MS);
    this.interval.unref();
  }

  /** Builds one snapshot and sends it to every listening administrator; a request meanwhile makes one more. */
  private publish(): void {
    if (this.closed) return;
    if (this.publishing) {
      this.publishAgain = true;
      return;
    }
    this.publishing = this.snapshot()
      .then((snapshot) => {
        if (this.closed) return;
        for (const userId of this.listeners) this.options.gateway.sendToUser(userId, destinations.operator, snapshot);
      })
      .catch((error: unknown) => console.error('operator snapshot failed:', error))
      .finally(() => {
        this.publishing = null;
        if (this.publishAgain) {
          this.publishAgain = false;
          this.publish();
        }
      });
  }

  private async markets(now: number): Promise<OperatorMarket[]> {
    const { engine } = this.options.sequencer;
    const [markets, assets] = await Promise.all([this.options.reference.markets(), this.options.reference.assets()]);
    const out: OperatorMarket[] = [];
    for (const market of markets) {
      const state = engine.getMarketPhase(market.id);
      if (state === undefined) continue;
      const next = engine.getNextScheduledPhase(market.id, now);
      out.push({
        marketId: market.id,
        name: market.name,
        phase: state.phase,
        sessionDate: state.sessionDate,
        since: iso(this.sinceOf(market, state.phase)),
        nextPhase: next?.phase ?? null,
        nextPhaseAt: next ? iso(next.at) : null,
        assets: assets
          .filter((asset) => asset.marketId === market.id)
          .map((asset) => ({ assetId: asset.id, name: asset.name, phase: engine.getPhase(asset.id) ?? state.phase })),
      });
    }
    return out;
  }

  /** A change seen by this server; else the timetable's entry when the market is where it says; else this server's start. */
  private sinceOf(market: Market, phase: string): number {
    const seen = this.since.get(market.id);
    if (seen !== undefined) return seen;
    const scheduled = scheduledPhaseAt(this.options.timetables, market.kind, this.options.now());
    return scheduled !== null && scheduled.phase === phase ? scheduled.at : this.startedAt;
  }

  private async connectedUsers(): Promise<ConnectedUser[]> {
    const byUser = new Map<string, ConnectedUser & { sinceMs: number }>();
    const sessions = this.options.gateway.sessions();
    if (sessions.some((session) => !this.names.has(session.principal.userId))) this.names = await this.options.userNames();
    for (const { principal, since, subscriptions } of sessions) {
      const user = byUser.get(principal.userId);
      if (user) {
        user.sessions++;
        user.subscriptions += subscriptions;
        user.sinceMs = Math.min(user.sinceMs, since);
        continue;
      }
      byUser.set(principal.userId, {
        userId: principal.userId,
        name: this.names.get(principal.userId) ?? principal.username,
        roles: [...principal.roles],
        sessions: 1,
        subscriptions,
        since: '',
        sinceMs: since,
      });
    }
    return [...byUser.values()]
      .sort((a, b) => a.sinceMs - b.sinceMs || a.userId.localeCompare(b.userId))
      .map(({ sinceMs, ...user }) => ({ ...user, since: iso(sinceMs) }));
  }
}
