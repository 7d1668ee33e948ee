/** The chat machine: coverage, and the panel's behaviour against scripted REST calls and a scripted stream. */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromEventObservable, fromPromise, waitFor, type AnyMachineSnapshot } from 'xstate';
import {
  activeContacts,
  chatMachine,
  compareMessageIds,
  conversationList,
  openThread,
  reconnections$,
  totalUnread,
  type ChatOverview,
  type ChatStreamEvent,
  type OutboxCommand,
} from '../../machines/chat.machine.ts';
import type { ChatContact, ChatMessagesPage } from '../../protocol/chat.ts';
import type { ChatMessage } from '../../protocol/market-data.ts';
import type { ConnectionState } from '../../streams/connection.ts';
import { coverMachine } from './coverage.ts';

const me = 'U-002';
const partner = 'U-003';
const at = '2026-11-22T09:00:00.000Z';
const msg = (id: number, from = partner, text = `m${id}`): ChatMessage => ({ id: String(id), from, to: from === me ? partner : me, text, at });
const contact = (userId: string, online: boolean): ChatContact => ({ userId, username: userId.toLowerCase(), name: `User ${userId}`, roles: ['broker'], agencyId: 'AG', online });
const overview: ChatOverview = {
  contacts: [contact(partner, true), contact('U-004', false)],
  conversations: [{ with: partner, lastMessage: msg(9), unread: 2 }],
};

describe('chatMachine coverage', () => {
  it('reaches every state and every transition', () => {
    const fail = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('500') });
    const page = (hasMore: boolean): ChatMessagesPage => ({ messages: [msg(8), msg(9)], hasMore });
    const report = coverMachine(chatMachine, {
      input: { me, clientPrefix: 't' },
      samples: {
        'xstate.done.actor.0.chat.overview.loading': [{ type: 'xstate.done.actor.0.chat.overview.loading', output: overview }],
        'xstate.error.actor.0.chat.overview.loading': [fail('0.chat.overview.loading')],
        'xstate.done.actor.0.chat.conversation.loading': [
          { type: 'xstate.done.actor.0.chat.conversation.loading', output: page(true) },
          { type: 'xstate.done.actor.0.chat.conversation.loading', output: page(false) },
        ],
        'xstate.error.actor.0.chat.conversation.loading': [fail('0.chat.conversation.loading')],
        'xstate.done.actor.0.chat.conversation.loadingOlder': [{ type: 'xstate.done.actor.0.chat.conversation.loadingOlder', output: { messages: [msg(7)], hasMore: false } }],
        'xstate.error.actor.0.chat.conversation.loadingOlder': [fail('0.chat.conversation.loadingOlder')],
        'xstate.done.actor.0.chat.reading.marking': [{ type: 'xstate.done.actor.0.chat.reading.marking', output: null }],
        'xstate.error.actor.0.chat.reading.marking': [fail('0.chat.reading.marking')],
        OPEN_CONVERSATION: [{ type: 'OPEN_CONVERSATION', with: partner }],
        SEND: [
          { type: 'SEND', text: 'salut' },
          { type: 'SEND', text: '  ' },
        ],
        RETRY_SEND: [{ type: 'RETRY_SEND', clientId: 't-1' }],
        SEND_FAILED: [{ type: 'SEND_FAILED', clientId: 't-1' }],
        DISCARD: [{ type: 'DISCARD', clientId: 't-1' }],
        'chat.message': [{ type: 'chat.message', message: msg(10) }],
        'chat.presence': [{ type: 'chat.presence', userId: partner, online: false }],
        'chat.read': [{ type: 'chat.read', reader: partner, partner: me, upTo: '9' }],
        'chat.refusal': [{ type: 'chat.refusal', clientId: 't-1', code: 'CHAT_RATE_LIMITED', params: { retryAfterSeconds: 3 } }],
      } as never,
      // Identity without counters and message lists, so the traversal stays finite.
      serializeState: (s: AnyMachineSnapshot) =>
        JSON.stringify({
          value: s.value,
          openWith: s.context.openWith,
          unread: s.context.conversations[partner]?.unread > 0,
          hasMore: s.context.threads[partner]?.hasMore ?? null,
          outbox: [...new Set(s.context.outbox.map((p: { status: string }) => p.status))].sort(),
          readAgain: s.context.readAgain,
          known: Object.keys(s.context.conversations).length,
        }),
    });
    expect(report.states).toEqual([
      'chat.conversation',
      'chat.conversation.failed',
      'chat.conversation.loading',
      'chat.conversation.loadingOlder',
      'chat.conversation.none',
      'chat.conversation.viewing',
      'chat.overview',
      'chat.overview.failed',
      'chat.overview.loading',
      'chat.overview.ready',
      'chat.panel',
      'chat.panel.closed',
      'chat.panel.open',
      'chat.reading',
      'chat.reading.idle',
      'chat.reading.marking',
      'chat.sending',
      'chat.sending.ready',
    ]);
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
  });
});

interface Script {
  overview?: Array<ChatOverview | Error>;
  history?: Array<ChatMessagesPage | Error>;
  online?: boolean;
}

function start(script: Script = {}) {
  const stream = new Subject<ChatStreamEvent | { type: 'RECONNECTED' }>();
  const published: OutboxCommand['message'][] = [];
  const calls: unknown[] = [];
  let online = script.online ?? true;
  const next = async <T,>(queue: Array<T | Error> | undefined, fallback: T): Promise<T> => {
    const answer = queue?.shift() ?? fallback;
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const machine = chatMachine.provide({
    actors: {
      chatEvents: fromEventObservable(() => stream as never),
      outbox: fromCallback<OutboxCommand>(({ receive, sendBack }) => {
        receive((command) => {
          if (online) published.push(command.message);
          else sendBack({ type: 'SEND_FAILED', clientId: command.message.clientId });
        });
      }),
      loadOverview: fromPromise(async () => {
        calls.push('overview');
        return next(script.overview, overview);
      }),
      loadHistory: fromPromise<ChatMessagesPage, { with: string; before?: string }>(async ({ input }) => {
        calls.push(['history', input]);
        return next(script.history, { messages: [msg(8), msg(9)], hasMore: false });
      }),
      markRead: fromPromise<unknown, { with: string }>(async ({ input }) => {
        calls.push(['read', input.with]);
        return null;
      }),
    },
  });
  const actor = createActor(machine, { input: { me, clientPrefix: 'tab' } }).start();
  return {
    actor,
    stream,
    published,
    calls,
    setOnline: (value: boolean) => (online = value),
    emit: (event: ChatStreamEvent) => stream.next(event),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('chat', () => {
  it('loads contacts and conversations; the header count is the sum of unread; presence updates the active list', async () => {
    const { actor, emit } = start();
    await waitFor(actor, (s) => s.matches({ overview: 'ready' }));
    expect(totalUnread(actor.getSnapshot())).toBe(2);
    expect(activeContacts(actor.getSnapshot()).map((c) => c.userId)).toEqual([partner]);
    emit({ type: 'chat.presence', userId: 'U-004', online: true });
    expect(activeContacts(actor.getSnapshot()).map((c) => c.userId)).toEqual([partner, 'U-004']);
    emit({ type: 'chat.message', message: msg(12, 'U-004') });
    expect(conversationList(actor.getSnapshot()).map((c) => [c.partnerId, c.unread, c.partner?.name])).toEqual([
      ['U-004', 1, 'User U-004'],
      [partner, 2, `User ${partner}`],
    ]);
    expect(totalUnread(actor.getSnapshot())).toBe(3);
  });

  it('marks a conversation read when it is shown in the open panel, and again when a message arrives while it is shown', async () => {
    const { actor, emit, calls } = start();
    await waitFor(actor, (s) => s.matches({ overview: 'ready' }));
    actor.send({ type: 'OPEN_CONVERSATION', with: partner });
    await waitFor(actor, (s) => s.matches({ conversation: 'viewing' }));
    // The panel is closed: nothing is read yet.
    expect(calls).not.toContainEqual(['read', partner]);
    expect(totalUnread(actor.getSnapshot())).toBe(2);
    actor.send({ type: 'OPEN_PANEL' });
    expect(totalUnread(actor.getSnapshot())).toBe(0);
    await waitFor(actor, (s) => s.matches({ reading: 'idle' }));
    expect(calls.filter((c) => Array.isArray(c) && c[0] === 'read')).toEqual([['read', partner]]);

    emit({ type: 'chat.message', message: msg(10) });
    expect(openThread(actor.getSnapshot()).messages.map((m) => m.id)).toEqual(['8', '9', '10']);
    await waitFor(actor, (s) => s.matches({ reading: 'idle' }) && calls.filter((c) => Array.isArray(c) && c[0] === 'read').length === 2);
    expect(totalUnread(actor.getSnapshot())).toBe(0);

    // Closed panel: a new message counts as unread.
    actor.send({ type: 'CLOSE_PANEL' });
    emit({ type: 'chat.message', message: msg(11) });
    await settle();
    expect(totalUnread(actor.getSnapshot())).toBe(1);
    expect(calls.filter((c) => Array.isArray(c) && c[0] === 'read')).toHaveLength(2);
  });

  it('shows a sent message as pending until its echo, and a refusal with the server code; retry sends the same clientId', async () => {
    const { actor, emit, published } = start();
    await waitFor(actor, (s) => s.matches({ overview: 'ready' }));
    actor.send({ type: 'OPEN_CONVERSATION', with: partner });
    await waitFor(actor, (s) => s.matches({ conversation: 'viewing' }));
    actor.send({ type: 'SEND', text: '   ' });
    expect(published).toEqual([]);
    actor.send({ type: 'SEND', text: 'Ofertă 100 MWh' });
    actor.send({ type: 'SEND', text: 'a doua' });
    expect(published).toEqual([
      { to: partner, text: 'Ofertă 100 MWh', clientId: 'tab-1' },
      { to: partner, text: 'a doua', clientId: 'tab-2' },
    ]);
    expect(openThread(actor.getSnapshot()).pending.map((p) => [p.clientId, p.status])).toEqual([
      ['tab-1', 'sending'],
      ['tab-2', 'sending'],
    ]);

    emit({ type: 'chat.message', message: msg(20, me, 'Ofertă 100 MWh'), clientId: 'tab-1' });
    emit({ type: 'chat.refusal', clientId: 'tab-2', code: 'CHAT_RATE_LIMITED', params: { retryAfterSeconds: 7 } });
    // Another tab's refusal is not ours.
    emit({ type: 'chat.refusal', clientId: 'other-1', code: 'CHAT_RATE_LIMITED', params: { retryAfterSeconds: 7 } });
    const thread = openThread(actor.getSnapshot());
    expect(thread.messages.at(-1)).toEqual(msg(20, me, 'Ofertă 100 MWh'));
    expect(thread.pending).toEqual([{ clientId: 'tab-2', to: partner, text: 'a doua', status: 'refused', error: { code: 'CHAT_RATE_LIMITED', params: { retryAfterSeconds: 7 } } }]);
    // My own message does not count as unread.
    expect(actor.getSnapshot().context.conversations[partner]).toMatchObject({ unread: 2, lastMessage: { id: '20' } });

    actor.send({ type: 'RETRY_SEND', clientId: 'tab-2' });
    expect(published.at(-1)).toEqual({ to: partner, text: 'a doua', clientId: 'tab-2' });
    expect(openThread(actor.getSnapshot()).pending[0]!.status).toBe('sending');
    actor.send({ type: 'DISCARD', clientId: 'tab-2' });
    expect(openThread(actor.getSnapshot()).pending).toEqual([]);
  });

  it('offline, a send is refused as "cannot reach server"; after a reconnect in-flight messages go again and the views reload', async () => {
    const { actor, stream, published, setOnline, calls } = start();
    await waitFor(actor, (s) => s.matches({ overview: 'ready' }));
    actor.send({ type: 'OPEN_CONVERSATION', with: partner });
    await waitFor(actor, (s) => s.matches({ conversation: 'viewing' }));
    setOnline(false);
    actor.send({ type: 'SEND', text: 'offline' });
    expect(openThread(actor.getSnapshot()).pending[0]).toMatchObject({ status: 'refused', error: { code: 'CLIENT_NETWORK_ERROR', params: {} } });
    setOnline(true);
    actor.send({ type: 'SEND', text: 'in flight' });
    stream.next({ type: 'RECONNECTED' });
    expect(published.map((m) => m.clientId)).toEqual(['tab-2', 'tab-2']);
    await waitFor(actor, (s) => s.matches({ overview: 'ready', conversation: 'viewing' }) && calls.filter((c) => c === 'overview').length === 2);
    expect(calls.filter((c) => Array.isArray(c) && c[0] === 'history')).toHaveLength(2);
  });

  it('pages older history before the first loaded message; a failed load keeps its code and can be retried', async () => {
    const { actor, calls } = start({
      history: [new Error('boom'), { messages: [msg(30), msg(31)], hasMore: true }, { messages: [msg(28), msg(29)], hasMore: false }],
    });
    actor.send({ type: 'OPEN_CONVERSATION', with: partner });
    await waitFor(actor, (s) => s.matches({ conversation: 'failed' }));
    expect(actor.getSnapshot().context.historyError).toEqual({ code: 'UNKNOWN_ERROR', params: {} });
    actor.send({ type: 'RETRY_HISTORY' });
    await waitFor(actor, (s) => s.matches({ conversation: 'viewing' }));
    actor.send({ type: 'LOAD_OLDER' });
    await waitFor(actor, (s) => s.matches({ conversation: 'viewing' }) && !openThread(s).hasMore);
    expect(openThread(actor.getSnapshot()).messages.map((m) => m.id)).toEqual(['28', '29', '30', '31']);
    expect(calls.filter((c) => Array.isArray(c) && c[0] === 'history').at(-1)).toEqual(['history', { with: partner, before: '30' }]);
    actor.send({ type: 'LOAD_OLDER' });
    expect(actor.getSnapshot().matches({ conversation: 'viewing' })).toBe(true);
  });

  it('a read mark from another tab clears the unread count; the partner reading my messages is kept for "seen"', async () => {
    const { actor, emit } = start();
    await waitFor(actor, (s) => s.matches({ overview: 'ready' }));
    emit({ type: 'chat.read', reader: me, partner, upTo: '9' });
    expect(totalUnread(actor.getSnapshot())).toBe(0);
    emit({ type: 'chat.read', reader: partner, partner: me, upTo: '15' });
    emit({ type: 'chat.read', reader: partner, partner: me, upTo: '12' });
    expect(actor.getSnapshot().context.readByPartner).toEqual({ [partner]: '15' });
  });
});

describe('helpers', () => {
  it('compares decimal ids as numbers', () => {
    expect(['10', '9', '100', '11'].sort(compareMessageIds)).toEqual(['9', '10', '11', '100']);
  });

  it('reports only reconnections, not the state replayed on subscribe or the first connect', () => {
    const states = new Subject<ConnectionState>();
    const seen: unknown[] = [];
    reconnections$(states).subscribe((event) => seen.push(event));
    states.next({ status: 'connected', generation: 3, heartbeatIncomingMs: 0, server: null });
    states.next({ status: 'reconnecting', attempt: 1, nextDelayMs: 10 });
    states.next({ status: 'connected', generation: 4, heartbeatIncomingMs: 0, server: null });
    expect(seen).toEqual([{ type: 'RECONNECTED' }]);
  });
});
