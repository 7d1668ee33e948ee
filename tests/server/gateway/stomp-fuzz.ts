/**
 * The STOMP fuzzing harness (issue 13, Build item 3), shared by tests/server/gateway/frame-codec.fuzz.test.ts
 * and scripts/fuzz-stomp.ts: fast-check arbitraries of random and mutated client frames, and a
 * session run over an in-memory WebSocket (the gateway's real Connection, parser and refusals, no
 * socket) that judges each input:
 *   crash   - an exception escaped the gateway;
 *   hang    - one input kept the gateway busy longer than HANG_MS;
 *   uncoded - the gateway closed the socket without an ERROR frame carrying a catalogue code (other
 *             than UNKNOWN_ERROR) whose JSON body repeats the code with the catalogue's parameters.
 */
import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { errorCatalogue, isErrorCode } from '../../../protocol/index.ts';
import { Connection, type ConnectionContext } from '../../../server/gateway/connection.ts';
import { SubscriptionRegistry } from '../../../server/gateway/subscriptions.ts';
import type { Principal, ResolvedOptions } from '../../../server/gateway/types.ts';
import { parseServerFrames } from './helpers.ts';

export const HANG_MS = 1000;
export const GOOD_TOKEN = 'fuzz-good-token';

const principal: Principal = { userId: 'u-fuzz', username: 'fuzz', roles: ['client'], clientCodes: ['C1'], marketIds: ['M1'] };

/** A WebSocket as the Connection uses it, recording what the server sends and whether it closed. */
class MemorySocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  binaryType = 'nodebuffer';
  readonly sent: Buffer[] = [];
  closeCode: number | undefined;
  send(data: Buffer): void {
    this.sent.push(Buffer.from(data));
  }
  close(code: number): void {
    if (this.readyState !== 1) return;
    this.closeCode = code;
    this.readyState = 2;
    setImmediate(() => this.finish());
  }
  terminate(): void {
    this.closeCode ??= 1006;
    this.finish();
  }
  pause(): void {}
  resume(): void {}
  private finish(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.emit('close');
  }
}

function context(): ConnectionContext {
  const options: ResolvedOptions = {
    server: undefined as never,
    path: '/session/ws',
    authenticate: async (token) => {
      if (token !== GOOD_TOKEN) throw Object.assign(new Error('bad token'), { code: 'AUTH_TOKEN_INVALID', params: {} });
      return principal;
    },
    authorize: (who, destination) => 'id' in destination && (destination.id === 'A1' || who.marketIds.includes(destination.id)),
    onSend: async (_who, _destination, body) => {
      if (body.length > 100) throw Object.assign(new Error('too long'), { code: 'CHAT_MESSAGE_INVALID', params: { maxLength: 100 } });
    },
    heartbeatMs: 0,
    connectTimeoutMs: 60_000,
    maxFrameBytes: 8 * 1024,
    maxHeaders: 16,
    maxBufferedBytes: 1024 * 1024,
    maxSubscriptionsPerConnection: 20,
    maxSubscriptionsPerUser: 40,
    maxConnectionsPerUser: 1_000_000,
    maxMessagesBeforeConnect: 64,
    now: Date.now,
    expiryCheckMs: 1000,
  };
  let id = 0;
  return {
    options,
    registry: new SubscriptionRegistry(),
    nextMessageId: () => String(++id),
    onClosed: () => {},
    openSession: () => true,
    closeSession: () => {},
    counters: { messagesSent: 0, slowConsumersDropped: 0 },
    userSubscriptions: new Map(),
  };
}

// ---- inputs ----

const CONNECT = `CONNECT\naccept-version:1.2\nhost:exchange\nheart-beat:0,0\nAuthorization:Bearer ${GOOD_TOKEN}\n\n\0`;

const destinationArb = fc.constantFrom(
  '/topic/book.A1',
  '/topic/trades.A1',
  '/topic/phase.M1',
  '/topic/book.Z9',
  '/user/queue/orders',
  '/user/queue/nothing',
  '/app/chat',
  '/topic/../etc',
  '',
);
const textArb = fc.string({ maxLength: 12 });
const headerArb = fc.tuple(fc.constantFrom('id', 'receipt', 'destination', 'ack', 'x', 'content-type', 'content-length'), textArb);

/** A well-formed client frame (not necessarily a sensible one). */
const validFrameArb: fc.Arbitrary<string> = fc.oneof(
  fc.constant(CONNECT),
  fc.tuple(textArb, destinationArb, fc.option(textArb)).map(
    ([id, destination, receipt]) => `SUBSCRIBE\nid:${id}\ndestination:${destination}\n${receipt === null ? '' : `receipt:${receipt}\n`}\n\0`,
  ),
  textArb.map((id) => `UNSUBSCRIBE\nid:${id}\n\n\0`),
  fc.tuple(destinationArb, fc.string({ maxLength: 200 })).map(([destination, body]) => {
    const bytes = Buffer.byteLength(body);
    return `SEND\ndestination:${destination}\ncontent-type:text/plain\ncontent-length:${bytes}\n\n${body}\0`;
  }),
  fc.tuple(fc.constantFrom('ACK', 'NACK', 'BEGIN', 'COMMIT', 'ABORT'), textArb).map(([command, id]) => `${command}\nid:${id}\ntransaction:${id}\n\n\0`),
  fc.array(headerArb, { maxLength: 6 }).map((headers) => `SEND\n${headers.map(([n, v]) => `${n}:${v}`).join('\n')}\n\nhello\0`),
  fc.constant('DISCONNECT\nreceipt:bye\n\n\0'),
  fc.constant('\n'),
  fc.constant('\r\n'),
);

type Mutation = (bytes: Buffer) => Buffer;
const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  // byte flips
  fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }).map((flips) => (bytes: Buffer) => {
    const out = Buffer.from(bytes);
    for (const [at, value] of flips) if (out.length > 0) out[at % out.length] = value;
    return out;
  }),
  // truncation
  fc.nat().map((at) => (bytes: Buffer) => bytes.subarray(0, bytes.length === 0 ? 0 : at % bytes.length)),
  // a NUL inserted
  fc.nat().map((at) => (bytes: Buffer) => insert(bytes, at, Buffer.from([0]))),
  // a bad escape in a header
  fc.constantFrom('\\x', '\\', '\\t', '\\c\\').map((escape) => (bytes: Buffer) => insertAfterFirstColon(bytes, escape)),
  // header bloat: many headers, or one very long one
  fc.integer({ min: 10, max: 60 }).map((n) => (bytes: Buffer) => insertAfterFirstLine(bytes, 'h:v\n'.repeat(n))),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => (bytes: Buffer) => insertAfterFirstLine(bytes, `big:${'x'.repeat(n)}\n`)),
  // a huge, negative or lying content-length
  fc.constantFrom('99999999999', '4294967296', '9000', '-1', '1e3', '0', ' 5').map((length) => (bytes: Buffer) => insertAfterFirstLine(bytes, `content-length:${length}\n`)),
  // CRs, a lowercase command, a header without a colon
  fc.constant((bytes: Buffer) => Buffer.from(bytes.toString('latin1').replace(/\n/g, '\r'), 'latin1')),
  fc.constant((bytes: Buffer) => Buffer.from(bytes.toString('latin1').toLowerCase(), 'latin1')),
  fc.constant((bytes: Buffer) => insertAfterFirstLine(bytes, 'no-colon-here\n')),
);

function insert(bytes: Buffer, at: number, what: Buffer): Buffer {
  const i = bytes.length === 0 ? 0 : at % (bytes.length + 1);
  return Buffer.concat([bytes.subarray(0, i), what, bytes.subarray(i)]);
}
function insertAfterFirstLine(bytes: Buffer, text: string): Buffer {
  const eol = bytes.indexOf(0x0a);
  return insert(bytes, eol === -1 ? bytes.length : eol + 1, Buffer.from(text, 'latin1'));
}
function insertAfterFirstColon(bytes: Buffer, text: string): Buffer {
  const colon = bytes.indexOf(0x3a);
  return insert(bytes, colon === -1 ? bytes.length : colon + 1, Buffer.from(text, 'latin1'));
}

const frameArb: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 2, arbitrary: validFrameArb.map((text) => Buffer.from(text, 'utf8')) },
  { weight: 6, arbitrary: fc.tuple(validFrameArb, fc.array(mutationArb, { minLength: 1, maxLength: 3 })).map(([text, mutations]) => mutations.reduce<Buffer>((bytes, mutate) => mutate(bytes), Buffer.from(text, 'utf8'))) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
);

export interface FuzzInput {
  /** Whether a valid CONNECT goes first, so the frames after it reach the connected session. */
  connected: boolean;
  frames: Buffer[];
  /** How the bytes are cut into WebSocket messages: sizes, cycled. */
  cuts: number[];
}

export const inputArb: fc.Arbitrary<FuzzInput> = fc.record({
  connected: fc.boolean(),
  frames: fc.array(frameArb, { minLength: 1, maxLength: 4 }),
  cuts: fc.array(fc.integer({ min: 1, max: 4096 }), { minLength: 1, maxLength: 4 }),
});

// ---- one run ----

export type Verdict = 'accepted' | 'refused' | 'waiting' | 'crash' | 'hang' | 'uncoded';

export interface Outcome {
  verdict: Verdict;
  /** The code of the ERROR frame, when refused. */
  code?: string;
  detail?: string;
}

/** Feeds one input to a fresh session and judges what the gateway did. */
export async function runInput(input: FuzzInput): Promise<Outcome> {
  const ws = new MemorySocket();
  const connection = new Connection(ws as never, context(), 'fuzz');
  try {
    return await judge(input, ws, connection);
  } finally {
    void connection.shutdown();
  }
}

async function judge(input: FuzzInput, ws: MemorySocket, connection: Connection): Promise<Outcome> {
  const bytes = Buffer.concat([...(input.connected ? [Buffer.from(CONNECT)] : []), ...input.frames]);
  const started = performance.now();
  try {
    let at = 0;
    for (let i = 0; at < bytes.length; i++) {
      const size = input.cuts[i % input.cuts.length]!;
      ws.emit('message', bytes.subarray(at, at + size));
      at += size;
      // Let the asynchronous steps (authenticate, onSend) run between messages now and then.
      if (i % 3 === 2) await Promise.resolve();
    }
    // Settle: authentication and SEND hooks are promises; a close finishes on the next turn.
    for (let i = 0; i < 20 && ws.readyState === 1; i++) await new Promise((resolve) => setImmediate(resolve));
  } catch (error) {
    return { verdict: 'crash', detail: (error as Error).stack };
  }
  const elapsed = performance.now() - started;
  if (elapsed > HANG_MS) return { verdict: 'hang', detail: `${elapsed.toFixed(0)} ms` };
  if (ws.closeCode === undefined) return { verdict: connection.isOpen ? (bytes.length > 0 ? 'accepted' : 'waiting') : 'uncoded' };
  if (ws.closeCode === 1000) return { verdict: 'accepted' }; // DISCONNECT
  let frames;
  try {
    frames = ws.sent.flatMap((data) => parseServerFrames(data));
  } catch (error) {
    return { verdict: 'uncoded', detail: `server frame unreadable: ${(error as Error).message}` };
  }
  const error = frames.at(-1);
  if (error?.command !== 'ERROR') return { verdict: 'uncoded', detail: `closed ${ws.closeCode} without an ERROR frame` };
  const code = error.headers['code'];
  if (!isErrorCode(code) || code === 'UNKNOWN_ERROR') return { verdict: 'uncoded', code, detail: `ERROR code ${String(code)}` };
  let body: { code?: unknown; params?: Record<string, unknown> };
  try {
    body = JSON.parse(error.body) as typeof body;
  } catch {
    return { verdict: 'uncoded', code, detail: 'ERROR body is not JSON' };
  }
  const expected = [...errorCatalogue[code].params].sort();
  const got = Object.keys(body.params ?? {}).sort();
  if (body.code !== code || JSON.stringify(expected) !== JSON.stringify(got)) {
    return { verdict: 'uncoded', code, detail: `ERROR body ${error.body} does not match the catalogue (${expected.join(',')})` };
  }
  return { verdict: 'refused', code };
}

export interface FuzzTally {
  frames: number;
  inputs: number;
  crashes: number;
  hangs: number;
  uncoded: number;
  refused: number;
  accepted: number;
  codes: Map<string, number>;
  examples: string[];
}

export function newTally(): FuzzTally {
  return { frames: 0, inputs: 0, crashes: 0, hangs: 0, uncoded: 0, refused: 0, accepted: 0, codes: new Map(), examples: [] };
}

/**
 * Runs inputs drawn with `seed` until `frames` frames were tried, in batches (fast-check samples,
 * no shrinking: speed; a failure is printed with its input).
 */
export async function fuzz(frames: number, seed: number, tally: FuzzTally = newTally(), onBatch?: (tally: FuzzTally) => void): Promise<FuzzTally> {
  const batch = 2000;
  for (let round = 0; tally.frames < frames; round++) {
    const inputs = fc.sample(inputArb, { numRuns: batch, seed: seed + round });
    for (const input of inputs) {
      if (tally.frames >= frames) break;
      const outcome = await runInput(input);
      tally.inputs += 1;
      tally.frames += input.frames.length + (input.connected ? 1 : 0);
      if (outcome.verdict === 'crash') tally.crashes += 1;
      else if (outcome.verdict === 'hang') tally.hangs += 1;
      else if (outcome.verdict === 'uncoded') tally.uncoded += 1;
      else if (outcome.verdict === 'refused') tally.refused += 1;
      else tally.accepted += 1;
      if (outcome.code) tally.codes.set(outcome.code, (tally.codes.get(outcome.code) ?? 0) + 1);
      if (['crash', 'hang', 'uncoded'].includes(outcome.verdict) && tally.examples.length < 5) {
        tally.examples.push(`${outcome.verdict}: ${outcome.detail ?? ''} input=${JSON.stringify(Buffer.concat(input.frames).toString('latin1').slice(0, 300))}`);
      }
    }
    onBatch?.(tally);
  }
  return tally;
}
