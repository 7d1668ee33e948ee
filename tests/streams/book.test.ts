/** The book stream: snapshot + deltas, gaps, reconnects and silence, against a fake STOMP server. */
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { destinations } from '../../protocol/destinations.ts';
import type { BookLevel } from '../../protocol/market-data.ts';
import { applyDelta, applySnapshot, book$, coalesceBookToFrame, emptyBook, setLevel, type BookView } from '../../streams/book.ts';
import { createConnection, type Connection, type ConnectionOptions } from '../../streams/connection.ts';
import { coalesceToFrame, createBatchedFrameScheduler, createManualFrameScheduler } from '../../streams/frame.ts';
import { encodeStompFrame } from '../../streams/stomp-frames.ts';
import { FakeStompServer, randomChange, ReferenceBook, seededRandom, uniqueUrl, type FakeServerOptions } from './fake-stomp-server.ts';

const tick = async (ms = 20): Promise<void> => {
  await vi.advanceTimersByTimeAsync(ms);
};
const ASSET = 'A1';
const BOOK = destinations.book(ASSET);

interface BookRig {
  server: FakeStompServer;
  connection: Connection;
  reference: ReferenceBook;
  /** Reference levels after each seq, to check any client book against the server at its seq. */
  history: Map<number, { bids: BookLevel[]; asks: BookLevel[] }>;
  views: BookView[];
  latest(): BookView;
  /** Changes the server's book and publishes the delta (unless `lose`: a delta lost on the way). */
  change(count?: number, options?: { lose?: boolean }): void;
  resubscribes: string[];
}

const cleanups: Array<() => Promise<void>> = [];

function bookRig(options: { server?: FakeServerOptions; connection?: Partial<ConnectionOptions>; beforeSnapshot?: boolean } = {}): BookRig {
  const url = uniqueUrl('book');
  const reference = new ReferenceBook(ASSET, 100);
  const random = seededRandom(7);
  for (let i = 0; i < 6; i++) reference.change([randomChange(random, reference)]);
  const history = new Map<number, { bids: BookLevel[]; asks: BookLevel[] }>();
  const remember = (): void => {
    const { seq, bids, asks } = reference.levels();
    history.set(seq, { bids, asks });
  };
  remember();
  const server = new FakeStompServer(url, {
    ...options.server,
    onSubscribe: (connection, id, destination) => {
      if (destination !== BOOK) return;
      if (options.beforeSnapshot) {
        // A delta the server had queued before the snapshot: the client must drop it.
        const early = reference.change([randomChange(random, reference)]);
        remember();
        server.sendTo(connection, id, early);
      }
      server.sendTo(connection, id, reference.snapshot());
    },
  });
  let n = 0;
  const connection = createConnection({
    url,
    getToken: () => `token-${++n}`,
    webSocketFactory: server.webSocketFactory,
    heartbeatMs: 0,
    backoff: { initialMs: 100, maxMs: 1_000, random: () => 0 },
    ...options.connection,
  });
  const views: BookView[] = [];
  const resubscribes: string[] = [];
  const subscription = book$(connection, ASSET, { onResubscribe: (reason) => resubscribes.push(reason) }).subscribe((v) => views.push(v));
  cleanups.push(async () => {
    subscription.unsubscribe();
    const done = connection.disconnect({ timeoutMs: 50 });
    await tick(100);
    await done;
    server.close();
  });
  return {
    server,
    connection,
    reference,
    history,
    views,
    resubscribes,
    latest: () => views.at(-1)!,
    change(count = 1, { lose = false } = {}) {
      for (let i = 0; i < count; i++) {
        const delta = reference.change([randomChange(random, reference), randomChange(random, reference)]);
        remember();
        if (!lose) server.publish(BOOK, delta);
      }
    },
  };
}

/** Every non-stale book equals the server's book at its seq; a stale one never moved past a gap. */
function expectConsistent(rig: BookRig): void {
  let lastGood = -1;
  for (const view of rig.views) {
    if (view.seq === null) continue;
    const truth = rig.history.get(view.seq);
    expect(truth, `server history has seq ${view.seq}`).toBeDefined();
    expect({ bids: view.bids, asks: view.asks }).toEqual(truth);
    if (!view.stale) lastGood = view.seq;
    else expect(view.seq, 'a stale book keeps the last good seq').toBe(lastGood);
  }
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  vi.useRealTimers();
});

describe('pure fold', () => {
  it('keeps sides sorted best first; qty 0 removes a level; a snapshot replaces everything', () => {
    const level = (price: number, qty = 10): BookLevel => ({ price, qty, orders: 1 });
    let bids: BookLevel[] = [];
    for (const p of [100, 300, 200, 250]) bids = setLevel(bids, level(p), 'bid');
    expect(bids.map((l) => l.price)).toEqual([300, 250, 200, 100]);
    bids = setLevel(bids, level(250, 0), 'bid');
    bids = setLevel(bids, level(200, 77), 'bid');
    expect(bids).toEqual([level(300), level(200, 77), level(100)]);
    let asks: BookLevel[] = [];
    for (const p of [110, 105, 120]) asks = setLevel(asks, level(p), 'ask');
    expect(asks.map((l) => l.price)).toEqual([105, 110, 120]);
    expect(setLevel(asks, level(999, 0), 'ask')).toEqual(asks);

    const fresh = applySnapshot(emptyBook('X'), {
      type: 'snapshot',
      assetId: 'X',
      seq: 5,
      bids: [level(1), level(3)],
      asks: [level(9), level(7), level(8, 0)],
      at: 't',
    });
    expect(fresh).toMatchObject({ seq: 5, stale: false, staleReason: null, snapshots: 1 });
    expect(fresh.bids.map((l) => l.price)).toEqual([3, 1]);
    expect(fresh.asks.map((l) => l.price)).toEqual([7, 9]);
    const next = applyDelta(fresh, { type: 'delta', assetId: 'X', seq: 6, changes: [{ side: 'ask', price: 7, qty: 0, orders: 0 }], at: 'u' });
    expect(next.asks.map((l) => l.price)).toEqual([9]);
    expect(fresh.asks.map((l) => l.price)).toEqual([7, 9]);
  });
});

describe('book$', () => {
  it('starts stale (loading), folds the snapshot and every delta into the server book', async () => {
    const rig = bookRig();
    expect(rig.latest()).toMatchObject({ assetId: ASSET, seq: null, stale: true, staleReason: 'loading' });
    rig.connection.connect();
    await tick();
    expect(rig.latest()).toMatchObject({ seq: 106, stale: false, snapshots: 1 });
    rig.change(25);
    expect(rig.latest()).toMatchObject({ seq: 131, stale: false, gaps: 0 });
    expect({ bids: rig.latest().bids, asks: rig.latest().asks }).toEqual({ bids: rig.reference.levels().bids, asks: rig.reference.levels().asks });
    expect(rig.views.length).toBe(1 + 1 + 25);
    expectConsistent(rig);
  });

  it('drops deltas that arrive before the snapshot', async () => {
    const rig = bookRig({ beforeSnapshot: true });
    rig.connection.connect();
    await tick();
    expect(rig.latest()).toMatchObject({ seq: 107, stale: false, droppedDeltas: 1 });
    expect(rig.views.filter((v) => !v.stale)).toHaveLength(1);
    expectConsistent(rig);
  });

  it('a gap marks the book stale at once, resubscribes, never applies a delta across it, and the fresh snapshot clears it', async () => {
    const rig = bookRig();
    rig.connection.connect();
    await tick();
    rig.change(3);
    const before = rig.latest();
    expect(before).toMatchObject({ seq: 109, stale: false });
    rig.change(1, { lose: true }); // seq 110 never reaches the client
    rig.change(1); // seq 111: a gap
    // Stale synchronously, with the levels of seq 109.
    expect(rig.latest()).toMatchObject({ seq: 109, stale: true, staleReason: 'gap', gaps: 1 });
    expect(rig.latest().bids).toEqual(before.bids);
    expect(rig.resubscribes).toEqual(['gap']);
    // Deltas still in flight on the old subscription change nothing.
    rig.change(2);
    expect(rig.latest()).toMatchObject({ seq: 109, stale: true });
    await tick();
    const connection = rig.server.current!;
    expect(connection.received.filter((f) => f.command === 'UNSUBSCRIBE')).toHaveLength(1);
    expect(rig.server.subscribeCount(BOOK)).toBe(2);
    expect(rig.latest()).toMatchObject({ seq: 113, stale: false, snapshots: 2 });
    rig.change(2);
    expect(rig.latest()).toMatchObject({ seq: 115, stale: false });
    expectConsistent(rig);
    // No emitted book ever had a seq in 110..113 before the second snapshot.
    const firstFresh = rig.views.findIndex((v) => v.snapshots === 2);
    expect(rig.views.slice(0, firstFresh).every((v) => v.seq === null || v.seq <= 109)).toBe(true);
  });

  it('a reconnect marks the book stale at once and the restored subscription brings a fresh snapshot with a fresh token', async () => {
    const rig = bookRig();
    rig.connection.connect();
    await tick();
    rig.change(2);
    rig.server.drop();
    await tick(10);
    expect(rig.latest()).toMatchObject({ seq: 108, stale: true, staleReason: 'reconnect' });
    rig.change(5, { lose: true }); // the server moves on while the client is away
    await tick(150);
    expect(rig.connection.state.status).toBe('connected');
    expect(rig.server.connections[1]!.connectFrame!.headers['Authorization']).toBe('Bearer token-2');
    expect(rig.server.subscribeCount(BOOK)).toBe(2);
    expect(rig.latest()).toMatchObject({ seq: 113, stale: false, snapshots: 2 });
    rig.change(1);
    expect(rig.latest()).toMatchObject({ seq: 114, stale: false });
    expectConsistent(rig);
  });

  it('silence longer than the heart-beat marks the book stale and resubscribes', async () => {
    const rig = bookRig({ server: { heartbeat: '1000,1000' }, connection: { heartbeatMs: 1_000, silenceGraceMs: 100 } });
    rig.connection.connect();
    await tick();
    expect(rig.latest().stale).toBe(false);
    await tick(800);
    rig.change(1);
    await tick(800);
    expect(rig.latest()).toMatchObject({ seq: 107, stale: false });
    await tick(400); // 1200 ms since the last byte > 1000 + 100
    const silent = rig.views.find((v) => v.staleReason === 'silence');
    expect(silent).toMatchObject({ seq: 107, stale: true });
    expect(rig.resubscribes).toEqual(['silence']);
    await tick(20);
    expect(rig.latest()).toMatchObject({ stale: false, snapshots: 2 });
    expectConsistent(rig);
  });

  it('stays consistent through random flow with lost deltas and dropped sockets', async () => {
    const rig = bookRig();
    const random = seededRandom(42);
    rig.connection.connect();
    await tick();
    let gaps = 0;
    let drops = 0;
    for (let round = 0; round < 200; round++) {
      const roll = random();
      if (roll < 0.05) {
        rig.change(1, { lose: true });
        gaps += 1;
      } else if (roll < 0.07) {
        rig.server.drop();
        drops += 1;
        await tick(200);
      } else rig.change(1);
      if (round % 10 === 0) await tick(10);
    }
    await tick(300);
    rig.change(1);
    expect(gaps).toBeGreaterThan(3);
    expect(drops).toBeGreaterThan(1);
    expect(rig.latest().stale).toBe(false);
    expect(rig.latest().seq).toBe(rig.reference.seq);
    expectConsistent(rig);
  });
});

describe('book$ over any split of frames into socket messages', () => {
  it('folds the same whether a message holds one frame (the fast path), several, or part of one', async () => {
    const rig = bookRig();
    rig.connection.connect();
    await tick();
    const connection = rig.server.current!;
    const [id] = [...connection.subscriptions].find(([, destination]) => destination === BOOK)!;
    let messageId = 1000;
    const frames = (count: number): string => {
      let text = '';
      for (let i = 0; i < count; i++) {
        const delta = rig.reference.change([randomChange(seededRandom(i + rig.reference.seq), rig.reference)]);
        const { seq, bids, asks } = rig.reference.levels();
        rig.history.set(seq, { bids, asks });
        text += encodeStompFrame('MESSAGE', { destination: BOOK, subscription: id, 'message-id': String(++messageId), 'content-type': 'application/json' }, JSON.stringify(delta));
      }
      return text;
    };
    connection.socket.send(frames(1));
    connection.socket.send(frames(3) + '\n');
    const split = frames(2);
    connection.socket.send(split.slice(0, 40));
    // While stompjs holds half a frame, a whole frame must wait behind it (not take the fast path).
    connection.socket.send(split.slice(40) + frames(1));
    connection.socket.send(frames(1));
    await tick();
    expect(rig.latest()).toMatchObject({ seq: rig.reference.seq, stale: false, gaps: 0 });
    expect({ bids: rig.latest().bids, asks: rig.latest().asks }).toEqual({ bids: rig.reference.levels().bids, asks: rig.reference.levels().asks });
    expectConsistent(rig);
  });
});

describe('frame schedulers', () => {
  it('asks for one animation frame however many callbacks wait, runs them in order, and survives a throwing one', async () => {
    const asked: Array<() => void> = [];
    const frames = createBatchedFrameScheduler((run) => asked.push(run));
    const ran: string[] = [];
    frames.request(() => ran.push('a'));
    const cancelled = frames.request(() => ran.push('cancelled'));
    frames.request(() => {
      throw new Error('boom');
    });
    frames.request(() => ran.push('b'));
    frames.cancel(cancelled);
    expect(asked).toHaveLength(1);
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on('uncaughtException', onError);
    try {
      asked[0]!();
      await Promise.resolve();
      await Promise.resolve();
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(ran).toEqual(['a', 'b']);
    expect(errors).toEqual([new Error('boom')]);
    frames.request(() => ran.push('c'));
    expect(asked).toHaveLength(2);
  });
});

describe('coalesceToFrame', () => {
  it('emits the latest value once per frame', () => {
    const frames = createManualFrameScheduler();
    const source = new Subject<number>();
    const out: number[] = [];
    source.pipe(coalesceToFrame({ scheduler: frames })).subscribe((v) => out.push(v));
    source.next(1);
    source.next(2);
    source.next(3);
    expect(out).toEqual([]);
    expect(frames.pending()).toBe(1);
    frames.frame();
    expect(out).toEqual([3]);
    expect(frames.frame()).toBe(0);
    source.next(4);
    source.complete();
    expect(out).toEqual([3, 4]);
    expect(frames.pending()).toBe(0);
  });

  it('lets a book turning stale through at once, dropping the older value held for the frame', () => {
    const frames = createManualFrameScheduler();
    const source = new Subject<BookView>();
    const out: BookView[] = [];
    source.pipe(coalesceBookToFrame(frames)).subscribe((v) => out.push(v));
    const live = { ...emptyBook('A'), stale: false, staleReason: null, seq: 1 };
    source.next(live);
    source.next({ ...live, seq: 2 });
    source.next({ ...live, seq: 2, stale: true, staleReason: 'gap' });
    expect(out.map((v) => [v.seq, v.stale])).toEqual([[2, true]]);
    expect(frames.frame()).toBe(0);
    source.next({ ...live, seq: 5 });
    expect(out).toHaveLength(1);
    frames.frame();
    expect(out.map((v) => [v.seq, v.stale])).toEqual([
      [2, true],
      [5, false],
    ]);
  });

  it('falls back to a timer without requestAnimationFrame', async () => {
    const source = new Subject<number>();
    const out: number[] = [];
    source.pipe(coalesceToFrame()).subscribe((v) => out.push(v));
    source.next(1);
    source.next(2);
    await tick(20);
    expect(out).toEqual([2]);
  });
});
