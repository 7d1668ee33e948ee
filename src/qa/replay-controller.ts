/**
 * The QA player's engine (issue 16): a recording replayed through the app's own client session stack.
 * streams/player.ts stands where the exchange was; the connection, the session streams and machines are
 * the ones the live app makes (machines/client-session.ts), so the real views read them as they read a
 * live session (RealtimeScope). The session dump (machines/session-dump.ts) is the headless replay's:
 * at the end of a recording the player's dump is what tests/streams/recorded-sessions.test.ts compares.
 *
 * Controls: play, pause, step one frame, speed 1x / 10x / max, seek to a time (forward: as fast as the
 * client takes frames, then paused; back: the whole stack is made again and replayed from the start
 * as fast as possible). Not React: the page subscribes to it (subscribe/getSnapshot).
 */
import { z } from 'zod';
import type { Subscription } from 'rxjs';
import { createActor } from 'xstate';
import { clientSessionFor } from '../../machines/client-session.ts';
import type { ReferenceData } from '../../machines/reference.machine.ts';
import { watchSessionDump, type Checkpoint, type DumpConfig, type SessionDump } from '../../machines/session-dump.ts';
import type { SessionActorRef } from '../../machines/session.machine.ts';
import { destinations } from '../../protocol/destinations.ts';
import { createConnection, type Connection } from '../../streams/connection.ts';
import { immediateFrames } from '../../streams/frame.ts';
import { createPlayer, type Player, type ReplaySpeed } from '../../streams/player.ts';
import type { RecordedFrame } from '../../streams/recording.ts';

/** The frames kept for the frames panel (the latest). */
export const FRAME_LIST_CAP = 200;

/** The replaying client's reconnect delay: fixed, as the recorded sessions' client had it. */
const REPLAY_BACKOFF = { initialMs: 500, maxMs: 500, jitter: 0 } as const;

export interface PassedFrame {
  /** Position in the player's timeline. */
  index: number;
  t: number;
  command: string;
  destination: string | null;
  body: string;
}

export interface ReplaySnapshot {
  /** Bumped each time the stack is made again (seek back, restart): the views take the new session. */
  run: number;
  position: number;
  length: number;
  /** Recording time of the last frame delivered, ms. */
  t: number;
  /** Recording time of the last frame, ms. */
  duration: number;
  /**
   * The server's time at `t` as the recording tells it (serverTimeBase + t), null when no frame says:
   * the replayed views' ages and countdowns read it, so a replay shows the same screens whenever it runs.
   */
  serverTime: number | null;
  speed: ReplaySpeed;
  paused: boolean;
  done: boolean;
  waitingFor: string | null;
  /** Going to a time (seek) and not there yet. */
  seeking: boolean;
  /** The latest frames delivered, newest last (at most FRAME_LIST_CAP). */
  frames: readonly PassedFrame[];
  /** The session dump after the last frame (updated as frames pass). */
  state: Checkpoint | null;
  /** The dump right after the last frame (before the client's DISCONNECT): a recording made in the app is compared with the live session's at its stop. */
  lastFrameDump: Checkpoint | null;
  /** The dump at the end: after every frame and the client's own DISCONNECT, as the headless replay takes it. */
  finalDump: Checkpoint | null;
}

/** The asset and market a recording is about: its first book subscription, its market's phase topic. */
export function dumpTargetOfRecording(frames: readonly RecordedFrame[]): DumpConfig | null {
  const destinationsSeen = frames.map((frame) => frame.headers['destination']).filter((d): d is string => d !== undefined);
  const assetId = destinationsSeen.find((d) => d.startsWith('/topic/book.'))?.slice('/topic/book.'.length);
  const market = destinationsSeen.find((d) => d.startsWith('/topic/phase.') || d.startsWith('/topic/market-watch.'));
  if (!assetId || !market) return null;
  return { assetId, marketId: market.slice(market.indexOf('.') + 1) };
}

interface Run {
  player: Player;
  connection: Connection;
  session: SessionActorRef;
  dump: SessionDump;
  subscriptions: Subscription[];
}

export interface ReplayControllerOptions {
  /** The session's reference data for the views (markets, assets); none in tests. */
  loadReference?: () => Promise<ReferenceData>;
}

/**
 * The server's clock at recording time 0: from the first message the server sent with a time (`at`, an
 * ISO instant, which book snapshots and deltas, phases and statistics carry), less that frame's
 * recording time. The network's delay makes it a little late, the same for every replay of the file.
 */
export function serverTimeBase(frames: readonly RecordedFrame[]): number | null {
  for (const frame of frames) {
    if (frame.command !== 'MESSAGE' || !frame.body.includes('"at"')) continue;
    try {
      const body = JSON.parse(frame.body) as { at?: unknown };
      const at = typeof body.at === 'string' ? Date.parse(body.at) : Number.NaN;
      if (Number.isFinite(at)) return at - frame.t;
    } catch {
      // not JSON: the next frame may say
    }
  }
  return null;
}

let playerCount = 0;

export class ReplayController {
  private run: Run | null = null;
  private runNumber = 0;
  private listeners = new Set<() => void>();
  private snapshot: ReplaySnapshot;
  private speed: ReplaySpeed = 1;
  private seekTarget: number | null = null;
  private seekSpeed: ReplaySpeed = 1;
  private passed: PassedFrame[] = [];
  private lastFrameDump: Checkpoint | null = null;
  readonly target: DumpConfig;
  readonly duration: number;
  /** The server's epoch ms at recording time 0 (see serverTimeBase), null when no frame carries a time. */
  readonly serverTimeBase: number | null;

  constructor(
    readonly frames: readonly RecordedFrame[],
    private readonly options: ReplayControllerOptions = {},
  ) {
    const target = dumpTargetOfRecording(frames);
    if (!target) throw new Error('recording without a book subscription');
    this.target = target;
    this.duration = frames.at(-1)?.t ?? 0;
    this.serverTimeBase = serverTimeBase(frames);
    this.snapshot = this.makeSnapshot(null);
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): ReplaySnapshot => this.snapshot;

  /** The running session (for the views), null before start(). */
  get current(): { connection: Connection; session: SessionActorRef } | null {
    return this.run;
  }

  private makeSnapshot(finalDump: Checkpoint | null): ReplaySnapshot {
    const run = this.run;
    return {
      run: this.runNumber,
      position: run?.player.position ?? 0,
      length: run?.player.length ?? 0,
      t: this.passed.at(-1)?.t ?? 0,
      duration: this.duration,
      serverTime: this.serverTimeBase === null ? null : this.serverTimeBase + (this.passed.at(-1)?.t ?? 0),
      speed: this.speed,
      paused: run?.player.paused ?? true,
      done: finalDump !== null,
      waitingFor: run?.player.waitingFor ?? null,
      seeking: this.seekTarget !== null,
      frames: this.passed,
      state: run && run.dump.views.length > 0 ? run.dump.checkpoint() : null,
      lastFrameDump: this.lastFrameDump,
      finalDump,
    };
  }

  private emit(finalDump: Checkpoint | null = this.snapshot.finalDump): void {
    this.snapshot = this.makeSnapshot(finalDump);
    for (const listener of [...this.listeners]) listener();
  }

  /** Makes the stack and starts the replay (paused: waits for play() or step()). */
  start(paused = true): void {
    this.teardown();
    this.runNumber += 1;
    this.passed = [];
    this.lastFrameDump = null;
    const url = `ws://qa-replay.invalid/session/ws/${++playerCount}`;
    const player = createPlayer({ url, recording: this.frames, speed: this.speed, paused });
    const connection = createConnection({ url, getToken: () => 'replay-token', webSocketFactory: player.webSocketFactory, heartbeatMs: 0, backoff: { ...REPLAY_BACKOFF } });
    // The app's own session stack, fed by the player; books shown at once (no animation frame to wait for).
    const { streams, machine } = clientSessionFor(connection, { frames: immediateFrames, ...(this.options.loadReference ? { loadReference: this.options.loadReference } : {}) });
    const session = createActor(machine).start();
    const dump = watchSessionDump(session, streams, this.target);
    const subscriptions: Subscription[] = [];
    // Destinations the recording has messages for that neither the session nor the dump follows: the
    // player delivers a message only to a subscription, so the replay subscribes to them too.
    const followed = new Set([
      destinations.book(this.target.assetId),
      destinations.trades(this.target.assetId),
      destinations.marketWatch(this.target.marketId),
      destinations.phase(this.target.marketId),
      destinations.myOrders,
      destinations.myTrades,
      destinations.myMarketWatch,
    ]);
    const others = new Set(this.frames.filter((f) => f.command === 'MESSAGE' && !f.dir).map((f) => f.headers['destination'] ?? ''));
    for (const destination of others) if (destination !== '' && !followed.has(destination)) subscriptions.push(connection.watch$(destination, z.unknown()).subscribe());
    const run: Run = { player, connection, session, dump, subscriptions };
    this.run = run;
    subscriptions.push(
      player.delivered$.subscribe(({ index, frame }) => {
        this.passed = [...this.passed.slice(-(FRAME_LIST_CAP - 1)), { index, t: frame.t, command: frame.command, destination: frame.headers['destination'] ?? null, body: frame.body }];
        if (this.seekTarget !== null && frame.t >= this.seekTarget) this.endSeek();
        this.emit();
      }),
    );
    // A wait for the client (its CONNECT, a SUBSCRIBE) starts and ends between frames: shown as it happens.
    subscriptions.push(
      player.waitingFor$.subscribe((waitingFor) => {
        if (this.run === run && this.snapshot.waitingFor !== waitingFor) this.emit();
      }),
    );
    void player.done.then(() => this.finish(run));
    connection.connect();
    this.emit(null);
  }

  /** After the last frame: the client's own DISCONNECT (as the headless replay ends), then the final dump. */
  private async finish(run: Run): Promise<void> {
    if (this.run !== run) return; // torn down (a seek back, a restart): not the end of the recording
    if (this.seekTarget !== null) this.endSeek();
    this.lastFrameDump = run.dump.views.length > 0 ? run.dump.checkpoint() : null;
    await run.connection.disconnect({ timeoutMs: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (this.run !== run) return;
    this.emit(run.dump.checkpoint());
  }

  private endSeek(): void {
    this.seekTarget = null;
    this.run?.player.pause();
    this.speed = this.seekSpeed;
    this.run?.player.setSpeed(this.speed);
  }

  play(): void {
    if (!this.run) this.start(false);
    this.run!.player.play();
    this.emit();
  }

  pause(): void {
    this.run?.player.pause();
    this.emit();
  }

  async step(): Promise<void> {
    if (!this.run) this.start(true);
    this.run!.player.pause();
    await this.run!.player.step();
    this.emit();
  }

  setSpeed(speed: ReplaySpeed): void {
    this.speed = speed;
    this.run?.player.setSpeed(speed);
    this.emit();
  }

  /**
   * Pauses at the first frame at or after `t` ms. Forward: as fast as possible from here. Back: the
   * stack is made again and the recording replayed from the start as fast as possible.
   */
  seek(t: number): void {
    const target = Math.max(0, Math.min(t, this.duration));
    if (!this.run || target < this.snapshot.t || this.snapshot.done) this.start(true);
    if (this.snapshot.t >= target && this.passed.length > 0) {
      this.run!.player.pause();
      this.emit();
      return;
    }
    this.seekSpeed = this.seekTarget === null ? this.speed : this.seekSpeed;
    this.seekTarget = target;
    this.run!.player.setSpeed('max');
    this.run!.player.play();
    this.emit();
  }

  private teardown(): void {
    const run = this.run;
    if (!run) return;
    this.run = null;
    for (const subscription of run.subscriptions) subscription.unsubscribe();
    run.dump.stop();
    run.session.stop();
    void run.connection.disconnect({ timeoutMs: 0 });
    run.player.close();
  }

  close(): void {
    this.seekTarget = null;
    this.teardown();
  }
}
