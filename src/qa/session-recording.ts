/**
 * Recording the live session in the app (issue 16), for a bug report. Starting a recording restarts
 * the live session on a fresh connection with the recorder tapped into its socket from the first byte,
 * so the file begins with the connection, every subscription and every snapshot, and replays on its own
 * (fixtures/sessions format, streams/recorder.ts). Stopping detaches the recorder (the session goes on),
 * makes the file with tokens and personal data redacted (streams/recording.ts), and keeps the dump of
 * the live session's state at that moment (machines/session-dump.ts), to compare with a replay.
 */
import { createRecorder, type Recorder } from '../../streams/recorder.ts';
import { toRedactedJsonl } from '../../streams/recording.ts';
import type { Connection, SocketTap } from '../../streams/connection.ts';
import { sessionStreams } from '../../streams/session.ts';
import { watchSessionDump, type Checkpoint, type DumpConfig, type SessionDump } from '../../machines/session-dump.ts';
import type { SessionActorRef } from '../../machines/session.machine.ts';

export type RecordingState =
  | { status: 'idle' }
  | { status: 'recording'; startedAt: number }
  | {
      status: 'stopped';
      /** The redacted file. */
      jsonl: string;
      fileName: string;
      frames: number;
      /** The live session's state at the stop (null when the recording did not start on an asset page). */
      dump: Checkpoint | null;
    };

/** The asset and market of an asset page's path (/trading/market/M/assets/A, with or without /en). */
export function dumpTargetOf(pathname: string): DumpConfig | null {
  const match = /\/trading\/market\/([^/]+)\/assets\/([^/?#]+)/.exec(pathname);
  return match ? { marketId: decodeURIComponent(match[1]!), assetId: decodeURIComponent(match[2]!) } : null;
}

function fileNameAt(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `session-${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}.jsonl`;
}

export class SessionRecording {
  private state: RecordingState = { status: 'idle' };
  private recorder: Recorder | null = null;
  private target: DumpConfig | null = null;
  private dump: SessionDump | null = null;
  private listeners = new Set<() => void>();
  /** Bumped by start(): the realtime provider keys its connection with it, so a start makes a new one. */
  private sessionGeneration = 0;
  /** The connection of the last session announced, and the one that was live when the recording started. */
  private lastConnection: Connection | null = null;
  private connectionBefore: Connection | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * A tap for a new app connection (its `taps`): it forwards the connection's traffic to the recorder
   * when the connection was made for the recording in progress (socket ids count per connection, so the
   * session before it, closing its own socket, is told apart by its tap).
   */
  tapForNewConnection(): SocketTap {
    const born = this.sessionGeneration;
    const recorder = (): Recorder | null => (this.recorder && born === this.sessionGeneration ? this.recorder : null);
    return {
      opened: (socketId, url) => recorder()?.tap.opened?.(socketId, url),
      inbound: (socketId, data) => recorder()?.tap.inbound?.(socketId, data),
      outbound: (socketId, data) => recorder()?.tap.outbound?.(socketId, data),
      closed: (socketId, info) => recorder()?.tap.closed?.(socketId, info),
    };
  }

  get generation(): number {
    return this.sessionGeneration;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): RecordingState => this.state;

  private set(state: RecordingState): void {
    this.state = state;
    for (const listener of [...this.listeners]) listener();
  }

  /** Starts recording: the next live session (made at once, on a new connection) is recorded whole. */
  start(target: DumpConfig | null): void {
    if (this.state.status === 'recording') return;
    this.dump?.stop();
    this.dump = null;
    this.target = target;
    this.recorder = createRecorder({ now: this.now, redact: ['Authorization', 'authorization', 'passcode', 'login'] });
    this.connectionBefore = this.lastConnection;
    this.sessionGeneration += 1;
    this.set({ status: 'recording', startedAt: this.now() });
  }

  /** The realtime provider made a session: while recording, the dump follows it from its start. */
  sessionStarted(connection: Connection, session: SessionActorRef): void {
    this.lastConnection = connection;
    if (this.state.status !== 'recording' || this.dump || !this.target || connection === this.connectionBefore) return;
    this.dump = watchSessionDump(session, sessionStreams(connection), this.target);
  }

  stop(): void {
    if (this.state.status !== 'recording' || !this.recorder) return;
    const frames = [...this.recorder.frames];
    this.recorder = null;
    const dump = this.dump && this.dump.views.length > 0 ? this.dump.checkpoint() : null;
    this.dump?.stop();
    this.dump = null;
    this.set({ status: 'stopped', jsonl: toRedactedJsonl(frames), fileName: fileNameAt(new Date(this.now())), frames: frames.length, dump });
  }

  /** Forgets a stopped recording. */
  clear(): void {
    if (this.state.status === 'stopped') this.set({ status: 'idle' });
  }
}

/** The app's one recording control. */
export const sessionRecording = new SessionRecording();
