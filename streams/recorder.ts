/**
 * Records a socket session for replay: every inbound frame with its time offset, one JSON line per
 * frame: {"t":12,"command":"MESSAGE","headers":{...},"body":"...","socket":1}.
 *
 * Besides inbound frames it keeps what replay needs to be faithful:
 * - `@open` / `@close` lines for each socket (`@close` says who closed it: client or server);
 * - `@heartbeat` lines for inbound heart-beats (silence is part of a session);
 * - the client's own frames with `"dir":"out"` (SUBSCRIBE ids let the player map subscriptions);
 *   the bearer token of CONNECT is redacted.
 * Plug it into a connection with `createConnection({ ..., taps: [recorder.tap] })`.
 */
import type { SocketTap } from './connection.ts';
import type { RecordedFrame } from './recording.ts';
import { StompFrameParser } from './stomp-frames.ts';

export interface RecorderOptions {
  now?: () => number;
  /** Keep the client's frames (default true; the player uses SUBSCRIBE lines to map ids). */
  outbound?: boolean;
  /** Keep inbound heart-beats (default true). */
  heartbeats?: boolean;
  /** Header names whose values are replaced by '<redacted>' (default Authorization, passcode). */
  redact?: string[];
}

export interface Recorder {
  readonly tap: SocketTap;
  readonly frames: readonly RecordedFrame[];
  /** One JSON object per line, newline-terminated. */
  toJsonl(): string;
}

export function createRecorder(options: RecorderOptions = {}): Recorder {
  const now = options.now ?? Date.now;
  const keepOutbound = options.outbound ?? true;
  const keepHeartbeats = options.heartbeats ?? true;
  const redact = new Set((options.redact ?? ['Authorization', 'authorization', 'passcode']).map((h) => h.toLowerCase()));
  const frames: RecordedFrame[] = [];
  const sockets = new Map<number, { n: number; inbound: StompFrameParser; outbound: StompFrameParser }>();
  let started: number | undefined;
  let socketCount = 0;

  const offset = (): number => {
    const at = now();
    if (started === undefined) started = at;
    return at - started;
  };
  const socketOf = (socketId: number) => {
    let entry = sockets.get(socketId);
    if (!entry) {
      entry = { n: ++socketCount, inbound: new StompFrameParser(), outbound: new StompFrameParser() };
      sockets.set(socketId, entry);
    }
    return entry;
  };
  const clean = (headers: Record<string, string>): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (name === 'content-length') continue;
      out[name] = redact.has(name.toLowerCase()) ? '<redacted>' : value;
    }
    return out;
  };

  const tap: SocketTap = {
    opened(socketId, url) {
      const entry = socketOf(socketId);
      frames.push({ t: offset(), command: '@open', headers: { url }, body: '', socket: entry.n });
    },
    inbound(socketId, data) {
      const entry = socketOf(socketId);
      const t = offset();
      for (const item of entry.inbound.push(data)) {
        if (item === 'heartbeat') {
          if (keepHeartbeats) frames.push({ t, command: '@heartbeat', headers: {}, body: '', socket: entry.n });
        } else frames.push({ t, command: item.command, headers: clean(item.headers), body: item.body, socket: entry.n });
      }
    },
    outbound(socketId, data) {
      if (!keepOutbound) return;
      const entry = socketOf(socketId);
      const t = offset();
      for (const item of entry.outbound.push(data)) {
        if (item !== 'heartbeat') frames.push({ t, command: item.command, headers: clean(item.headers), body: item.body, dir: 'out', socket: entry.n });
      }
    },
    closed(socketId, info) {
      const entry = socketOf(socketId);
      frames.push({
        t: offset(),
        command: '@close',
        headers: { code: String(info.code), reason: info.reason, initiator: info.initiator },
        body: '',
        socket: entry.n,
      });
    },
  };

  return {
    tap,
    frames,
    toJsonl: () => frames.map((f) => JSON.stringify(f)).join('\n') + (frames.length > 0 ? '\n' : ''),
  };
}
