/**
 * The sessions recorded from the real exchange server (fixtures/sessions/, made by
 * tests/helpers/record-session.ts) replayed through streams/player.ts into the real client stack:
 * the connection module, book$, the order/market/phase streams and the machines
 * (tests/streams/session-stack.ts), on fake timers.
 *
 * Each recording is replayed frame by frame (player.step()) twice: both runs give identical
 * checkpoints after every frame. At the end of every step of the recording script the replayed client
 * shows what the live client showed (`<name>.expected.json`), its books equal the books the server
 * published at their seq, no delta is applied across a gap or onto a stale book, and a replay as fast
 * as possible ends in the same state. Then the story of each session is checked step by step.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { orderTicketMachine, type TicketAsset } from '../../machines/order-ticket.machine.ts';
import type { BookView } from '../../streams/book.ts';
import { createConnection, type Connection } from '../../streams/connection.ts';
import { createPlayer, type Player, type ReplaySpeed } from '../../streams/player.ts';
import { parseRecording, type RecordedFrame } from '../../streams/recording.ts';
import { uniqueUrl } from './fake-stomp-server.ts';
import {
  createClientStack,
  SESSION_BACKOFF,
  SESSION_NAMES,
  SESSIONS_DIR,
  type Checkpoint,
  type ClientStack,
  type SessionExpectations,
  type SessionName,
  type StepNote,
} from './session-stack.ts';

const tick = async (ms = 5): Promise<void> => {
  await vi.advanceTimersByTimeAsync(ms);
};

interface Session {
  jsonl: string;
  frames: RecordedFrame[];
  expected: SessionExpectations;
}

function load(name: SessionName): Session {
  const jsonl = readFileSync(`${SESSIONS_DIR}${name}.jsonl`, 'utf8');
  return { jsonl, frames: parseRecording(jsonl), expected: JSON.parse(readFileSync(`${SESSIONS_DIR}${name}.expected.json`, 'utf8')) as SessionExpectations };
}

interface Replay {
  /** One checkpoint after each delivered frame, with the frame's line in the recording. */
  timeline: Array<{ line: number; command: string; checkpoint: Checkpoint }>;
  /** After the client's own DISCONNECT at the end. */
  final: Checkpoint;
  views: readonly BookView[];
  stack: ClientStack;
  player: Player;
  connection: Connection;
}

const cleanups: Array<() => void> = [];

function replayRig(session: Session, speed: ReplaySpeed, paused: boolean) {
  const url = uniqueUrl('recorded');
  const player = createPlayer({ url, recording: session.frames, speed, paused });
  const connection = createConnection({
    url,
    getToken: () => 'replay-token',
    webSocketFactory: player.webSocketFactory,
    heartbeatMs: 0,
    backoff: { ...SESSION_BACKOFF },
  });
  const stack = createClientStack(connection, { assetId: session.expected.assetId, marketId: session.expected.marketId });
  cleanups.push(() => {
    stack.stop();
    player.close();
  });
  return { player, connection, stack };
}

async function disconnectAtEnd(connection: Connection): Promise<void> {
  const done = connection.disconnect({ timeoutMs: 1_000 });
  await tick(50);
  await expect(done).resolves.toEqual({ receipt: true });
}

/** Replays frame by frame: each frame is delivered, the client gets 5 ms (a mock-socket close takes 4), a checkpoint is taken. */
async function replayStepped(session: Session): Promise<Replay> {
  const { player, connection, stack } = replayRig(session, 'max', true);
  const timeline: Replay['timeline'] = [];
  connection.connect();
  for (;;) {
    let delivered: Awaited<ReturnType<Player['step']>> | undefined;
    void player.step().then((frame) => (delivered = frame));
    // A gated frame waits for the client (a CONNECT after the 500 ms backoff, a SUBSCRIBE).
    for (let i = 0; delivered === undefined && i < 400; i++) await tick(5);
    expect(delivered, `frame ${player.position} delivered (waiting for ${player.waitingFor})`).not.toBeUndefined();
    if (delivered === null) break;
    await tick(5);
    timeline.push({ line: session.frames.indexOf(delivered!.frame), command: delivered!.frame.command, checkpoint: stack.checkpoint() });
  }
  await disconnectAtEnd(connection);
  return { timeline, final: stack.checkpoint(), views: stack.views, stack, player, connection };
}

/** Replays as fast as the client takes frames (one per macrotask). */
async function replayFast(session: Session): Promise<Pick<Replay, 'final' | 'views'>> {
  const { player, connection, stack } = replayRig(session, 'max', false);
  connection.connect();
  let finished = false;
  void player.done.then(() => (finished = true));
  for (let i = 0; i < 1_000 && !finished; i++) await tick(10);
  expect(finished, `fast replay finished (waiting for ${player.waitingFor})`).toBe(true);
  await disconnectAtEnd(connection);
  return { final: stack.checkpoint(), views: stack.views };
}

/** The replayed checkpoint at the end of a step of the script: after the last frame recorded before it ended. */
function atStep(replay: Replay, step: StepNote): Checkpoint {
  const entries = replay.timeline.filter((entry) => entry.line < step.lines);
  expect(entries.length, `frames before "${step.label}"`).toBeGreaterThan(0);
  return entries.at(-1)!.checkpoint;
}

function stepNamed(session: Session, prefix: string): StepNote {
  const step = session.expected.steps.find((s) => s.label.startsWith(prefix));
  if (!step) throw new Error(`no step "${prefix}" in ${session.expected.name}`);
  return step;
}

/**
 * The live client and the replayed one agree at every step. Only the connection state may differ
 * while away: it moves on client timers (backoff), not on frames, and the live script held the
 * reconnect in getToken while the replay is between its close and its backoff.
 */
function expectSameAsLive(replayed: Checkpoint, live: Checkpoint, label: string): void {
  if (live.connection.state === 'connected' || live.connection.state === 'offline') {
    expect(replayed, label).toEqual(live);
    return;
  }
  expect(['connecting', 'reconnecting'], label).toContain(replayed.connection.state);
  expect({ ...replayed, connection: null }, label).toEqual({ ...live, connection: null });
}

/** Book transitions: a fresh book moves by one delta (seq + 1) or by a snapshot; a stale one keeps seq and levels. */
function checkBookTransitions(views: readonly BookView[], published: SessionExpectations['published']) {
  const marks: Array<{ reason: BookView['staleReason']; seq: number | null }> = [];
  let deltas = 0;
  for (let i = 1; i < views.length; i++) {
    const previous = views[i - 1]!;
    const next = views[i]!;
    if (next.snapshots > previous.snapshots) {
      expect(next.snapshots).toBe(previous.snapshots + 1);
      expect(next.stale).toBe(false);
    } else if (next.stale) {
      expect(previous.stale, 'one stale mark per episode').toBe(false);
      expect({ seq: next.seq, bids: next.bids, asks: next.asks }).toEqual({ seq: previous.seq, bids: previous.bids, asks: previous.asks });
      marks.push({ reason: next.staleReason, seq: next.seq });
    } else {
      expect(previous.stale, 'no delta applied to a stale book').toBe(false);
      expect(next.seq, 'no delta applied across a gap').toBe(previous.seq! + 1);
      deltas += 1;
    }
    // Every book shown is the book the server published at that seq.
    if (next.seq !== null) expect({ bids: next.bids, asks: next.asks }, `book at seq ${next.seq}`).toEqual(published[String(next.seq)]);
  }
  return { marks, deltas };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  vi.useRealTimers();
});

describe.each(SESSION_NAMES)('recording %s', (name) => {
  it('is a real-server recording of the right shape: small, tokens redacted, no address', () => {
    const session = load(name);
    expect(Buffer.byteLength(session.jsonl)).toBeLessThan(200 * 1024);
    expect(session.jsonl.split('\n').filter(Boolean)).toHaveLength(session.frames.length);
    expect(session.expected.steps.at(-1)!.lines).toBe(session.frames.length);
    const connects = session.frames.filter((f) => f.dir === 'out' && f.command === 'CONNECT');
    expect(connects.length).toBeGreaterThan(0);
    for (const connect of connects) expect(connect.headers['Authorization']).toBe('<redacted>');
    expect(session.jsonl).not.toMatch(/Bearer|eyJ[A-Za-z0-9_-]{10,}/);
    expect(session.jsonl).not.toContain('127.0.0.1');
    const connected = session.frames.filter((f) => f.command === 'CONNECTED');
    for (const frame of connected) expect(frame.headers).toMatchObject({ version: '1.2', server: 'energy-exchange-gateway/0.1', 'user-name': session.expected.user });
    expect(session.frames.filter((f) => f.command === 'MESSAGE').length).toBeGreaterThan(20);
  });

  it('replays frame by frame twice with identical checkpoints, equal to the live session at every step', async () => {
    const session = load(name);
    const first = await replayStepped(session);
    const second = await replayStepped(session);
    expect(second.timeline).toEqual(first.timeline);
    expect(second.final).toEqual(first.final);
    expect(second.views).toEqual(first.views);
    expect(first.timeline.length).toBeGreaterThan(20);
    const steps = session.expected.steps;
    for (const step of steps.slice(0, -1)) expectSameAsLive(atStep(first, step), step.checkpoint, step.label);
    // The last step is the client's DISCONNECT, which the replaying client makes itself.
    expect(first.final).toEqual(steps.at(-1)!.checkpoint);
    checkBookTransitions(first.views, session.expected.published);
    expect(first.stack.errors).toEqual([]);
    // As fast as possible: the same books in the same order, the same end.
    const fast = await replayFast(session);
    expect(fast.views).toEqual(first.views);
    expect(fast.final).toEqual(first.final);
  });
});

describe('the sessions, step by step', () => {
  it('ordinary trading: the book, own orders and their machines, trades, market watch and own best follow the market', async () => {
    const session = load('ordinary-trading');
    const replay = await replayStepped(session);
    const at = (prefix: string) => atStep(replay, stepNamed(session, prefix));

    const opened = at('the client connects');
    expect(opened.connection).toEqual({ state: 'connected', attempt: 0, generation: 1 });
    expect(opened.phase).toEqual({ market: 'trading', asset: 'trading' });
    expect(opened.book).toMatchObject({ seq: 0, stale: false, bids: [], asks: [], snapshots: 1 });
    expect(opened.marketWatch.map((row) => row.assetId)).toEqual(['GSPOT-DA', 'GSPOT-WD']);
    expect(opened.predicted).toEqual({ place: null, cancel: null });

    const built = at('broker1 bids 30 @ 148.50');
    expect(built.book).toMatchObject({
      seq: 4,
      bids: [
        { price: 14_900, qty: 200, orders: 1 },
        { price: 14_850, qty: 30, orders: 1 },
      ],
      asks: [
        { price: 15_000, qty: 100, orders: 1 },
        { price: 15_050, qty: 50, orders: 1 },
      ],
    });
    // Only broker1's own orders (broker2's bid is not in its queue).
    expect(Object.keys(built.orders)).toEqual(['1', '2', '4']);
    expect(built.ownBest['GSPOT-DA']).toEqual({ bid: 14_850, ask: 15_000 });
    expect(built.marketWatch[0]).toMatchObject({ assetId: 'GSPOT-DA', bestBid: 14_900, bestBidQty: 200, bestAsk: 15_000, bestAskQty: 100, lastPrice: null });

    const partial = at('broker2 bids 60 @ 150.00');
    expect(partial.orders['1']).toMatchObject({ status: 'tradedPartially', machine: 'tradedPartially', tradedQty: 60 });
    expect(partial.book.asks[0]).toEqual({ price: 15_000, qty: 40, orders: 1 });
    expect(partial.trades).toEqual(['1']);
    expect(partial.myTrades).toEqual(['1']);

    const repriced = at('broker1 moves the 150.50 ask');
    expect(repriced.orders['2']).toMatchObject({ status: 'modified', machine: 'modified', price: 15_020 });
    expect(repriced.book.asks).toEqual([
      { price: 15_000, qty: 40, orders: 1 },
      { price: 15_020, qty: 50, orders: 1 },
    ]);

    const swept = at('broker2 bids 100 @ 150.20');
    expect(swept.orders['1']).toMatchObject({ status: 'traded', machine: 'traded', tradedQty: 100 });
    expect(swept.orders['2']).toMatchObject({ status: 'traded', machine: 'traded' });
    expect(swept.trades).toEqual(['1', '2', '3']);
    expect(swept.book.asks).toEqual([]);
    expect(swept.book.bids[0]).toEqual({ price: 15_020, qty: 10, orders: 1 });
    expect(swept.marketWatch[0]).toMatchObject({ bestBid: 15_020, bestAsk: null, lastPrice: 15_020 });

    const cancelled = at('broker1 cancels the 148.50 bid');
    expect(cancelled.orders['4']).toMatchObject({ status: 'cancelled', machine: 'cancelled' });
    expect(cancelled.ownBest['GSPOT-DA']).toEqual({ bid: null, ask: null });

    expect(replay.final.book).toMatchObject({ seq: 9, stale: true, staleReason: 'reconnect', bids: [{ price: 14_900, qty: 200, orders: 1 }], asks: [] });
    expect(replay.final.connection.state).toBe('offline');
    expect(replay.player.socketsOpened).toBe(1);
  });

  it('reconnect with a gap and resync: stale at once, resubscribed, resynchronised, no delta across the gap', async () => {
    const session = load('reconnect-gap-resync');
    const replay = await replayStepped(session);
    const at = (prefix: string) => atStep(replay, stepNamed(session, prefix));
    const { marks, deltas } = checkBookTransitions(replay.views, session.expected.published);
    // The gap: seen on delta 5 while the book was at 3 (delta 4 was lost); the disconnect at 6; the end.
    expect(marks).toEqual([
      { reason: 'gap', seq: 3 },
      { reason: 'reconnect', seq: 6 },
      { reason: 'reconnect', seq: 10 },
    ]);
    expect(deltas).toBe(5); // 1, 2, 3 before the gap; 6 after the resync; 10 after the reconnect

    expect(at('broker2 bids 30 @ 149.20').book).toMatchObject({ seq: 3, stale: false, gaps: 0 });
    const resynced = at('broker2 bids 30 @ 149.40');
    expect(resynced.book).toMatchObject({ seq: 5, stale: false, gaps: 1, snapshots: 2 });
    expect(resynced.book.bids).toEqual([
      { price: 14_940, qty: 30, orders: 1 },
      { price: 14_920, qty: 30, orders: 1 },
      { price: 14_900, qty: 100, orders: 1 },
    ]);
    // The client resubscribed the book with a new subscription id (UNSUBSCRIBE, then SUBSCRIBE). The
    // session machine's order queue is sub-0; the market's phase topic is subscribed once for both phases.
    const resubscribe = session.frames.filter((f) => f.dir === 'out' && f.socket === 1 && (f.command === 'UNSUBSCRIBE' || (f.command === 'SUBSCRIBE' && f.headers['destination'] === '/topic/book.GSPOT-DA')));
    expect(resubscribe.map((f) => `${f.command} ${f.headers['id']}`)).toEqual(['SUBSCRIBE sub-1', 'UNSUBSCRIBE sub-1', 'SUBSCRIBE sub-7']);

    const dropped = at('the server drops the connection');
    expect(dropped.book).toMatchObject({ seq: 6, stale: true, staleReason: 'reconnect' });
    expect(dropped.connection.state).toBe('reconnecting');
    expect(dropped.connection.attempt).toBe(1);
    // While away nothing arrives: the book stays stale on its last good seq.
    expect(at('while away: broker1 bids 10').book).toEqual(dropped.book);

    const back = at('the client reconnects');
    expect(back.connection).toEqual({ state: 'connected', attempt: 0, generation: 2 });
    expect(back.book).toMatchObject({ seq: 9, stale: false, snapshots: 3, gaps: 1 });
    expect(back.book.asks).toEqual([{ price: 15_000, qty: 60, orders: 1 }]);
    expect(back.orders['8']).toMatchObject({ status: 'created', machine: 'created', way: 'bid', price: 14_910 });
    // On (re)subscribe /user/queue/orders replays the orders finished lately, so the 150.50 ask
    // cancelled while the client was away reaches it.
    expect(back.orders['3']).toMatchObject({ status: 'cancelled' });

    const end = at('broker2 bids 60 @ 150.00: trades the rest');
    expect(end.orders['1']).toMatchObject({ status: 'traded', machine: 'traded', tradedQty: 100 });
    expect(end.book).toMatchObject({ seq: 10, stale: false, asks: [] });
    expect(end.trades).toEqual(['1', '2']);
    expect(replay.player.socketsOpened).toBe(2);
  });

  it('phase changes with a suspension: the phase machines follow, and predict the refusals the server gave', async () => {
    const session = load('phase-suspension');
    const replay = await replayStepped(session);
    const phases = session.expected.steps.map((step) => [step.label, atStep(replay, step).phase]);
    expect(phases.map(([, phase]) => phase)).toEqual([
      { market: 'trading', asset: 'trading' }, // connects
      { market: 'trading', asset: 'trading' },
      { market: 'trading', asset: 'trading' },
      { market: 'suspended', asset: 'suspended' }, // the operator suspends GAS-SPOT
      { market: 'suspended', asset: 'suspended' },
      { market: 'suspended', asset: 'suspended' },
      { market: 'trading', asset: 'trading' }, // resumed
      { market: 'trading', asset: 'trading' },
      { market: 'trading', asset: 'suspended' }, // GSPOT-DA alone suspended
      { market: 'trading', asset: 'suspended' },
      { market: 'trading', asset: 'trading' },
      { market: 'closing', asset: 'closing' },
      { market: 'closing', asset: 'closing' },
      { market: 'closing', asset: 'closing' },
      { market: 'closed', asset: 'closed' },
      { market: 'opening', asset: 'opening' },
      { market: 'trading', asset: 'trading' },
      { market: 'trading', asset: 'trading' },
      { market: 'trading', asset: 'trading' }, // disconnects
    ]);

    // Every refusal the server gave is the one the client predicted from the phase it showed.
    let refusals = 0;
    for (const step of session.expected.steps) {
      const checkpoint = atStep(replay, step);
      for (const rest of step.rest) {
        if (!rest.error) continue;
        const action = rest.call.endsWith('/cancel') ? 'cancel' : 'place';
        expect(checkpoint.predicted[action], step.label).toEqual(rest.error);
        refusals += 1;
      }
    }
    expect(refusals).toBe(4);

    // The order ticket, with the permissions of the suspended asset, blocks the add without a request.
    const asset: TicketAsset = { assetId: 'GSPOT-DA', priceDecimals: 2, quantityDecimals: 1, priceStep: 1, quantityStep: 10, minQuantity: 10, maxQuantity: 100_000 };
    const submitted: unknown[] = [];
    const ticketMachine = orderTicketMachine.provide({
      actors: {
        submitOrder: fromPromise(async ({ input }) => {
          submitted.push(input);
          return {};
        }),
      },
    });
    const suspendedStep = stepNamed(session, 'broker2 tries to bid on GSPOT-DA');
    const suspended = atStep(replay, suspendedStep);
    const ticket = createActor(ticketMachine, {
      input: { mode: 'add', asset, permissions: suspended.permissions, keyPrefix: 'replay', defaults: { way: 'bid', price: '149.60', qty: '1.0', validityType: 'day', clientCode: 'RO-TERMO' } },
    }).start();
    ticket.send({ type: 'SUBMIT' });
    await tick(10);
    expect(ticket.getSnapshot().value).toBe('editing');
    expect(ticket.getSnapshot().context.blocked).toEqual(suspendedStep.rest[0]!.error);
    expect(submitted).toEqual([]);
    // With the permissions once trading again, the same ticket goes through.
    ticket.send({ type: 'PERMISSIONS', permissions: atStep(replay, stepNamed(session, 'the operator resumes GSPOT-DA')).permissions });
    ticket.send({ type: 'SUBMIT' });
    await tick(10);
    expect(ticket.getSnapshot().value).toBe('accepted');
    expect(submitted).toHaveLength(1);
    ticket.stop();

    // The suspension froze the book; closing the session expired broker1's day order.
    const frozen = atStep(replay, stepNamed(session, 'the operator suspends GAS-SPOT'));
    expect(frozen.book).toMatchObject({ seq: 2, stale: false, asks: [{ price: 15_000, qty: 100, orders: 1 }], bids: [{ price: 14_950, qty: 50, orders: 1 }] });
    expect(frozen.orders['1']).toMatchObject({ status: 'created', machine: 'created' });
    const closed = atStep(replay, stepNamed(session, 'the operator closes GAS-SPOT'));
    expect(closed.orders['1']).toMatchObject({ status: 'cancelled', machine: 'cancelled', tradedQty: 60 });
    expect(closed.book).toMatchObject({ bids: [], asks: [], stale: false });
    expect(closed.predicted.place).toEqual({ code: 'SESSION_PHASE_FORBIDS', params: { phase: 'closed' } });
    const last = atStep(replay, stepNamed(session, 'broker1 asks 20 @ 150.10'));
    expect(last.orders['4']).toMatchObject({ status: 'created', machine: 'created' });
    expect(last.book.asks).toEqual([{ price: 15_010, qty: 20, orders: 1 }]);
  });
});
