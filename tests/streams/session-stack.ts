/**
 * The client stack of the recorded sessions (fixtures/sessions/): the real streams and machines a
 * trading screen puts on one connection, built in a fixed order so that the recording script
 * (tests/helpers/record-session.ts) and the replay tests make the same STOMP subscriptions, and a
 * `checkpoint()` that reads everything a view would show as plain JSON. Also the names, constants and
 * file shapes the script and the tests share.
 *
 * It is the app's own composition (src/realtime/RealtimeProvider.tsx): the session streams of
 * streams/session.ts and the root session machine of machines/session.machine.ts. On the connection,
 * in this order:
 *  1. the session machine: the connection machine (no subscription) and my orders (the order queue,
 *     each order through the order-lifecycle machine);
 *  2. book$ of the asset;
 *  3. trades of the asset;
 *  4. the market watch of the market, folded;
 *  5. the user's own best prices;
 *  6. the user's transactions;
 *  7. the session phase of the market, then of the asset, from the market's shared phase fold (its
 *     permissions and the refusals they predict are part of the checkpoint).
 */
import { fileURLToPath } from 'node:url';
import type { Subscription } from 'rxjs';
import { createActor } from 'xstate';
import { phasePermissions, phaseRefusal, type PhasePermissions } from '../../machines/session-phase.machine.ts';
import { sessionMachineFor, watchPhase } from '../../machines/session.machine.ts';
import type { BookLevel, MarketWatchRow, Order, OwnBest } from '../../protocol/market-data.ts';
import type { BookView } from '../../streams/book.ts';
import type { ClientError } from '../../streams/api.ts';
import type { Connection, StreamError } from '../../streams/connection.ts';
import { immediateFrames } from '../../streams/frame.ts';
import { ownBest$ } from '../../streams/market-data.ts';
import { SessionStreams } from '../../streams/session.ts';

export const SESSION_NAMES = ['ordinary-trading', 'reconnect-gap-resync', 'phase-suspension'] as const;
export type SessionName = (typeof SESSION_NAMES)[number];
export const SESSION_ASSET = 'GSPOT-DA';
export const SESSION_MARKET = 'GAS-SPOT';
/** The URL written in the recordings' @open lines (the real one has a random port). */
export const RECORDED_URL = 'ws://exchange.test/session/ws';
/** Backoff of the recorded client (and of the replaying one): no jitter, so the delay is fixed. */
export const SESSION_BACKOFF = { initialMs: 500, maxMs: 500, jitter: 0 } as const;
export const SESSIONS_DIR = fileURLToPath(new URL('../../fixtures/sessions/', import.meta.url));

export interface RestNote {
  user: string;
  call: string;
  status: number;
  orderId?: string;
  orderStatus?: string;
  error?: { code: string; params: Record<string, unknown> };
}

export interface StepNote {
  label: string;
  /** Offset of the step's end in the recording, ms. */
  t: number;
  /** Recording lines written when the step ended (its frames are the lines before). */
  lines: number;
  rest: RestNote[];
  /** The live client stack when the step ended. */
  checkpoint: Checkpoint;
}

/** `<name>.expected.json`: what the live session showed. */
export interface SessionExpectations {
  name: string;
  description: string;
  user: string;
  assetId: string;
  marketId: string;
  /** The book of the asset as the server published it after each seq (folded from the engine's level events). */
  published: Record<string, { bids: BookLevel[]; asks: BookLevel[] }>;
  steps: StepNote[];
}

export interface StackConfig {
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

export interface ClientStack {
  readonly views: readonly BookView[];
  readonly book: BookView;
  readonly errors: readonly StreamError[];
  checkpoint(): Checkpoint;
  stop(): void;
}

export function createClientStack(connection: Connection, config: StackConfig): ClientStack {
  const views: BookView[] = [];
  const errors: StreamError[] = [];
  const trades: string[] = [];
  const myTrades: string[] = [];
  let watch: readonly MarketWatchRow[] = [];
  const ownBest = new Map<string, OwnBest>();
  const subscriptions: Subscription[] = [];

  // The app's composition: the session streams of the connection and the root session machine
  // (connection, my orders, phases), as src/realtime/RealtimeProvider.tsx runs them.
  // Books and market watch tables are not held for an animation frame: the replay checks after every frame.
  const streams = new SessionStreams(connection, { frames: immediateFrames });
  const session = createActor(sessionMachineFor(connection, streams)).start();
  subscriptions.push(connection.errors$.subscribe((error) => errors.push(error)));
  const { connection: connectionActor, myOrders } = session.getSnapshot().context;
  subscriptions.push(streams.book$(config.assetId).subscribe((view) => views.push(view)));
  subscriptions.push(streams.trades$(config.assetId).subscribe((trade) => trades.push(trade.transactionId)));
  subscriptions.push(streams.marketWatch$(config.marketId).subscribe((rows) => (watch = rows)));
  subscriptions.push(ownBest$(connection).subscribe((row) => ownBest.set(row.assetId, row)));
  subscriptions.push(streams.myTrades$.subscribe((transaction) => myTrades.push(transaction.transactionId)));
  const marketPhase = watchPhase(session, config.marketId);
  const assetPhase = watchPhase(session, config.marketId, config.assetId);

  return {
    views,
    get book() {
      return views.at(-1)!;
    },
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
      session.stop();
    },
  };
}
