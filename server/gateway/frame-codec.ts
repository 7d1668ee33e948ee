/**
 * STOMP 1.2 frame codec: an incremental byte parser for client frames and encoders for server frames.
 *
 * Wire format (https://stomp.github.io/stomp-specification-1.2.html#Augmented_BNF):
 *   COMMAND EOL *(header EOL) EOL body NUL *(EOL)
 * where EOL is LF or CR LF. Header names and values are escaped (\r \n \c \\) except in CONNECT,
 * STOMP and CONNECTED frames. `content-length`, when present, gives the body length in octets (the
 * body may then contain NULs); otherwise the body ends at the first NUL.
 */

const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;

export const CLIENT_COMMANDS = [
  'CONNECT',
  'STOMP',
  'SEND',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'ACK',
  'NACK',
  'BEGIN',
  'COMMIT',
  'ABORT',
  'DISCONNECT',
] as const;
export type ClientCommand = (typeof CLIENT_COMMANDS)[number];
const clientCommandSet: ReadonlySet<string> = new Set(CLIENT_COMMANDS);

/** Frames whose headers are not escaped (kept backward compatible with STOMP 1.0). */
const unescapedCommands: ReadonlySet<string> = new Set(['CONNECT', 'STOMP', 'CONNECTED']);

export interface StompFrame {
  command: ClientCommand;
  /** Header map; when a header repeats, the first occurrence wins (STOMP 1.2). */
  headers: Record<string, string>;
  body: Buffer;
}

export type FrameErrorCode = 'STOMP_FRAME_MALFORMED' | 'STOMP_FRAME_TOO_LARGE' | 'STOMP_TOO_MANY_HEADERS';

/** A frame the parser refuses; the connection answers with an ERROR frame carrying `code`. */
export class FrameError extends Error {
  constructor(
    readonly code: FrameErrorCode,
    readonly params: Record<string, string | number>,
    message: string,
  ) {
    super(message);
  }
}

export interface ParserLimits {
  /** Largest accepted frame, command line to NUL included. */
  maxFrameBytes: number;
  /** Most header lines accepted in one frame (repeats counted). */
  maxHeaders: number;
}

/** One parsed item: a frame, or a heart-beat (a bare EOL between frames). */
export type ParsedItem = StompFrame | 'heartbeat';

const EMPTY = Buffer.alloc(0);

/** Up to this many held bytes a new chunk is always parsed at once: garbage fails on its first bytes. */
const PROBE_BYTES = 32;

/**
 * Incremental parser: feed it WebSocket message bytes in any split (several frames per message,
 * one frame over several messages). It throws FrameError on the first bad frame; after that the
 * connection is to be closed and the parser dropped.
 *
 * Linear in the bytes received whatever the split: an unfinished frame is kept as a list of chunks
 * and parsed again only when it may have become complete (a NUL arrived, the content-length is
 * reached, or it outgrew the frame limit), so 60,000 one-byte messages cost 60,000 small pushes,
 * not 60,000 copies and scans of a growing buffer.
 */
export class FrameParser {
  private chunks: Buffer[] = [];
  private held = 0;
  /** Bytes the held frame needs before another parse can finish it (known from its content-length); 0 = unknown. */
  private needed = 0;

  constructor(private readonly limits: ParserLimits) {}

  /** Bytes handed to the frame scanner so far: the parser's work, linear in the bytes received (tests check it). */
  scannedBytes = 0;

  /** Bytes held while waiting for the rest of a frame. */
  get bufferedBytes(): number {
    return this.held;
  }

  push(chunk: Buffer): ParsedItem[] {
    if (chunk.length === 0) return [];
    if (this.held === 0) return this.parse(chunk);
    this.chunks.push(chunk);
    this.held += chunk.length;
    const worthParsing =
      this.needed > 0
        ? this.held >= this.needed
        : this.held <= PROBE_BYTES || this.held > this.limits.maxFrameBytes || chunk.includes(NUL);
    if (!worthParsing) return [];
    const buf = Buffer.concat(this.chunks, this.held);
    this.chunks = [];
    this.held = 0;
    return this.parse(buf);
  }

  private parse(buf: Buffer): ParsedItem[] {
    this.scannedBytes += buf.length;
    const items: ParsedItem[] = [];
    let pos = 0;
    this.needed = 0;
    for (;;) {
      // EOLs between frames are heart-beats.
      while (pos < buf.length) {
        const b = buf[pos];
        if (b === LF) {
          items.push('heartbeat');
          pos += 1;
        } else if (b === CR) {
          if (pos + 1 >= buf.length) break;
          if (buf[pos + 1] !== LF) throw malformed('stray carriage return');
          items.push('heartbeat');
          pos += 2;
        } else break;
      }
      if (pos >= buf.length || (buf[pos] === CR && pos + 1 >= buf.length)) break;
      const result = parseFrame(buf, pos, this.limits);
      if ('need' in result) {
        this.needed = result.need;
        break;
      }
      items.push(result.frame);
      pos = result.end;
    }
    if (pos < buf.length) {
      // A copy, so the held bytes do not pin the whole WebSocket message.
      this.chunks = [Buffer.from(buf.subarray(pos))];
      this.held = buf.length - pos;
    }
    return items;
  }
}

function malformed(message: string): FrameError {
  return new FrameError('STOMP_FRAME_MALFORMED', {}, message);
}

function tooLarge(limits: ParserLimits): FrameError {
  return new FrameError('STOMP_FRAME_TOO_LARGE', { limitBytes: limits.maxFrameBytes }, 'frame too large');
}

/** Index of the first NUL in [from, to), or -1. */
function nulBetween(buf: Buffer, from: number, to: number): number {
  const i = buf.indexOf(NUL, from);
  return i !== -1 && i < to ? i : -1;
}

/** More bytes are needed: `need` counts them from the frame's start when known (content-length), else 0. */
interface Incomplete {
  need: number;
}
const INCOMPLETE: Incomplete = { need: 0 };

/** Parses one frame starting at `start`. */
function parseFrame(buf: Buffer, start: number, limits: ParserLimits): { frame: StompFrame; end: number } | Incomplete {
  const len = buf.length;
  // Command line.
  const commandEol = buf.indexOf(LF, start);
  if (commandEol === -1) {
    // Fail fast on garbage: what has arrived must be the beginning of a known command.
    const partial = buf.toString('latin1', start, Math.min(len, start + 16));
    const known = partial.endsWith('\r')
      ? clientCommandSet.has(partial.slice(0, -1))
      : CLIENT_COMMANDS.some((c) => c.startsWith(partial));
    if (!known) throw malformed('unknown command');
    if (len - start > limits.maxFrameBytes) throw tooLarge(limits);
    return INCOMPLETE;
  }
  const commandEnd = commandEol > start && buf[commandEol - 1] === CR ? commandEol - 1 : commandEol;
  const command = buf.toString('latin1', start, commandEnd);
  if (!clientCommandSet.has(command)) throw malformed('unknown command');
  const escaped = !unescapedCommands.has(command);

  // Headers, up to the blank line.
  const headers: Record<string, string> = {};
  let headerCount = 0;
  let p = commandEol + 1;
  for (;;) {
    const eol = buf.indexOf(LF, p);
    if (eol === -1) {
      if (nulBetween(buf, p, len) !== -1) throw malformed('NUL inside the header block');
      if (len - start > limits.maxFrameBytes) throw tooLarge(limits);
      return INCOMPLETE;
    }
    if (eol + 1 - start > limits.maxFrameBytes) throw tooLarge(limits);
    const lineEnd = eol > p && buf[eol - 1] === CR ? eol - 1 : eol;
    if (lineEnd === p) {
      p = eol + 1;
      break;
    }
    if (nulBetween(buf, p, lineEnd) !== -1) throw malformed('NUL inside the header block');
    headerCount += 1;
    if (headerCount > limits.maxHeaders) {
      throw new FrameError('STOMP_TOO_MANY_HEADERS', { limit: limits.maxHeaders }, 'too many headers');
    }
    const line = buf.toString('utf8', p, lineEnd);
    const colon = line.indexOf(':');
    if (colon <= 0) throw malformed('header without a name or a colon');
    const name = escaped ? unescapeHeader(line.slice(0, colon)) : line.slice(0, colon);
    const value = escaped ? unescapeHeader(line.slice(colon + 1)) : line.slice(colon + 1);
    if (!Object.prototype.hasOwnProperty.call(headers, name)) headers[name] = value;
    p = eol + 1;
  }

  // Body.
  const bodyStart = p;
  const contentLength = headers['content-length'];
  if (contentLength !== undefined) {
    if (!/^\d{1,10}$/.test(contentLength)) throw malformed('invalid content-length');
    const n = Number(contentLength);
    if (bodyStart - start + n + 1 > limits.maxFrameBytes) throw tooLarge(limits);
    if (len < bodyStart + n + 1) return { need: bodyStart + n + 1 - start };
    if (buf[bodyStart + n] !== NUL) throw malformed('frame not terminated by NUL after content-length octets');
    return {
      frame: { command: command as ClientCommand, headers, body: Buffer.from(buf.subarray(bodyStart, bodyStart + n)) },
      end: bodyStart + n + 1,
    };
  }
  const nul = buf.indexOf(NUL, bodyStart);
  if (nul === -1) {
    if (len - start + 1 > limits.maxFrameBytes) throw tooLarge(limits);
    return INCOMPLETE;
  }
  if (nul + 1 - start > limits.maxFrameBytes) throw tooLarge(limits);
  return {
    frame: { command: command as ClientCommand, headers, body: Buffer.from(buf.subarray(bodyStart, nul)) },
    end: nul + 1,
  };
}

/** STOMP 1.2 header unescaping; an undefined escape sequence is a fatal protocol error. */
export function unescapeHeader(text: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = text[i + 1];
    i += 1;
    if (next === 'r') out += '\r';
    else if (next === 'n') out += '\n';
    else if (next === 'c') out += ':';
    else if (next === '\\') out += '\\';
    else throw malformed('undefined escape sequence in a header');
  }
  return out;
}

/** STOMP 1.2 header escaping. */
export function escapeHeader(text: string): string {
  if (!/[\\\r\n:]/.test(text)) return text;
  return text.replace(/\\/g, '\\\\').replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/:/g, '\\c');
}

/** For CONNECTED, which is not escaped: values must simply not break the line. */
function sanitiseUnescaped(text: string): string {
  return text.replace(/[\r\n]/g, ' ');
}

export type HeaderList = ReadonlyArray<readonly [string, string]>;

/**
 * Serialises a server frame. `content-length` is added whenever there is a body; headers are
 * escaped except for CONNECTED.
 */
export function encodeFrame(command: string, headers: HeaderList, body: Buffer | string = EMPTY): Buffer {
  const bodyBuf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const escape = !unescapedCommands.has(command);
  let head = command + '\n';
  for (const [name, value] of headers) {
    head += escape ? `${escapeHeader(name)}:${escapeHeader(value)}\n` : `${sanitiseUnescaped(name)}:${sanitiseUnescaped(value)}\n`;
  }
  if (bodyBuf.length > 0) head += `content-length:${bodyBuf.length}\n`;
  head += '\n';
  const headBuf = Buffer.from(head, 'utf8');
  const out = Buffer.allocUnsafe(headBuf.length + bodyBuf.length + 1);
  headBuf.copy(out, 0);
  bodyBuf.copy(out, headBuf.length);
  out[out.length - 1] = NUL;
  return out;
}

/** A heart-beat as sent by the server. */
export const HEARTBEAT = Buffer.from('\n');
