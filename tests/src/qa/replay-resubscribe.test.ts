/**
 * A recording whose views subscribed to one destination more than once: a page left (UNSUBSCRIBE) and
 * opened again (a second SUBSCRIBE), and two views on one topic at once. The player's stack keeps one
 * subscription per destination, so the recording's later subscriptions have no counterpart in it: the
 * player used to wait for "SUBSCRIBE #2" for ever. It now plays them into the client's live subscription
 * to that destination (once the client has had its turn to make its own), and drops the copies a second
 * concurrent subscription received, so nothing is shown twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReplayController, type ReplaySnapshot } from '../../../src/qa/replay-controller.ts';
import type { RecordedFrame } from '../../../streams/recording.ts';

const ASSET = 'GSPOT-DA';
const MARKET = 'GAS-SPOT';
const BOOK = `/topic/book.${ASSET}`;
const TRADES = `/topic/trades.${ASSET}`;
const PHASE = `/topic/phase.${MARKET}`;
const STATS = `/topic/stats.${ASSET}`;

/** A recording made by hand, line by line as streams/recorder.ts writes one. */
class Script {
  readonly frames: RecordedFrame[] = [];
  private messageId = 0;
  constructor(private t = 0) {}
  at(t: number): this {
    this.t = t;
    return this;
  }
  private push(command: string, headers: Record<string, string>, body = '', out = false): this {
    this.frames.push({ t: this.t, command, headers, body, ...(out ? { dir: 'out' as const } : {}), socket: 1 });
    return this;
  }
  open(): this {
    return this.push('@open', { url: 'ws://exchange.test/session/ws' })
      .push('CONNECT', { Authorization: '<redacted>', 'accept-version': '1.2,1.1,1.0', 'heart-beat': '0,0' }, '', true)
      .push('CONNECTED', { version: '1.2', 'heart-beat': '0,0', server: 'energy-exchange-gateway/0.1', session: 's1' });
  }
  subscribe(id: string, destination: string): this {
    return this.push('SUBSCRIBE', { id, destination }, '', true);
  }
  unsubscribe(id: string): this {
    return this.push('UNSUBSCRIBE', { id }, '', true);
  }
  message(id: string, destination: string, body: unknown): this {
    return this.push('MESSAGE', { destination, subscription: id, 'message-id': String(++this.messageId), 'content-type': 'application/json' }, JSON.stringify(body));
  }
  close(): this {
    return this.push('DISCONNECT', { receipt: 'close-1' }, '', true)
      .push('RECEIPT', { 'receipt-id': 'close-1' })
      .push('@close', { code: '1000', reason: 'disconnect', initiator: 'client' });
  }
}

const at = (ms: number) => new Date(Date.parse('2026-11-22T09:00:00.000Z') + ms).toISOString();
const snapshot = (seq: number, t: number, asks: Array<[number, number]>) => ({
  type: 'snapshot',
  assetId: ASSET,
  seq,
  bids: [],
  asks: asks.map(([price, qty]) => ({ price, qty, orders: 1 })),
  at: at(t),
});
const delta = (seq: number, t: number, price: number, qty: number) => ({ type: 'delta', assetId: ASSET, seq, changes: [{ side: 'ask', price, qty, orders: qty === 0 ? 0 : 1 }], at: at(t) });
const trade = (id: string, t: number) => ({ transactionId: id, assetId: ASSET, price: 15000, qty: 10, noCnt: 10, aggressor: 'bid', txDate: '2026-11-22', timestamp: at(t) });
const phase = { marketId: MARKET, assetId: null, phase: 'trading', sessionDate: '2026-11-22', at: at(0), nextPhase: null, nextPhaseAt: null };
const stats = (t: number, lastPrice: number) => ({ assetId: ASSET, at: at(t), lastPrice });

/**
 * The asset page opened (book sub-1, trades sub-2, stats sub-3), a second view of the trades (sub-4),
 * the page left (sub-1, sub-2, sub-3 unsubscribed) and opened again (book sub-5, stats sub-6), its second
 * trades view left too (sub-4).
 */
function leftAndOpenedAgain(): RecordedFrame[] {
  return new Script()
    .open()
    .subscribe('sub-0', PHASE)
    .subscribe('sub-1', BOOK)
    .subscribe('sub-2', TRADES)
    .subscribe('sub-3', STATS)
    .message('sub-0', PHASE, phase)
    .message('sub-1', BOOK, snapshot(0, 0, []))
    .message('sub-3', STATS, stats(0, 14900))
    .at(100)
    .message('sub-1', BOOK, delta(1, 100, 15000, 100))
    .at(150)
    .subscribe('sub-4', TRADES)
    .at(200)
    .message('sub-1', BOOK, delta(2, 200, 15000, 90))
    // one trade, to both trades views
    .message('sub-2', TRADES, trade('T1', 200))
    .message('sub-4', TRADES, trade('T1', 200))
    .at(300)
    .unsubscribe('sub-1')
    .unsubscribe('sub-2')
    .unsubscribe('sub-3')
    .at(1_000)
    .subscribe('sub-5', BOOK)
    .subscribe('sub-6', STATS)
    .message('sub-5', BOOK, snapshot(4, 1_000, [[15000, 90], [15100, 20]]))
    .message('sub-6', STATS, stats(1_000, 15000))
    .at(1_100)
    .message('sub-5', BOOK, delta(5, 1_100, 15100, 0))
    // only the second trades view is left
    .message('sub-4', TRADES, trade('T2', 1_100))
    .at(1_200)
    .unsubscribe('sub-4')
    .subscribe('sub-7', TRADES)
    .at(1_300)
    .message('sub-7', TRADES, trade('T3', 1_300))
    .message('sub-5', BOOK, delta(6, 1_300, 15200, 5))
    .at(1_400)
    .close().frames;
}

let controller: ReplayController | undefined;
afterEach(() => {
  controller?.close();
  controller = undefined;
});

/** Plays at maximum speed; resolves with the snapshot at the end, or the last one when it stalls. */
function playToEnd(frames: RecordedFrame[], stallMs = 5_000): Promise<ReplaySnapshot> {
  const replay = (controller = new ReplayController(frames));
  return new Promise((resolve) => {
    const stalled = setTimeout(() => resolve(replay.getSnapshot()), stallMs);
    replay.subscribe(() => {
      const snapshot = replay.getSnapshot();
      if (snapshot.done) {
        clearTimeout(stalled);
        resolve(snapshot);
      }
    });
    replay.setSpeed('max');
    replay.play();
  });
}

describe('a recording that subscribed to a destination again', () => {
  it('replays to the end: the later subscriptions’ messages reach the client’s subscription, none twice', async () => {
    const end = await playToEnd(leftAndOpenedAgain());
    expect(end.done, `stalled after frame ${end.position} of ${end.length}`).toBe(true);
    const dump = end.lastFrameDump!;
    // The second page's snapshot (seq 4) and its deltas (5, 6) are in the book, after the first page's.
    expect(dump.book).toMatchObject({ seq: 6, stale: false, snapshots: 2, gaps: 0, droppedDeltas: 0 });
    // After the client's own DISCONNECT at the end, the same book, stale.
    expect(end.finalDump!.book).toMatchObject({ seq: 6, stale: true, staleReason: 'reconnect' });
    expect(dump.book.asks).toEqual([
      { price: 15000, qty: 90, orders: 1 },
      { price: 15200, qty: 5, orders: 1 },
    ]);
    // T1 reached two subscriptions of the recording, the client has one: shown once.
    expect(dump.trades).toEqual(['T1', 'T2', 'T3']);
    expect(dump.errors).toBe(0);
    // Every frame of the recording the player acts on passed.
    expect(end.position).toBe(end.length);
  });

  it('steps through it frame by frame to the same state as at maximum speed', async () => {
    const played = await playToEnd(leftAndOpenedAgain());
    controller?.close();
    const stepping = (controller = new ReplayController(leftAndOpenedAgain()));
    stepping.start(true);
    const seen: number[] = [];
    for (let i = 0; i < 40 && stepping.getSnapshot().position < stepping.getSnapshot().length; i++) {
      await stepping.step();
      const index = stepping.getSnapshot().frames.at(-1)?.index;
      if (index !== undefined && index !== seen.at(-1)) seen.push(index);
    }
    // Every frame once, in order, but the copy of T1 (the second trades view's): 13 of the 14.
    expect(seen).toEqual(played.frames.map((frame) => frame.index));
    expect(seen).toHaveLength(13);
    expect(stepping.getSnapshot().state).toEqual(played.lastFrameDump);
  });

  it('replays the same way every time', async () => {
    const first = await playToEnd(leftAndOpenedAgain());
    controller?.close();
    const second = await playToEnd(leftAndOpenedAgain());
    expect([first.done, second.done]).toEqual([true, true]);
    expect(second.finalDump).toEqual(first.finalDump);
    expect(second.frames.map((frame) => frame.index)).toEqual(first.frames.map((frame) => frame.index));
  });
});

describe('the replay status while the player waits for the client', () => {
  it('shows each wait as it starts and ends, not only when the next frame comes', async () => {
    const replay = (controller = new ReplayController(leftAndOpenedAgain()));
    const seen: Array<{ position: number; waitingFor: string | null }> = [];
    const done = new Promise<void>((resolve) => {
      replay.subscribe(() => {
        const snapshot = replay.getSnapshot();
        seen.push({ position: snapshot.position, waitingFor: snapshot.waitingFor });
        if (snapshot.done) resolve();
      });
    });
    replay.setSpeed('max');
    replay.play();
    await done;
    // The second SUBSCRIBE to the book the client does not repeat: the player waits out its grace, and says so.
    const waits = seen.filter((entry) => entry.waitingFor !== null && /SUBSCRIBE/.test(entry.waitingFor));
    expect(waits.length).toBeGreaterThan(0);
    // ...and says when the wait is over, at the same frame, before delivering it.
    const first = seen.indexOf(waits[0]!);
    expect(seen.slice(first + 1).find((entry) => entry.waitingFor === null)?.position).toBe(waits[0]!.position);
  });
});
