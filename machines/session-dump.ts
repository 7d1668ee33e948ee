/**
 * A client session's state as plain data (a "dump"): everything the screens of one asset show, read
 * from the session's streams and machines. The recorded-session replays (tests/streams/session-stack.ts)
 * compare it with `fixtures/sessions/<name>.expected.json`; the QA player (src/qa/) shows and offers
 * the same dump, so a replay in the browser is checked against the headless one with one function.
 *
 * Made on a session before its connection connects, it subscribes, in this order: the asset's book,
 * its trades, the market watch of its market, the user's own best prices and transactions, and the
 * session phase of the market, then of the asset (the machine's phase actors, one phase topic).
 */
import type { Subscription } from 'rxjs';
import type { MarketWatchRow, Order, OwnBest } from '../protocol/market-data.ts';
import type { ClientError } from '../streams/api.ts';
import type { BookView } from '../streams/book.ts';
import type { StreamError } from '../streams/connection.ts';
import type { SessionStreams } from '../streams/session.ts';
import { phasePermissions, phaseRefusal, type PhasePermissions } from './session-phase.machine.ts';
import { watchPhase, type SessionActorRef } from './session.machine.ts';

export interface DumpConfig {
  assetId: string;
  marketId: string;
}

/** Everything the screens would show, as plain data (equal with toEqual, serialisable). */
export interface Checkpoint {
  connection: { state: string; attempt: number; generation: number };
  phase: { market: string; asset: string };
  /** What the asset's phase allows, and the refusal the client predicts for an add and a cancel. */
  permissions: PhasePermissions | null;
  predicted: { place: ClientError | null; cancel: ClientError | null };
  book: Pick<BookView, 'seq' | 'stale' | 'staleReason' | 'bids' | 'asks' | 'snapshots' | 'gaps' | 'droppedDeltas'>;
  marketWatch: Array<Pick<MarketWatchRow, 'assetId' | 'bestBid' | 'bestBidQty' | 'bestAsk' | 'bestAskQty' | 'lastPrice' | 'participants'>>;
  ownBest: Record<string, { bid: number | null; ask: number | null }>;
  /** Orders by id: the folded status and the lifecycle machine's state. */
  orders: Record<string, { status: Order['status']; machine: string; tradedQty: number; qty: number; price: number | null; way: Order['way'] }>;
  trades: string[];
  myTrades: string[];
  errors: number;
}

export interface SessionDump {
  /** Every book the session's book stream gave. */
  readonly views: readonly BookView[];
  readonly errors: readonly StreamError[];
  checkpoint(): Checkpoint;
  stop(): void;
}

export function watchSessionDump(session: SessionActorRef, streams: SessionStreams, config: DumpConfig): SessionDump {
  const views: BookView[] = [];
  const errors: StreamError[] = [];
  const trades: string[] = [];
  const myTrades: string[] = [];
  let watch: readonly MarketWatchRow[] = [];
  let ownBest: ReadonlyMap<string, OwnBest> = new Map();
  const subscriptions: Subscription[] = [];
  const { connection: connectionActor, myOrders } = session.getSnapshot().context;

  subscriptions.push(streams.connection.errors$.subscribe((error) => errors.push(error)));
  subscriptions.push(streams.book$(config.assetId).subscribe((view) => views.push(view)));
  subscriptions.push(streams.trades$(config.assetId).subscribe((trade) => trades.push(trade.transactionId)));
  subscriptions.push(streams.marketWatch$(config.marketId).subscribe((rows) => (watch = rows)));
  subscriptions.push(streams.ownBest$.subscribe((table) => (ownBest = table)));
  subscriptions.push(streams.myTrades$.subscribe((transaction) => myTrades.push(transaction.transactionId)));
  const marketPhase = watchPhase(session, config.marketId);
  const assetPhase = watchPhase(session, config.marketId, config.assetId);

  return {
    views,
    errors,
    checkpoint(): Checkpoint {
      const book = views.at(-1)!;
      const connectionSnapshot = connectionActor.getSnapshot();
      const permissions = phasePermissions(assetPhase.getSnapshot());
      return {
        connection: { state: String(connectionSnapshot.value), attempt: connectionSnapshot.context.attempt, generation: connectionSnapshot.context.generation },
        phase: { market: String(marketPhase.getSnapshot().value), asset: String(assetPhase.getSnapshot().value) },
        permissions,
        predicted: { place: phaseRefusal(permissions, 'place'), cancel: phaseRefusal(permissions, 'cancel') },
        book: {
          seq: book.seq,
          stale: book.stale,
          staleReason: book.staleReason,
          bids: book.bids,
          asks: book.asks,
          snapshots: book.snapshots,
          gaps: book.gaps,
          droppedDeltas: book.droppedDeltas,
        },
        marketWatch: watch.map(({ assetId, bestBid, bestBidQty, bestAsk, bestAskQty, lastPrice, participants }) => ({
          assetId,
          bestBid,
          bestBidQty,
          bestAsk,
          bestAskQty,
          lastPrice,
          participants,
        })),
        ownBest: Object.fromEntries([...ownBest.values()].map((row) => [row.assetId, { bid: row.ownBestBid, ask: row.ownBestAsk }])),
        orders: Object.fromEntries(
          [...myOrders.getSnapshot().context.orders.values()].flatMap((lifecycle) => {
            const { order } = lifecycle.context;
            if (!order) return [];
            return [[order.orderId, { status: order.status, machine: String(lifecycle.value), tradedQty: order.tradedQty, qty: order.qty, price: order.price, way: order.way }]];
          }),
        ),
        trades: [...trades],
        myTrades: [...myTrades],
        errors: errors.length,
      };
    },
    stop() {
      for (const subscription of subscriptions) subscription.unsubscribe();
    },
  };
}
