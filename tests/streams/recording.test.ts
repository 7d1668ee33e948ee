import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiCallError } from '../../streams/api.ts';
import { parseRecording, redactFrame, REDACTED, toRedactedJsonl, type RecordedFrame } from '../../streams/recording.ts';
import { SESSION_NAMES, SESSIONS_DIR } from './session-stack.ts';

const open = '{"t":0,"command":"@open","headers":{"url":"ws://x"},"body":"","socket":1}';

function refusal(text: string): { code: string; params: unknown } {
  try {
    parseRecording(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiCallError);
    const { code, params } = error as ApiCallError;
    return { code, params };
  }
  throw new Error('parsed');
}

describe('parseRecording', () => {
  it.each(SESSION_NAMES)('reads the fixture %s, one frame per non-blank line', (name) => {
    const text = readFileSync(`${SESSIONS_DIR}${name}.jsonl`, 'utf8');
    const frames = parseRecording(text);
    expect(frames).toHaveLength(text.split('\n').filter((line) => line.trim() !== '').length);
    expect(frames[0]).toMatchObject({ command: '@open', socket: 1, t: 0 });
  });

  it('skips blank lines and reads CRLF files', () => {
    expect(parseRecording(`\r\n${open}\r\n\r\n`)).toEqual([{ t: 0, command: '@open', headers: { url: 'ws://x' }, body: '', socket: 1 }]);
  });

  it.each([
    ['not JSON', `${open}\nnope`, 2, 'not JSON'],
    ['not an object', `${open}\n[1,2]`, 2, 'not a JSON object'],
    ['a field missing', `${open}\n{"t":1,"command":"MESSAGE","headers":{},"socket":1}`, 2, 'body: Invalid input: expected string, received undefined'],
    ['a negative time', `{"t":-1,"command":"@open","headers":{},"body":"","socket":1}`, 1, 't: Too small: expected number to be >=0'],
    ['a header that is not a string', `${open}\n{"t":1,"command":"MESSAGE","headers":{"a":1},"body":"","socket":1}`, 2, 'headers.a: Invalid input: expected string, received number'],
    ['a bad direction', `${open}\n{"t":1,"command":"SEND","headers":{},"body":"","socket":1,"dir":"in"}`, 2, 'dir: Invalid input: expected "out"'],
    ['socket 0', `${open}\n{"t":1,"command":"MESSAGE","headers":{},"body":"","socket":0}`, 2, 'socket: Too small: expected number to be >0'],
    ['an unknown command', `${open}\n{"t":1,"command":"HELLO","headers":{},"body":"","socket":1}`, 2, 'unknown command HELLO'],
    ['time going back', `{"t":5,"command":"@open","headers":{},"body":"","socket":1}\n\n{"t":4,"command":"@heartbeat","headers":{},"body":"","socket":1}`, 3, 't goes back in time (4 after 5)'],
    ['no frame at all', '\n\n', 1, 'no frames'],
  ])('refuses %s with RECORDING_INVALID {line, issue}', (_label, text, line, issue) => {
    expect(refusal(text)).toEqual({ code: 'RECORDING_INVALID', params: { line, issue } });
  });
});

describe('redaction', () => {
  const frame = (over: Partial<RecordedFrame>): RecordedFrame => ({ t: 0, command: 'MESSAGE', headers: {}, body: '', socket: 1, ...over });

  it('redacts the credential and identity headers', () => {
    const connect = redactFrame(frame({ command: 'CONNECT', dir: 'out', headers: { Authorization: 'Bearer abc.def', login: 'broker1', passcode: 'pw', 'accept-version': '1.2' } }));
    expect(connect.headers).toEqual({ Authorization: REDACTED, login: REDACTED, passcode: REDACTED, 'accept-version': '1.2' });
    const connected = redactFrame(frame({ command: 'CONNECTED', headers: { version: '1.2', 'user-name': 'broker1', session: 's1' } }));
    expect(connected.headers).toEqual({ version: '1.2', 'user-name': REDACTED, session: 's1' });
  });

  it('redacts names, logins, e-mails, phone numbers and tokens in bodies, and keeps the trading data', () => {
    const body = {
      seq: 12,
      order: { orderId: '7', clientCode: 'RO-HIDRO', price: 15_000, qty: 100, createdBy: 'broker1' },
      contact: { username: 'broker2', name: 'Maria Ionescu', email: 'maria@example.ro', phone: '+40 721 000 111' },
      text: 'Call me at 0721000111 or +40 (721) 000-111, mail ana.pop@broker.ro, token eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl',
      actorName: 'Exchange Operator',
      asset: { name: 'Gas day-ahead', sessionDate: '2026-11-22', at: '2026-11-22T09:01:01.000Z' },
    };
    const out = JSON.parse(redactFrame(frame({ body: JSON.stringify(body) })).body);
    expect(out).toEqual({
      seq: 12,
      order: { orderId: '7', clientCode: 'RO-HIDRO', price: 15_000, qty: 100, createdBy: REDACTED },
      contact: { username: REDACTED, name: REDACTED, email: REDACTED, phone: REDACTED },
      text: `Call me at ${REDACTED} or ${REDACTED}, mail ${REDACTED}, token ${REDACTED}`,
      actorName: REDACTED,
      // A thing's name (no login or e-mail beside it) and dates are not personal.
      asset: { name: 'Gas day-ahead', sessionDate: '2026-11-22', at: '2026-11-22T09:01:01.000Z' },
    });
  });

  it('redacts a body that is not JSON by its patterns, and writes a file the parser reads back', () => {
    expect(redactFrame(frame({ command: 'ERROR', body: 'token Bearer xyz.123 for a@b.ro' })).body).toBe(`token ${REDACTED} for ${REDACTED}`);
    const frames = [frame({ command: '@open', headers: { url: 'ws://h/session/ws' } }), frame({ t: 3, command: 'CONNECT', dir: 'out', headers: { Authorization: 'Bearer s3cret' } })];
    const jsonl = toRedactedJsonl(frames);
    expect(jsonl).not.toContain('s3cret');
    expect(parseRecording(jsonl)).toEqual([frames[0], { ...frames[1], headers: { Authorization: REDACTED } }]);
  });

  it('leaves the fixtures replayable: redacting them changes no order, book or phase message', () => {
    for (const name of SESSION_NAMES) {
      const frames = parseRecording(readFileSync(`${SESSIONS_DIR}${name}.jsonl`, 'utf8'));
      const redacted = parseRecording(toRedactedJsonl(frames));
      const bodies = (list: RecordedFrame[]) => list.filter((f) => f.command === 'MESSAGE').map((f) => JSON.parse(f.body));
      expect(bodies(redacted), name).toEqual(bodies(frames));
    }
  });
});
