/**
 * The matching engine. `execute(command)` checks every rule, applies the command and returns a result
 * code with the events it produced. No I/O, no clock (time comes from `command.at`), ids from
 * counters: the same commands always give the same state, so the journal can rebuild the engine by
 * replaying its command log. A refused command changes nothing. (The sequencer, which stamps, journals
 * and feeds the commands, is server/trading/sequencer.ts.)
 *
 * This class is the facade: the work is in orders.ts, session.ts, configuration.ts, matching.ts,
 * clearing.ts and rules/, over one EngineState. See docs/engine.md for the file map and the rules.
 */
import { apiError } from '../../protocol/error-codes.ts';
import type { SessionPhase, Way } from '../../protocol/enums.ts';
import type { ParticipantKind } from '../../protocol/participants.ts';
import { upsertAsset, upsertClient, upsertMarket, setSettlementPrice } from './configuration.ts';
import { EngineState } from './engine-state.ts';
import { computeStateHash } from './hash.ts';
import type { EngineInternals } from './internals.ts';
import type { UncrossSimulation } from './matching.ts';
import { cancelAll } from './cancel-all.ts';
import { reinstateParticipant, suspendParticipant } from './participants.ts';
import { activateOrder, addOrder, cancelOrder, modifyOrder, suspendOrder } from './orders.ts';
import * as queries from './queries.ts';
import { refuse, type Refusal } from './refusal.ts';
import { operatorSession, setPhase, settleSessionTrades, tick } from './session.ts';
import type { ParticipantSuspension } from './state.ts';
import { exportEngineState, importEngineState, type EngineSnapshot, type ImportOptions, type SnapshotAccess } from './snapshot.ts';
import { transactionViewOfRecord } from './events.ts';
import type { BookLevelView, BookView, ClientTradeStats, EngineCommand, EngineResult, OrderView, ScheduleEntry, SessionStats, TransactionView } from './types.ts';
import { novateTransaction, registerOffBookTrade, setTransactionMarginsExposure } from './transactions.ts';
import { validateInternalState } from './validate.ts';
import { arePartners, setWhitelistRelation } from './whitelist.ts';

export type { EngineInternals } from './internals.ts';

export class Engine {
  private s = new EngineState();

  execute(command: EngineCommand): EngineResult {
    if (command === null || typeof command !== 'object') return refuse(apiError('REQUEST_INVALID', { field: 'command', issue: 'notAnObject' }));
    const s = this.s;
    s.begin();
    // `at` is read inside each case so that every load site sees few command shapes
    let refusal: Refusal | null;
    switch (command.type) {
      case 'addOrder':
        refusal = this.advance(command.at) ?? addOrder(s, command);
        break;
      case 'cancelOrder':
        refusal = this.advance(command.at) ?? cancelOrder(s, command);
        break;
      case 'modifyOrder':
        refusal = this.advance(command.at) ?? modifyOrder(s, command);
        break;
      case 'suspendOrder':
        refusal = this.advance(command.at) ?? suspendOrder(s, command);
        break;
      case 'activateOrder':
        refusal = this.advance(command.at) ?? activateOrder(s, command);
        break;
      case 'setPhase':
        refusal = this.advance(command.at) ?? setPhase(s, command);
        break;
      case 'operatorSuspend':
      case 'operatorResume':
        refusal = this.advance(command.at) ?? operatorSession(s, command);
        break;
      case 'tick':
        refusal = this.advance(command.at) ?? tick(s, command.at);
        break;
      case 'upsertMarket':
        refusal = this.advance(command.at) ?? upsertMarket(s, command.market, command.at);
        break;
      case 'upsertAsset':
        refusal = this.advance(command.at) ?? upsertAsset(s, command.asset, command.at);
        break;
      case 'upsertClient':
        refusal = this.advance(command.at) ?? upsertClient(s, command.client, command.at);
        break;
      case 'setSettlementPrice':
        refusal = this.advance(command.at) ?? setSettlementPrice(s, command.assetId, command.price, command.at);
        break;
      case 'settleSessionTrades':
        refusal = this.advance(command.at) ?? settleSessionTrades(s, command.marketId, command.sessionDate, command.at);
        break;
      case 'registerOffBookTrade':
        refusal = this.advance(command.at) ?? registerOffBookTrade(s, command);
        break;
      case 'novateTransaction':
        refusal = this.advance(command.at) ?? novateTransaction(s, command);
        break;
      case 'setTransactionMarginsExposure':
        refusal = this.advance(command.at) ?? setTransactionMarginsExposure(s, command);
        break;
      case 'setWhitelistRelation':
        refusal = this.advance(command.at) ?? setWhitelistRelation(s, command);
        break;
      case 'cancelAll':
        refusal = this.advance(command.at) ?? cancelAll(s, command);
        break;
      case 'suspendParticipant':
        refusal = this.advance(command.at) ?? suspendParticipant(s, command);
        break;
      case 'reinstateParticipant':
        refusal = this.advance(command.at) ?? reinstateParticipant(s, command);
        break;
      default:
        refusal = refuse(apiError('REQUEST_INVALID', { field: 'type', issue: 'unknownCommand' }));
    }
    if (refusal !== null) return refusal;
    if (s.dirtyAssets.length > 0) this.flushStats();
    const events = s.takeEvents();
    if (events.length > 0) s.changedCommands++;
    const orderId = s.resultOrderId;
    if (s.resultCancelAll !== undefined) return { result: 'OK', events, ...s.resultCancelAll };
    return orderId === undefined ? { result: 'OK', events } : { result: 'OK', orderId, events };
  }

  /** Validates a command's time and moves the engine's clock (the latest time seen). */
  private advance(at: number): Refusal | null {
    if (typeof at !== 'number' || !Number.isFinite(at)) return refuse(apiError('REQUEST_INVALID', { field: 'at', issue: 'notANumber' }));
    if (at > this.s.now) this.s.now = at;
    return null;
  }

  /** A `stats` event per asset whose statistics the command changed. */
  private flushStats(): void {
    const s = this.s;
    const dirty = s.dirtyAssets;
    for (let i = 0; i < dirty.length; i++) {
      const a = dirty[i]!;
      a.statsDirty = false;
      s.emit({ type: 'stats', stats: queries.statsOf(a) });
    }
    while (dirty.length > 0) dirty.pop();
  }

  // -----------------------------------------------------------------------------------------------
  // Queries (read-only; queries.ts)
  // -----------------------------------------------------------------------------------------------

  /** Last command time seen. */
  get clock(): number {
    return this.s.now;
  }
  get executedCommands(): number {
    return this.s.commandCount;
  }
  /**
   * A live order. Its queue `position` costs a walk to the head of its level; callers that only need
   * the order's data (ownership checks) pass `{ position: false }` and get `position: null`.
   */
  getOrder(orderId: number, options?: { position?: boolean }): OrderView | undefined {
    return queries.getOrder(this.s, orderId, options);
  }
  /** Live orders (resting or suspended), in id order, optionally of one client and/or asset. */
  listOrders(filter: { clientCode?: string; assetId?: string } = {}): OrderView[] {
    return queries.listOrders(this.s, filter);
  }
  /** Aggregated depth, best first. */
  getBook(assetId: string, depth = Infinity): BookView | undefined {
    return queries.getBook(this.s, assetId, depth);
  }
  /** Resting order ids of one level side in FIFO order, best level first. */
  getQueue(assetId: string, way: Way): Array<{ price: number; orderIds: number[] }> {
    return queries.getQueue(this.s, assetId, way);
  }
  getStats(assetId: string): SessionStats | undefined {
    return queries.getStats(this.s, assetId);
  }
  /** Client traded quantity and weighted average price on an asset this session. */
  getClientStats(assetId: string, clientCode: string): ClientTradeStats | undefined {
    return queries.getClientStats(this.s, assetId, clientCode);
  }
  getPhase(assetId: string): SessionPhase | undefined {
    return this.s.assets.get(assetId)?.phase;
  }
  getMarketPhase(marketId: string): { phase: SessionPhase; sessionDate: string } | undefined {
    return queries.getMarketPhase(this.s, marketId);
  }
  getDeltaT(assetId: string): { endsAt: number; way: Way } | null {
    return queries.getDeltaT(this.s, assetId);
  }
  /** The agency a client belongs to (null for none), or undefined for an unknown client. */
  getClientAgency(clientCode: string): string | null | undefined {
    const client = this.s.clients.get(clientCode);
    return client === undefined ? undefined : client.agencyId;
  }
  /** Funds and exposure of a client, in amount units. */
  getClientFinancials(clientCode: string): ReturnType<typeof queries.getClientFinancials> {
    return queries.getClientFinancials(this.s, clientCode);
  }
  /** A transaction the engine holds (off the book, or touched by a post-trade command), as a view. */
  getTransaction(transactionId: number): TransactionView | undefined {
    const record = this.s.transactions.get(transactionId);
    return record === undefined ? undefined : transactionViewOfRecord(record);
  }
  /** The operator's suspension of a client (code) or broker (user id), or undefined when not suspended. */
  getSuspension(kind: ParticipantKind, id: string): ParticipantSuspension | undefined {
    const record = this.s.suspensions.of(kind).get(id);
    return record === undefined ? undefined : { ...record };
  }
  /** Whether two clients have an active whitelist relation (bilateral assets). */
  arePartners(clientCode: string, partnerCode: string): boolean {
    return arePartners(this.s, clientCode, partnerCode);
  }
  /**
   * Per price level of each side of a bilateral asset, the quantity resting orders of partners of any
   * of `clientCodes` offer there (what those clients may trade with), best first; undefined for an
   * unknown asset.
   */
  tradeableLevels(assetId: string, clientCodes: readonly string[]): { bids: BookLevelView[]; asks: BookLevelView[] } | undefined {
    return queries.tradeableLevels(this.s, assetId, clientCodes);
  }
  /** Whether the asset is whitelist-restricted (undefined for an unknown asset). */
  isBilateral(assetId: string): boolean | undefined {
    return this.s.assets.get(assetId)?.bilateral;
  }
  /** Opening-auction preview: the volume that would execute now and the marginal prices (no state change). */
  indicativeUncross(assetId: string): UncrossSimulation | undefined {
    return queries.indicativeUncross(this.s, assetId);
  }
  /** When the market's schedule ends (its last entry, ms), or null without one. */
  getScheduleEnd(marketId: string): number | null {
    return queries.getScheduleEnd(this.s, marketId);
  }
  /** The market's first scheduled phase still to apply that starts after `after` (ms), or null. */
  getNextScheduledPhase(marketId: string, after: number): ScheduleEntry | null {
    return queries.getNextScheduledPhase(this.s, marketId, after);
  }

  // -----------------------------------------------------------------------------------------------
  // Hash, checks, snapshots
  // -----------------------------------------------------------------------------------------------

  /** Deterministic sha256 of every book, order and aggregate (see hash.ts). */
  stateHash(): string {
    return computeStateHash(this.internals());
  }

  /** Consistency problems of the books and aggregates; empty when all is well (see validate.ts). */
  validateInternalState(): string[] {
    return validateInternalState(this.internals());
  }

  /** The whole state as plain JSON data (see snapshot.ts); the engine may go on while it is written. */
  exportState(): EngineSnapshot {
    return exportEngineState(this.snapshotAccess());
  }

  /** Loads a snapshot into this engine, which must be new (nothing executed). */
  importState(snapshot: EngineSnapshot, options?: ImportOptions): void {
    if (this.s.commandCount !== 0) throw new Error('importState() needs a new engine');
    importEngineState(this.snapshotAccess(), snapshot, options);
  }

  /**
   * Takes over `other`'s state (`other` must not be used afterwards): the sequencer reloads the engine
   * from its journal in place, so the components that hold this engine see the reloaded state.
   */
  adoptState(other: Engine): void {
    this.s = other.s;
  }

  /** A new engine in the state of `snapshot`: same stateHash(), same behaviour for every further command. */
  static fromSnapshot(snapshot: EngineSnapshot, options?: ImportOptions): Engine {
    const engine = new Engine();
    engine.importState(snapshot, options);
    return engine;
  }

  private snapshotAccess(): SnapshotAccess {
    const s = this.s;
    return {
      markets: s.markets,
      assets: s.assets,
      clients: s.clients,
      orders: s.orders,
      expiries: s.expiries,
      deltaTAssets: s.deltaTAssets,
      transactions: s.transactions,
      relations: s.relations,
      suspensions: s.suspensions,
      getCounters: () => ({
        nextOrderId: s.nextOrderId,
        nextTransactionId: s.nextTransactionId,
        nextPriority: s.nextPriority,
        epoch: s.epoch,
        now: s.now,
        commandCount: s.commandCount,
        changedCommands: s.changedCommands,
      }),
      setCounters: (c) => {
        s.changedCommands = c.changedCommands;
        s.nextOrderId = c.nextOrderId;
        s.nextTransactionId = c.nextTransactionId;
        s.nextPriority = c.nextPriority;
        s.epoch = c.epoch;
        s.now = c.now;
        s.commandCount = c.commandCount;
      },
    };
  }

  /** Internal state for validateInternalState() and stateHash() (read-only by convention). */
  internals(): EngineInternals {
    const s = this.s;
    return {
      markets: s.markets,
      assets: s.assets,
      clients: s.clients,
      orders: s.orders,
      counters: { nextOrderId: s.nextOrderId, nextTransactionId: s.nextTransactionId, nextPriority: s.nextPriority, now: s.now },
      deltaTAssets: s.deltaTAssets,
      transactions: s.transactions,
      relations: s.relations,
      suspensions: s.suspensions,
    };
  }
}
