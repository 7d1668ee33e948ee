/**
 * The client stack of the recorded sessions (fixtures/sessions/): the real streams and machines a
 * trading screen puts on one connection, built in a fixed order so that the recording script
 * (tests/helpers/record-session.ts) and the replay tests make the same STOMP subscriptions, and a
 * `checkpoint()` that reads everything a view would show as plain JSON. Also the names, constants and
 * file shapes the script and the tests share.
 *
 * On the connection, in this order:
 *  1. the connection machine (connectionState$, no subscription);
 *  2. book$ of the asset;
 *  3. trades of the asset;
 *  4. the market watch of the market, folded;
 *  5. the user's own best prices;
 *  6. the user's orders (one shared subscription): foldOrders, plus an order lifecycle machine per
 *     order, started when the order first shows up (that update is its `initial`);
 *  7. the user's transactions;
 *  8. the session phase machine of the market, then one following the asset (its permissions and
 *     the refusals they predict are part of the checkpoint).
 */
import { fileURLToPath } from 'node:url';
import { share, type Subscription } from 'rxjs';
import { createActor, type Actor } from 'xstate';
import { connectionMachineFor } from '../../machines/connection.machine.ts';
import { orderLifecycleMachineFrom } from '../../machines/order-lifecycle.machine.ts';
import { phasePermissions, phaseRefusal, sessionPhaseMachineFor, type PhasePermissions } from '../../machines/session-phase.machine.ts';
import type { BookLevel, MarketWatchRow, Order, OwnBest } from '../../protocol/market-data.ts';
import { book$, type BookView } from '../../streams/book.ts';
import type { ClientError } from '../../streams/api.ts';
import type { Connection, StreamError } from '../../streams/connection.ts';
import { foldMarketWatch, marketWatch$, myTrades$, ownBest$, trades$ } from '../../streams/market-data.ts';
import { foldOrders, myOrders$ } from '../../streams/orders.ts';

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
  let orders: ReadonlyMap<string, { seq: number; order: Order }> = new Map();
  const lifecycles = new Map<string, Actor<ReturnType<typeof orderLifecycleMachineFrom>>>();
  const subscriptions: Subscription[] = [];

  subscriptions.push(connection.errors$.subscribe((error) => errors.push(error)));
  const connectionActor = createActor(connectionMachineFor(connection)).start();
  subscriptions.push(book$(connection, config.assetId).subscribe((view) => views.push(view)));
  subscriptions.push(trades$(connection, config.assetId).subscribe((trade) => trades.push(trade.transactionId)));
  subscriptions.push(foldMarketWatch(marketWatch$(connection, config.marketId)).subscribe((rows) => (watch = rows)));
  subscriptions.push(ownBest$(connection).subscribe((row) => ownBest.set(row.assetId, row)));
  const orderUpdates = myOrders$(connection).pipe(share());
  const lifecycleMachine = orderLifecycleMachineFrom(orderUpdates);
  subscriptions.push(foldOrders(orderUpdates).subscribe((folded) => (orders = folded)));
  subscriptions.push(
    orderUpdates.subscribe((update) => {
      const orderId = update.order.orderId;
      if (lifecycles.has(orderId)) return;
      lifecycles.set(orderId, createActor(lifecycleMachine, { input: { orderId, initial: { seq: update.seq, order: update.order } } }).start());
    }),
  );
  subscriptions.push(myTrades$(connection).subscribe((transaction) => myTrades.push(transaction.transactionId)));
  const marketPhase = createActor(sessionPhaseMachineFor(connection), { input: { marketId: config.marketId } }).start();
  const assetPhase = createActor(sessionPhaseMachineFor(connection), { input: { marketId: config.marketId, assetId: config.assetId } }).start();

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
          [...orders.values()].map(({ order }) => [
            order.orderId,
            {
              status: order.status,
              machine: String(lifecycles.get(order.orderId)?.getSnapshot().value ?? 'none'),
              tradedQty: order.tradedQty,
              qty: order.qty,
              price: order.price,
              way: order.way,
            },
          ]),
        ),
        trades: [...trades],
        myTrades: [...myTrades],
        errors: errors.length,
      };
    },
    stop() {
      for (const subscription of subscriptions) subscription.unsubscribe();
      connectionActor.stop();
      marketPhase.stop();
      assetPhase.stop();
      for (const actor of lifecycles.values()) actor.stop();
    },
  };
}
