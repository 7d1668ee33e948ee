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
