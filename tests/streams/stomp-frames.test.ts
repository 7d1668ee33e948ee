/** The fast reader of single MESSAGE frames agrees with the general parser, and refuses what it cannot read. */
import { describe, expect, it } from 'vitest';
import { atFrameBoundaryAfter, encodeStompFrame, parseStompFrames, readSingleMessageFrame, utf8Length } from '../../streams/stomp-frames.ts';

const headers = { destination: '/topic/book.A1', subscription: 'sub-3', 'message-id': '17', 'content-type': 'application/json' };

describe('readSingleMessageFrame', () => {
  it('reads what the general parser reads, escaped headers and multi-byte bodies included', () => {
    for (const body of ['{"seq":1}', '{"name":"Furnizare ș ț €","emoji":"⚡🙂"}', '']) {
      const frame = encodeStompFrame('MESSAGE', { ...headers, note: 'a:b\\c\nd' }, body);
      expect(readSingleMessageFrame(frame)).toEqual(parseStompFrames(frame)[0]);
      expect(readSingleMessageFrame(frame + '\n\n')?.body).toBe(body);
    }
    expect(readSingleMessageFrame(encodeStompFrame('MESSAGE', headers, 'x').replace(/\n/g, '\r\n'))?.headers['subscription']).toBe('sub-3');
  });

  it('returns null for other commands, several frames, a partial frame or a content-length that does not match', () => {
    const one = encodeStompFrame('MESSAGE', headers, '{"a":1}');
    expect(readSingleMessageFrame(encodeStompFrame('RECEIPT', { 'receipt-id': '1' }))).toBeNull();
    expect(readSingleMessageFrame(one + one)).toBeNull();
    expect(readSingleMessageFrame(one.slice(0, -3))).toBeNull();
    expect(readSingleMessageFrame(one.replace('content-length:7', 'content-length:9'))).toBeNull();
    expect(readSingleMessageFrame('\n')).toBeNull();
  });

  it('counts UTF-8 bytes as TextEncoder does', () => {
    for (const text of ['abc', 'ș', '€', '🙂', 'a\ud800b']) expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
  });
});

describe('atFrameBoundaryAfter', () => {
  it('is between frames after a NUL, unchanged after heart-beats, inside after a partial frame', () => {
    const frame = encodeStompFrame('MESSAGE', headers, '{}');
    expect(atFrameBoundaryAfter(frame, true)).toBe(true);
    expect(atFrameBoundaryAfter(frame + '\n', false)).toBe(true);
    expect(atFrameBoundaryAfter(frame.slice(0, 10), true)).toBe(false);
    expect(atFrameBoundaryAfter('\n', false)).toBe(false);
    expect(atFrameBoundaryAfter('\r\n', true)).toBe(true);
    expect(atFrameBoundaryAfter(new TextEncoder().encode(frame), false)).toBe(true);
  });
});
