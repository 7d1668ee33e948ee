/**
 * A small STOMP 1.2 frame codec for the client side: the recorder parses what the socket received,
 * the player and the test servers parse what the client sent and encode what they answer.
 * Byte based (content-length counts UTF-8 octets), browser and Node alike; no Buffer.
 */

export interface StompFrameData {
  command: string;
  /** First occurrence of a repeated header wins (STOMP 1.2). */
  headers: Record<string, string>;
  body: string;
}

export type ParsedStompItem = StompFrameData | 'heartbeat';

const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;

/** Frames whose headers are not escaped (kept compatible with STOMP 1.0). */
const UNESCAPED: ReadonlySet<string> = new Set(['CONNECT', 'STOMP', 'CONNECTED']);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function unescapeHeaderValue(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\([rnc\\])/g, (_all, ch: string) => (ch === 'r' ? '\r' : ch === 'n' ? '\n' : ch === 'c' ? ':' : '\\'));
}

export function escapeHeaderValue(text: string): string {
  if (!/[\\\r\n:]/.test(text)) return text;
  return text.replace(/\\/g, '\\\\').replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/:/g, '\\c');
}

function toBytes(chunk: string | ArrayBuffer | ArrayBufferView): Uint8Array {
  if (typeof chunk === 'string') return encoder.encode(chunk);
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** Text of a WebSocket message (string or binary). */
export function socketDataToText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return decoder.decode(toBytes(data as ArrayBuffer));
  return String(data);
}

/**
 * Incremental parser: feed it WebSocket messages in any split; it returns the complete frames and
 * heart-beats (EOLs between frames) found so far and keeps the rest.
 */
export class StompFrameParser {
  private pending: Uint8Array = new Uint8Array(0);

  push(chunk: string | ArrayBuffer | ArrayBufferView): ParsedStompItem[] {
    const incoming = toBytes(chunk);
    let buf: Uint8Array;
    if (this.pending.length === 0) buf = incoming;
    else {
      buf = new Uint8Array(this.pending.length + incoming.length);
      buf.set(this.pending, 0);
      buf.set(incoming, this.pending.length);
    }
    const items: ParsedStompItem[] = [];
    let pos = 0;
    for (;;) {
      while (pos < buf.length && (buf[pos] === LF || (buf[pos] === CR && buf[pos + 1] === LF))) {
        items.push('heartbeat');
        pos += buf[pos] === CR ? 2 : 1;
      }
      if (pos >= buf.length) break;
      const parsed = parseOne(buf, pos);
      if (parsed === null) break;
      items.push(parsed.frame);
      pos = parsed.end;
    }
    this.pending = pos >= buf.length ? new Uint8Array(0) : buf.slice(pos);
    return items;
  }
}

function indexOfByte(buf: Uint8Array, byte: number, from: number): number {
  for (let i = from; i < buf.length; i++) if (buf[i] === byte) return i;
  return -1;
}

function parseOne(buf: Uint8Array, start: number): { frame: StompFrameData; end: number } | null {
  const commandEol = indexOfByte(buf, LF, start);
  if (commandEol === -1) return null;
  const commandEnd = commandEol > start && buf[commandEol - 1] === CR ? commandEol - 1 : commandEol;
  const command = decoder.decode(buf.subarray(start, commandEnd));
  const escaped = !UNESCAPED.has(command);
  const headers: Record<string, string> = {};
  let p = commandEol + 1;
  for (;;) {
    const eol = indexOfByte(buf, LF, p);
    if (eol === -1) return null;
    const lineEnd = eol > p && buf[eol - 1] === CR ? eol - 1 : eol;
    if (lineEnd === p) {
      p = eol + 1;
      break;
    }
    const line = decoder.decode(buf.subarray(p, lineEnd));
    const colon = line.indexOf(':');
    if (colon > 0) {
      const name = escaped ? unescapeHeaderValue(line.slice(0, colon)) : line.slice(0, colon);
      const value = escaped ? unescapeHeaderValue(line.slice(colon + 1)) : line.slice(colon + 1);
      if (!Object.prototype.hasOwnProperty.call(headers, name)) headers[name] = value;
    }
    p = eol + 1;
  }
  const contentLength = headers['content-length'];
  if (contentLength !== undefined && /^\d+$/.test(contentLength)) {
    const n = Number(contentLength);
    if (buf.length < p + n + 1) return null;
    return { frame: { command, headers, body: decoder.decode(buf.subarray(p, p + n)) }, end: p + n + 1 };
  }
  const nul = indexOfByte(buf, NUL, p);
  if (nul === -1) return null;
  return { frame: { command, headers, body: decoder.decode(buf.subarray(p, nul)) }, end: nul + 1 };
}

/** Parses one whole message (tests, tools); throws when it holds no complete frame. */
export function parseStompFrames(data: string | ArrayBuffer | ArrayBufferView): StompFrameData[] {
  return new StompFrameParser().push(data).filter((item): item is StompFrameData => item !== 'heartbeat');
}

/**
 * Serialises a frame as text. `content-length` is set whenever there is a body; header names and
 * values are escaped except in CONNECT, STOMP and CONNECTED.
 */
export function encodeStompFrame(command: string, headers: Record<string, string> = {}, body = ''): string {
  const escape = !UNESCAPED.has(command);
  let out = command + '\n';
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'content-length') continue;
    out += escape ? `${escapeHeaderValue(name)}:${escapeHeaderValue(value)}\n` : `${name.replace(/[\r\n]/g, ' ')}:${value.replace(/[\r\n]/g, ' ')}\n`;
  }
  if (body.length > 0) out += `content-length:${encoder.encode(body).length}\n`;
  return out + '\n' + body + '\0';
}

/** The heart-beat a peer sends: a bare end of line. */
export const STOMP_HEARTBEAT = '\n';

/** UTF-8 length of a string without encoding it (lone surrogates count 3, as TextEncoder writes U+FFFD). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * The hot inbound case, read without the general parser: a WebSocket text message holding exactly
 * one whole MESSAGE frame (what the gateway sends). Returns null for anything else (another command,
 * several frames, a partial frame, a content-length that does not match the body): the caller hands
 * such a message to the general parser. Header values are unescaped (STOMP 1.2); first one wins.
 */
export function readSingleMessageFrame(text: string): StompFrameData | null {
  if (!text.startsWith('MESSAGE\n') && !text.startsWith('MESSAGE\r\n')) return null;
  let end = text.length - 1;
  while (end >= 0 && (text.charCodeAt(end) === LF || text.charCodeAt(end) === CR)) end--;
  if (end < 0 || text.charCodeAt(end) !== NUL) return null;
  const headers: Record<string, string> = {};
  let p = text.indexOf('\n') + 1;
  for (;;) {
    const eol = text.indexOf('\n', p);
    if (eol === -1 || eol > end) return null;
    const lineEnd = eol > p && text.charCodeAt(eol - 1) === CR ? eol - 1 : eol;
    if (lineEnd === p) {
      p = eol + 1;
      break;
    }
    const colon = text.indexOf(':', p);
    if (colon > p && colon < lineEnd) {
      const name = unescapeHeaderValue(text.slice(p, colon));
      if (!Object.prototype.hasOwnProperty.call(headers, name)) headers[name] = unescapeHeaderValue(text.slice(colon + 1, lineEnd));
    }
    p = eol + 1;
  }
  const body = text.slice(p, end);
  // A NUL inside means another frame follows (or a binary body): the general parser decides.
  if (body.includes('\0')) return null;
  const contentLength = headers['content-length'];
  if (contentLength !== undefined && (!/^\d+$/.test(contentLength) || utf8Length(body) !== Number(contentLength))) return null;
  return { command: 'MESSAGE', headers, body };
}

/**
 * Whether a STOMP parser is between frames after `data`, given whether it was before: a chunk ending
 * in NUL (then EOLs) ends a frame; a chunk of EOLs only (heart-beats) leaves the state as it was.
 * (A content-length body ending in NUL with more to come would fool it; the gateway sends whole frames.)
 */
export function atFrameBoundaryAfter(data: unknown, before: boolean): boolean {
  let bytes: { length: number; at(i: number): number };
  if (typeof data === 'string') bytes = { length: data.length, at: (i) => data.charCodeAt(i) };
  else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
    const view = toBytes(data as ArrayBuffer);
    bytes = { length: view.length, at: (i) => view[i]! };
  } else return false;
  let i = bytes.length - 1;
  while (i >= 0 && (bytes.at(i) === LF || bytes.at(i) === CR)) i--;
  if (i < 0) return before;
  return bytes.at(i) === NUL;
}
