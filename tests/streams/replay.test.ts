/**
 * Recording and replay: a session against the fake server is recorded, then replayed through
 * mock-socket into the real connection + book stack, as fast as possible, twice; the books at
 * every checkpoint are the same as live and the same every time. Also 1x/Nx timing and pause/step.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { connectionMachineFor } from '../../machines/connection.machine.ts';
import { sessionPhaseMachineFor } from '../../machines/session-phase.machine.ts';
import type { SessionPhase } from '../../protocol/enums.ts';
import { destinations } from '../../protocol/destinations.ts';
import type { Trade } from '../../protocol/market-data.ts';
import { book$, type BookView } from '../../streams/book.ts';
import { createConnection, type Connection, type StreamError } from '../../streams/connection.ts';
import { trades$ } from '../../streams/market-data.ts';
import { createPlayer, type Player, type ReplaySpeed } from '../../streams/player.ts';
import { createRecorder } from '../../streams/recorder.ts';
import { parseRecording, type RecordedFrame } from '../../streams/recording.ts';
import { FakeStompServer, randomChange, ReferenceBook, seededRandom, uniqueUrl } from './fake-stomp-server.ts';

const tick = async (ms = 20): Promise<void> => {
  await vi.advanceTimersByTimeAsync(ms);
};
const ASSET = 'A1';
const BOOK = destinations.book(ASSET);
const TRADES = destinations.trades(ASSET);
const PHASE = destinations.phase('M1');

interface Observed {
  views: BookView[];
  trades: string[];
  errors: StreamError[];
  states: string[];
  /** Values of the connection and session-phase machines fed by the same connection. */
  machines: string[];
}

function observe(connection: Connection): Observed & { stop(): void } {
  const observed: Observed = { views: [], trades: [], errors: [], states: [], machines: [] };
  const connectionActor = createActor(connectionMachineFor(connection)).start();
  const phaseActor = createActor(sessionPhaseMachineFor(connection), { input: { marketId: 'M1' } }).start();
  const machineState = (): string => `${String(connectionActor.getSnapshot().value)}/${String(phaseActor.getSnapshot().value)}`;
  const subs = [
    connectionActor.subscribe(() => observed.machines.push(machineState())),
    phaseActor.subscribe(() => observed.machines.push(machineState())),
    book$(connection, ASSET).subscribe((v) => observed.views.push(v)),
    trades$(connection, ASSET).subscribe((t: Trade) => observed.trades.push(t.transactionId)),
    connection.errors$.subscribe((e) => observed.errors.push(e)),
    connection.connectionState$.subscribe((s) => observed.states.push(s.status)),
  ];
  return {
    ...observed,
    stop: () => {
      subs.forEach((s) => s.unsubscribe());
      connectionActor.stop();
      phaseActor.stop();
    },
  };
}

function phase(p: SessionPhase) {
  return { marketId: 'M1', assetId: null, phase: p, sessionDate: '2026-01-01', at: '2026-01-01T09:00:00.000Z' };
}

function trade(n: number): Trade {
  return { transactionId: `T${n}`, assetId: ASSET, price: 10_000 + n, qty: 10, noCnt: 1, aggressor: 'bid', txDate: '2026-01-01', timestamp: '2026-01-01T09:00:00.000Z' };
}

/** Records a session with snapshots, deltas, trades, a gap and resync, a dropped socket, a bad payload. */
async function recordSession(): Promise<{ frames: RecordedFrame[]; jsonl: string; live: Observed }> {
  // A fixed URL keeps the recording byte-identical from run to run (the golden test).
  const url = 'ws://recorded-session.test/session/ws';
  const reference = new ReferenceBook(ASSET, 500);
  const random = seededRandom(3);
  for (let i = 0; i < 8; i++) reference.change([randomChange(random, reference)]);
  const server = new FakeStompServer(url, {
    onSubscribe: (connection, id, destination) => {
      if (destination === BOOK) server.sendTo(connection, id, reference.snapshot());
    },
  });
  const publishChanges = (count: number, lose = false): void => {
    for (let i = 0; i < count; i++) {
      const delta = reference.change([randomChange(random, reference)]);
      if (!lose) server.publish(BOOK, delta);
    }
  };
  const recorder = createRecorder();
  let n = 0;
  const connection = createConnection({
    url,
    getToken: () => `secret-token-${++n}`,
    webSocketFactory: server.webSocketFactory,
    heartbeatMs: 0,
    backoff: { initialMs: 100, maxMs: 100, random: () => 0 },
    taps: [recorder.tap],
  });
  const live = observe(connection);
  connection.connect();
  await tick();
  server.publish(PHASE, phase('opening'));
  publishChanges(5);
  await tick(1_000);
  server.publish(PHASE, phase('trading'));
  server.publish(TRADES, trade(1));
  publishChanges(1, true); // lost
  publishChanges(3); // gap, then deltas on the old subscription
  await tick(500);
  publishChanges(3);
  server.publish(TRADES, trade(2));
  server.publish(TRADES, { transactionId: 'bad' }); // reported and dropped
  server.publish(PHASE, phase('suspended'));
  await tick(200);
  server.drop();
  await tick(10);
  publishChanges(4, true); // while away
  await tick(300);
  server.publish(PHASE, phase('trading'));
  publishChanges(4);
  server.publish(TRADES, trade(3));
  await tick(700);
  const done = connection.disconnect();
  await tick(50);
  await done;
  live.stop();
  server.close();
  return { frames: [...recorder.frames], jsonl: recorder.toJsonl(), live };
}

interface Replay {
  observed: Observed;
  /** The book right after each delivered frame. */
  checkpoints: Array<{ index: number; command: string; seq: number | null; stale: boolean; bids: BookView['bids']; asks: BookView['asks']; machines: string | undefined }>;
  player: Player;
}

const cleanups: Array<() => void> = [];

async function replay(recording: string | RecordedFrame[], speed: ReplaySpeed = 'max', untilDone = true): Promise<Replay> {
  const url = uniqueUrl('play');
  const player = createPlayer({ url, recording, speed });
  const connection = createConnection({
    url,
    getToken: () => 'replay-token',
    webSocketFactory: player.webSocketFactory,
    heartbeatMs: 0,
    backoff: { initialMs: 100, maxMs: 100, random: () => 0 },
  });
  const observed = observe(connection);
  const checkpoints: Replay['checkpoints'] = [];
  player.delivered$.subscribe(({ index, frame }) => {
    const v = observed.views.at(-1)!;
    checkpoints.push({ index, command: frame.command, seq: v.seq, stale: v.stale, bids: v.bids, asks: v.asks, machines: observed.machines.at(-1) });
  });
  cleanups.push(() => {
    observed.stop();
    player.close();
  });
  connection.connect();
  if (untilDone) {
    let finished = false;
    void player.done.then(() => (finished = true));
    for (let i = 0; i < 500 && !finished; i++) await tick(20);
    expect(finished, `replay finished (waiting for ${player.waitingFor})`).toBe(true);
    const done = connection.disconnect();
    await tick(50);
    await done;
  }
  return { observed, checkpoints, player };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  vi.useRealTimers();
});

describe('recorder', () => {
  it('writes one JSON line per inbound frame with its time offset, socket events and the client frames, token redacted', async () => {
    const { frames, jsonl, live } = await recordSession();
    const lines = jsonl.trimEnd().split('\n');
    expect(lines).toHaveLength(frames.length);
    expect(parseRecording(jsonl)).toEqual(frames);
    const first = JSON.parse(lines[0]!) as RecordedFrame;
    expect(first).toMatchObject({ t: 0, command: '@open', socket: 1 });
    const inbound = frames.filter((f) => !f.dir);
    expect(inbound.filter((f) => f.command === 'CONNECTED')).toHaveLength(2);
    expect(inbound.filter((f) => f.command === '@close').map((f) => f.headers['initiator'])).toEqual(['server', 'client']);
    expect(inbound.filter((f) => f.command === 'RECEIPT')).toHaveLength(1);
    const messages = inbound.filter((f) => f.command === 'MESSAGE');
    expect(messages.length).toBeGreaterThan(20);
    for (const m of messages) expect(JSON.parse(m.body)).toBeTypeOf('object');
    // Offsets grow with the (fake) clock.
    expect(inbound.at(-1)!.t).toBeGreaterThanOrEqual(2_700);
    expect([...frames].map((f) => f.t)).toEqual([...frames].map((f) => f.t).sort((a, b) => a - b));
    const connects = frames.filter((f) => f.dir === 'out' && f.command === 'CONNECT');
    expect(connects).toHaveLength(2);
    for (const c of connects) expect(c.headers['Authorization']).toBe('<redacted>');
    expect(jsonl).not.toContain('secret-token');
    // The live session went through a gap, a reconnect, and reported the bad payload.
    expect(live.views.some((v) => v.staleReason === 'gap')).toBe(true);
    expect(live.views.some((v) => v.staleReason === 'reconnect' && v.snapshots === 2)).toBe(true);
    expect(live.trades).toEqual(['T1', 'T2', 'T3']);
    expect(live.errors.filter((e) => e.kind === 'payload')).toHaveLength(1);
  });

  it('rejects a malformed recording line with its number', () => {
    expect(() => parseRecording('{"t":0,"command":"@open","headers":{},"body":"","socket":1}\n{"t":-1}\n')).toThrow(/line 2/);
    expect(() => parseRecording('nope')).toThrow(/line 1: not JSON/);
  });
});

describe('player', () => {
  it('replays a recording as fast as possible twice with the same books at every checkpoint, equal to the live session', async () => {
    const { jsonl, live } = await recordSession();
    const first = await replay(jsonl);
    const second = await replay(jsonl);
    expect(first.checkpoints.length).toBeGreaterThan(20);
    expect(second.checkpoints).toEqual(first.checkpoints);
    expect(first.observed.views).toEqual(live.views);
    expect(second.observed.views).toEqual(live.views);
    expect(first.observed.trades).toEqual(live.trades);
    expect(first.observed.states).toEqual(live.states);
    expect(first.observed.errors).toEqual(live.errors);
    expect(first.observed.machines).toEqual(live.machines);
    expect(live.machines).toContain('connected/suspended');
    expect(live.machines).toContain('reconnecting/suspended');
    expect(live.machines.at(-1)).toBe('offline/trading');
    // Specific checkpoints: stale right after the gap delta, fresh after the resync snapshot.
    const staleAfterGap = first.checkpoints.find((c) => c.stale && c.seq !== null && c.command === 'MESSAGE');
    expect(staleAfterGap).toBeDefined();
    const last = first.checkpoints.filter((c) => c.command === 'MESSAGE').at(-1)!;
    expect(last.stale).toBe(false);
    expect(first.player.socketsOpened).toBe(2);
  });

  it('keeps recorded spacing at 1x and divides it at Nx', async () => {
    const frames: RecordedFrame[] = [
      { t: 0, command: '@open', headers: { url: 'x' }, body: '', socket: 1 },
      { t: 0, command: 'SUBSCRIBE', headers: { id: 'sub-0', destination: TRADES }, body: '', dir: 'out', socket: 1 },
      { t: 5, command: 'CONNECTED', headers: { version: '1.2', 'heart-beat': '0,0' }, body: '', socket: 1 },
      ...[1, 2, 3].map((n) => ({
        t: 5 + n * 1_000,
        command: 'MESSAGE',
        headers: { destination: TRADES, subscription: 'sub-0', 'message-id': String(n) },
        body: JSON.stringify(trade(n)),
        socket: 1,
      })),
    ];
    for (const [speed, spacing] of [
      [1, 1_000],
      [4, 250],
    ] as const) {
      const { observed } = await replay(frames, speed, false);
      await tick(50);
      expect(observed.trades).toEqual([]);
      await tick(spacing - 60);
      expect(observed.trades).toEqual([]);
      await tick(20);
      expect(observed.trades).toEqual(['T1']);
      await tick(spacing);
      expect(observed.trades).toEqual(['T1', 'T2']);
      await tick(spacing);
      expect(observed.trades).toEqual(['T1', 'T2', 'T3']);
    }
  });

  it('pauses, steps one frame at a time (waiting for the gate), and plays on', async () => {
    const { jsonl } = await recordSession();
    const url = uniqueUrl('step');
    const player = createPlayer({ url, recording: jsonl, paused: true });
    cleanups.push(() => player.close());
    const connection = createConnection({ url, getToken: () => 't', webSocketFactory: player.webSocketFactory, heartbeatMs: 0, backoff: { initialMs: 100, maxMs: 100 } });
    const observed = observe(connection);
    cleanups.push(() => observed.stop());
    connection.connect();
    await tick(50);
    expect(player.paused).toBe(true);
    expect(connection.state.status).toBe('connecting');
    const connected = player.step();
    await tick(10);
    await expect(connected).resolves.toMatchObject({ index: 0, frame: { command: 'CONNECTED' } });
    expect(connection.state.status).toBe('connected');
    const snapshot = player.step();
    await tick(20);
    await expect(snapshot).resolves.toMatchObject({ frame: { command: 'MESSAGE', headers: { destination: BOOK } } });
    expect(observed.views.at(-1)).toMatchObject({ stale: false, seq: 508 });
    await player.step();
    expect(observed.machines.at(-1)).toBe('connected/opening');
    await player.step();
    expect(observed.views.at(-1)).toMatchObject({ stale: false, seq: 509 });
    await tick(500);
    expect(observed.views.at(-1)!.seq).toBe(509);
    player.play();
    let finished = false;
    void player.done.then(() => (finished = true));
    for (let i = 0; i < 200 && !finished; i++) await tick(20);
    expect(finished).toBe(true);
    expect(player.position).toBe(player.length);
    await expect(player.step()).resolves.toBeNull();
  });

  it('says what it waits for as each wait starts and ends, between frames (waitingFor$)', async () => {
    const frames: RecordedFrame[] = [
      { t: 0, command: '@open', headers: { url: 'ws://waits.test/session/ws' }, body: '', socket: 1 },
      { t: 0, command: 'CONNECT', headers: { 'accept-version': '1.2', 'heart-beat': '0,0' }, body: '', dir: 'out', socket: 1 },
      { t: 0, command: 'CONNECTED', headers: { version: '1.2', 'heart-beat': '0,0' }, body: '', socket: 1 },
      { t: 0, command: 'SUBSCRIBE', headers: { id: 'sub-0', destination: TRADES }, body: '', dir: 'out', socket: 1 },
      { t: 10, command: 'MESSAGE', headers: { destination: TRADES, subscription: 'sub-0', 'message-id': '1', 'content-type': 'application/json' }, body: JSON.stringify(trade(1)), socket: 1 },
    ];
    const url = uniqueUrl('waits');
    const player = createPlayer({ url, recording: frames, speed: 'max' });
    cleanups.push(() => player.close());
    const waits: Array<string | null> = [];
    const watching = player.waitingFor$.subscribe((what) => waits.push(what));
    cleanups.push(() => watching.unsubscribe());
    const connection = createConnection({ url, getToken: () => 't', webSocketFactory: player.webSocketFactory, heartbeatMs: 0, backoff: { initialMs: 100, maxMs: 100 } });
    connection.connect();
    await tick(100);
    // Connected; the trade waits for a SUBSCRIBE the client has not made: the wait is told without a frame.
    expect(connection.state.status).toBe('connected');
    expect(player.waitingFor).toMatch(/SUBSCRIBE/);
    expect(waits.at(-1)).toBe(player.waitingFor);
    const delivered: number[] = [];
    player.delivered$.subscribe(({ index }) => delivered.push(index));
    const seen: string[] = [];
    const watchingTrades = trades$(connection, ASSET).subscribe((t: Trade) => seen.push(t.transactionId));
    cleanups.push(() => watchingTrades.unsubscribe());
    await tick(100);
    expect(seen).toEqual(['T1']);
    expect(player.waitingFor).toBeNull();
    // Each wait once, from its start to its end; no repeats.
    expect(waits[0]).toBeNull();
    expect(waits.filter((what) => what !== null && /SUBSCRIBE/.test(what))).toHaveLength(1);
    expect(waits.at(-1)).toBeNull();
    expect(waits.every((what, index) => index === 0 || what !== waits[index - 1])).toBe(true);
  });

  it('answers a CONNECT the recording has no CONNECTED for, and receipts live', async () => {
    const url = uniqueUrl('empty');
    const player = createPlayer({ url, recording: [] });
    cleanups.push(() => player.close());
    const connection = createConnection({ url, getToken: () => 't', webSocketFactory: player.webSocketFactory, heartbeatMs: 0, backoff: { initialMs: 100, maxMs: 100 } });
    connection.connect();
    await tick(50);
    expect(connection.state.status).toBe('connected');
    const done = connection.disconnect();
    await tick(50);
    await expect(done).resolves.toEqual({ receipt: true });
  });
});

describe('committed fixture', () => {
  it('replays tests/streams/fixtures/fake-gap-reconnect.jsonl to the same checkpoints every time', async () => {
    const path = fileURLToPath(new URL('./fixtures/fake-gap-reconnect.jsonl', import.meta.url));
    const recording = readFileSync(path, 'utf8');
    const a = await replay(recording);
    const b = await replay(recording);
    expect(b.checkpoints).toEqual(a.checkpoints);
    const messages = a.checkpoints.filter((c) => c.command === 'MESSAGE');
    expect(messages.at(-1)).toMatchObject({ stale: false, seq: 528 });
    expect(a.observed.views.filter((v) => v.staleReason === 'gap')).toHaveLength(1);
    expect(a.observed.views.filter((v) => !v.stale).map((v) => v.snapshots)).toContain(3);
    expect(a.observed.trades).toEqual(['T1', 'T2', 'T3']);
    // Machine states at checkpoints: suspended right after the suspension frame, trading after the reconnect.
    const suspension = a.checkpoints.findIndex((c) => c.machines === 'connected/suspended');
    expect(suspension).toBeGreaterThan(0);
    expect(a.checkpoints.at(-1)!.machines).toBe('connected/trading');
  });
});

describe('golden recording', () => {
  it('a fresh recording of the scripted session equals the committed fixture (UPDATE_FIXTURES=1 rewrites it)', async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    const { jsonl } = await recordSession();
    const path = fileURLToPath(new URL('./fixtures/fake-gap-reconnect.jsonl', import.meta.url));
    if (process.env['UPDATE_FIXTURES'] === '1') {
      mkdirSync(fileURLToPath(new URL('./fixtures/', import.meta.url)), { recursive: true });
      writeFileSync(path, jsonl);
    }
    expect(jsonl).toBe(readFileSync(path, 'utf8'));
  });
});
