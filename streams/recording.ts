/**
 * The recording format of fixtures/sessions/ (one JSON object per line, as streams/recorder.ts writes
 * it) and its parser, shared by the browser (an uploaded file, the QA player) and the server (the
 * fixtures it lists for QA). A bad file is refused with the catalogue's RECORDING_INVALID {line, issue}:
 * the 1-based line and what is wrong with it.
 */
import { z } from 'zod';
import { ApiCallError } from './api.ts';

export const recordedFrameSchema = z.object({
  /** Milliseconds since the recording started. */
  t: z.number().nonnegative(),
  /** A STOMP command, or '@open', '@close', '@heartbeat'. */
  command: z.string().min(1),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  /** Client frames carry 'out'; inbound ones have no dir. */
  dir: z.literal('out').optional(),
  /** 1-based socket number within the recording. */
  socket: z.number().int().positive(),
});
export type RecordedFrame = z.infer<typeof recordedFrameSchema>;

/** STOMP 1.2 commands both ways, and the recorder's socket events. */
const knownCommands = new Set([
  'CONNECT',
  'STOMP',
  'CONNECTED',
  'SEND',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'ACK',
  'NACK',
  'BEGIN',
  'COMMIT',
  'ABORT',
  'DISCONNECT',
  'MESSAGE',
  'RECEIPT',
  'ERROR',
  '@open',
  '@close',
  '@heartbeat',
]);

/** RECORDING_INVALID as every client call throws its refusals; the message names the line too. */
function invalid(line: number, issue: string): ApiCallError {
  const error = new ApiCallError('RECORDING_INVALID', { line, issue }, 422);
  error.message = `recording line ${line}: ${issue}`;
  return error;
}

/**
 * Reads a recording (JSON lines; blank lines ignored). Throws RECORDING_INVALID {line, issue} on the
 * first bad line: not JSON, a field missing or of the wrong type, an unknown command, a time before the
 * line above; and on a file without a frame.
 */
export function parseRecording(text: string): RecordedFrame[] {
  const frames: RecordedFrame[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const number = index + 1;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw invalid(number, 'not JSON');
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json)) throw invalid(number, 'not a JSON object');
    const parsed = recordedFrameSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw invalid(number, `${issue.path.join('.') || 'frame'}: ${issue.message}`);
    }
    const frame = parsed.data;
    if (!knownCommands.has(frame.command)) throw invalid(number, `unknown command ${frame.command}`);
    const previous = frames.at(-1);
    if (previous && frame.t < previous.t) throw invalid(number, `t goes back in time (${frame.t} after ${previous.t})`);
    frames.push(frame);
  }
  if (frames.length === 0) throw invalid(1, 'no frames');
  return frames;
}

// ---- Redaction (a recording made in the app, for a bug report) ----

export const REDACTED = '<redacted>';

/** Headers that carry credentials or who the user is: the CONNECT token, STOMP login and passcode, the CONNECTED user name. */
const secretHeaders = new Set(['authorization', 'passcode', 'login', 'cookie', 'set-cookie', 'user-name', 'x-auth-token']);

/** JSON keys (any depth) whose string values name or reach a person, or are secrets. */
const personalKeys = new Set([
  'username',
  'userName',
  'actorName',
  'initiatorName',
  'partnerName',
  'createdBy',
  'clientName',
  'email',
  'phone',
  'phoneNumber',
  'password',
  'passcode',
  'token',
  'accessToken',
  'refreshToken',
  'totpSecret',
  'authorization',
]);

const patterns: ReadonlyArray<RegExp> = [
  /Bearer\s+[\w.~+/=-]+/gi, // a bearer token
  /eyJ[\w-]+\.[\w-]+\.[\w-]+/g, // a JWT
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, // an e-mail address
  /\+\d[\d ().-]{7,}\d/g, // an international phone number
  /\b0\d{9}\b/g, // a Romanian national phone number
];

function redactText(text: string): string {
  return patterns.reduce((value, pattern) => value.replace(pattern, REDACTED), text);
}

function redactValue(value: unknown, key?: string, person = false): unknown {
  if (typeof value === 'string') {
    if (key !== undefined && (personalKeys.has(key) || (person && key === 'name'))) return REDACTED;
    return redactText(value);
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    // An object with a login or an address is a person: its `name` is theirs.
    const isPerson = entries.some(([k]) => k === 'username' || k === 'email');
    return Object.fromEntries(entries.map(([k, v]) => [k, redactValue(v, k, isPerson)]));
  }
  return value;
}

/**
 * A frame with its tokens and personal data replaced by '<redacted>': the credential and identity
 * headers; in a JSON body every name, login, e-mail, phone number and token (by key), and anything
 * shaped like a bearer token, a JWT, an e-mail address or a phone number in any string. Numbers,
 * ids and codes are kept, so the recording replays to the same books and orders.
 */
export function redactFrame(frame: RecordedFrame): RecordedFrame {
  const headers = Object.fromEntries(Object.entries(frame.headers).map(([name, value]) => [name, secretHeaders.has(name.toLowerCase()) ? REDACTED : redactText(value)]));
  let body = frame.body;
  if (body !== '') {
    try {
      body = JSON.stringify(redactValue(JSON.parse(body)));
    } catch {
      body = redactText(body);
    }
  }
  return { ...frame, headers, body };
}

/** A recording as the file to download: one redacted frame per line. */
export function toRedactedJsonl(frames: readonly RecordedFrame[]): string {
  return frames.map((frame) => JSON.stringify(redactFrame(frame))).join('\n') + (frames.length > 0 ? '\n' : '');
}
