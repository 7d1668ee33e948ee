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
import { createActor } from 'xstate';
import { clientSessionFor } from '../../machines/client-session.ts';
import { watchSessionDump, type Checkpoint, type DumpConfig } from '../../machines/session-dump.ts';
import type { BookLevel } from '../../protocol/market-data.ts';
import type { BookView } from '../../streams/book.ts';
import type { Connection, StreamError } from '../../streams/connection.ts';
import { immediateFrames } from '../../streams/frame.ts';

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

export type StackConfig = DumpConfig;
export type { Checkpoint };

export interface ClientStack {
  readonly views: readonly BookView[];
  readonly book: BookView;
  readonly errors: readonly StreamError[];
  checkpoint(): Checkpoint;
  stop(): void;
}

/**
 * The app's composition (machines/client-session.ts, as src/realtime/RealtimeProvider.tsx and the QA
 * player run it) and the session dump of machines/session-dump.ts. Books and market watch tables are not
 * held for an animation frame: the replay checks after every frame.
 */
export function createClientStack(connection: Connection, config: StackConfig): ClientStack {
  const { streams, machine } = clientSessionFor(connection, { frames: immediateFrames });
  const session = createActor(machine).start();
  const dump = watchSessionDump(session, streams, config);
  return {
    views: dump.views,
    get book() {
      return dump.views.at(-1)!;
    },
    errors: dump.errors,
    checkpoint: () => dump.checkpoint(),
    stop() {
      dump.stop();
      session.stop();
    },
  };
}
