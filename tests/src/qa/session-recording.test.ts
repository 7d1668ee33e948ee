import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createActor } from 'xstate';
import { clientSessionFor } from '../../../machines/client-session.ts';
import { destinations } from '../../../protocol/destinations.ts';
import { createConnection } from '../../../streams/connection.ts';
import { parseRecording, REDACTED } from '../../../streams/recording.ts';
import { dumpTargetOf, SessionRecording } from '../../../src/qa/session-recording.ts';
import { FakeStompServer, uniqueUrl } from '../../streams/fake-stomp-server.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  vi.useRealTimers();
});

describe('dumpTargetOf', () => {
  it('reads the market and asset of an asset page, in both languages; nothing elsewhere', () => {
    expect(dumpTargetOf('/session/en/trading/market/GAS-SPOT/assets/GSPOT-DA')).toEqual({ marketId: 'GAS-SPOT', assetId: 'GSPOT-DA' });
    expect(dumpTargetOf('/session/trading/market/EL-SPOT/assets/ESPOT-DA-H01')).toEqual({ marketId: 'EL-SPOT', assetId: 'ESPOT-DA-H01' });
    expect(dumpTargetOf('/session/trading/workspace')).toBeNull();
  });
});

describe('recording the live session', () => {
  it('records from the first byte of the next session, redacts the file, and keeps the live dump at the stop', async () => {
    vi.useFakeTimers();
    const recording = new SessionRecording(() => Date.now());
    const url = uniqueUrl('record');
    const book = destinations.book('A1');
    const server = new FakeStompServer(url, {
      onSubscribe: (connection, id, destination) => {
        if (destination === book) server.sendTo(connection, id, { type: 'snapshot', assetId: 'A1', seq: 3, bids: [{ price: 100, qty: 5, orders: 1 }], asks: [], at: '2026-11-22T09:00:00.000Z' });
      },
    });
    cleanups.push(() => server.close());
    const generation = recording.generation;
    // A connection of the session before the recording: its traffic is not recorded.
    const before = recording.tapForNewConnection();
    recording.start({ assetId: 'A1', marketId: 'M1' });
    expect(recording.generation).toBe(generation + 1);
    expect(recording.getSnapshot().status).toBe('recording');

    // What the realtime provider does for the new session: its connection has the tap, the session is announced.
    const connection = createConnection({ url, getToken: () => 'Bearer-secret-token', webSocketFactory: server.webSocketFactory, heartbeatMs: 0, backoff: { initialMs: 100, maxMs: 100 }, taps: [recording.tapForNewConnection()] });
    const { machine } = clientSessionFor(connection);
    const session = createActor(machine).start();
    cleanups.push(() => session.stop());
    recording.sessionStarted(connection, session);
    // A panel following the chat queue (so its messages reach the socket).
    const chat = connection.watch$(destinations.chat, z.unknown()).subscribe();
    cleanups.push(() => chat.unsubscribe());
    connection.connect();
    await vi.advanceTimersByTimeAsync(50);
    server.publish(destinations.chat, { from: { username: 'broker2', name: 'Maria Ionescu', email: 'maria@example.ro' }, text: 'call 0721000111' });
    await vi.advanceTimersByTimeAsync(20);

    before.opened?.(1, 'ws://old');
    before.inbound?.(1, 'RECEIPT\nreceipt-id:close-1\n\n\u0000');
    recording.stop();
    const state = recording.getSnapshot();
    if (state.status !== 'stopped') throw new Error(state.status);
    expect(state.fileName).toMatch(/^session-\d{8}-\d{6}\.jsonl$/);
    const frames = parseRecording(state.jsonl);
    expect(frames[0]).toMatchObject({ command: '@open', socket: 1 });
    expect(frames.filter((f) => f.command === '@open')).toHaveLength(1);
    expect(frames.some((f) => f.command === 'RECEIPT')).toBe(false);
    expect(frames.find((f) => f.command === 'CONNECT')!.headers['Authorization']).toBe(REDACTED);
    expect(frames.some((f) => f.command === 'SUBSCRIBE' && f.headers['destination'] === book)).toBe(true);
    const chatLine = frames.find((f) => f.command === 'MESSAGE' && f.headers['destination'] === destinations.chat)!;
    expect(JSON.parse(chatLine.body)).toEqual({ from: { username: REDACTED, name: REDACTED, email: REDACTED }, text: `call ${REDACTED}` });
    expect(state.jsonl).not.toContain('secret-token');
    expect(state.jsonl).not.toContain('Maria');
    expect(state.jsonl).not.toContain('maria@example.ro');
    expect(state.jsonl).not.toContain('0721000111');
    // The live session's state at the stop: the book the snapshot gave, connected.
    expect(state.dump).toMatchObject({ connection: { state: 'connected', generation: 1 }, book: { seq: 3, bids: [{ price: 100, qty: 5, orders: 1 }], stale: false } });

    // Nothing more is recorded after the stop.
    server.publish(book, { type: 'delta', assetId: 'A1', seq: 4, changes: [], at: '2026-11-22T09:00:01.000Z' });
    await vi.advanceTimersByTimeAsync(20);
    expect(parseRecording(state.jsonl)).toHaveLength(frames.length);
    recording.clear();
    expect(recording.getSnapshot().status).toBe('idle');
    const done = connection.disconnect({ timeoutMs: 10 });
    await vi.advanceTimersByTimeAsync(50);
    await done;
  });
});
