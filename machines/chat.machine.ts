/**
 * The chat panel: contacts with presence, conversations with unread counts, one open conversation
 * with its history, and the user's outgoing messages until the server echoes them. Parallel regions:
 *
 *   overview:     loading --ok--> ready --RECONNECTED--> loading;  loading --error--> failed --RETRY--> loading
 *   panel:        closed <--OPEN_PANEL / CLOSE_PANEL / TOGGLE_PANEL--> open
 *   conversation: none --OPEN_CONVERSATION--> loading --ok--> viewing --LOAD_OLDER--> loadingOlder --> viewing
 *                 loading --error--> failed --RETRY_HISTORY--> loading;  CLOSE_CONVERSATION --> none
 *   reading:      idle --READ_NEEDED--> marking --done/error--> idle (again when asked meanwhile)
 *   sending:      ready (SEND, SEND_FAILED, RETRY_SEND, DISCARD; RECONNECTED sends what is in flight again)
 *
 * The server is the authority: a sent message shows as pending until its echo (matched by clientId)
 * arrives on /user/queue/chat, or as refused with the server's code. Pending messages are sent again
 * after a reconnect with the same clientId (the server stores a clientId once). A message from the
 * open conversation's partner while the panel is open is marked read at once.
 */
import { EMPTY, filter, map, skip, type Observable } from 'rxjs';
import { and, assign, enqueueActions, fromCallback, fromEventObservable, fromPromise, or, raise, setup, stateIn, type SnapshotFrom } from 'xstate';
import { isChatTextValid, type ChatContact, type ChatConversation, type ChatEvent, type ChatMessagesPage, type ChatOutgoing } from '../protocol/chat.ts';
import type { ChatMessage } from '../protocol/market-data.ts';
import { clientErrorOf, NETWORK_ERROR, toClientError, type ClientError } from '../streams/api.ts';
import { chatEvents$, sendChatMessage } from '../streams/chat.ts';
import type { Connection, ConnectionState } from '../streams/connection.ts';

export interface ChatOverview {
  contacts: ChatContact[];
  conversations: ChatConversation[];
}

/** The REST calls the machine needs (src/api/chat.ts gives the real ones). */
export interface ChatApi {
  loadOverview(): Promise<ChatOverview>;
  loadHistory(input: { with: string; before?: string }): Promise<ChatMessagesPage>;
  markRead(input: { with: string }): Promise<unknown>;
}

export interface PendingMessage {
  clientId: string;
  to: string;
  text: string;
  status: 'sending' | 'refused';
  error: ClientError | null;
}

export interface ChatThread {
  messages: ChatMessage[];
  hasMore: boolean;
}

export interface ChatContext {
  me: string;
  clientPrefix: string;
  nextClientSeq: number;
  contacts: ChatContact[];
  /** By partner id. */
  conversations: Record<string, { lastMessage: ChatMessage; unread: number }>;
  /** By partner id: what has been loaded of each conversation. */
  threads: Record<string, ChatThread>;
  /** By partner id: the newest of my messages the partner has read. */
  readByPartner: Record<string, string>;
  openWith: string | null;
  outbox: PendingMessage[];
  overviewError: ClientError | null;
  historyError: ClientError | null;
  readAgain: boolean;
}

export interface ChatInput {
  me: string;
  /** Prefix of this tab's clientIds (default: random), so two tabs never reuse one. */
  clientPrefix?: string;
}

export type ChatStreamEvent =
  | { type: 'chat.message'; message: ChatMessage; clientId?: string | undefined }
  | { type: 'chat.presence'; userId: string; online: boolean }
  | { type: 'chat.read'; reader: string; partner: string; upTo: string }
  | { type: 'chat.refusal'; clientId: string; code: string; params: Record<string, string | number> };

export type ChatEventType =
  | ChatStreamEvent
  | { type: 'RECONNECTED' }
  | { type: 'RETRY' }
  | { type: 'OPEN_PANEL' }
  | { type: 'CLOSE_PANEL' }
  | { type: 'TOGGLE_PANEL' }
  | { type: 'OPEN_CONVERSATION'; with: string }
  | { type: 'CLOSE_CONVERSATION' }
  | { type: 'LOAD_OLDER' }
  | { type: 'RETRY_HISTORY' }
  | { type: 'SEND'; text: string }
  | { type: 'SEND_FAILED'; clientId: string }
  | { type: 'RETRY_SEND'; clientId: string }
  | { type: 'DISCARD'; clientId: string }
  | { type: 'READ_NEEDED' };

/** What the outbox actor is told to publish. */
export type OutboxCommand = { type: 'PUBLISH'; message: ChatOutgoing };

/** Message ids are decimal strings of one growing sequence: compare as numbers without parsing. */
export function compareMessageIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

export function chatStreamEvent(event: ChatEvent): ChatStreamEvent {
  switch (event.type) {
    case 'message':
      return { type: 'chat.message', message: event.message, clientId: event.clientId };
    case 'presence':
      return { type: 'chat.presence', userId: event.userId, online: event.online };
    case 'read':
      return { type: 'chat.read', reader: event.reader, partner: event.partner, upTo: event.upTo };
    case 'refusal':
      return { type: 'chat.refusal', clientId: event.clientId, code: event.code, params: event.params };
  }
}

function mergeMessages(existing: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map(existing.map((message) => [message.id, message]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => compareMessageIds(a.id, b.id));
}

const partnerOf = (me: string, message: ChatMessage): string => (message.from === me ? message.to : message.from);

export const chatMachine = setup({
  types: {
    context: {} as ChatContext,
    events: {} as ChatEventType,
    input: {} as ChatInput,
  },
  actors: {
    chatEvents: fromEventObservable<ChatStreamEvent, void>(() => EMPTY),
    reconnects: fromEventObservable<{ type: 'RECONNECTED' }, void>(() => EMPTY),
    /** Publishes on the STOMP channel; answers SEND_FAILED when it could not (offline). */
    outbox: fromCallback<OutboxCommand>(({ receive, sendBack }) => {
      receive((command) => sendBack({ type: 'SEND_FAILED', clientId: command.message.clientId }));
    }),
    loadOverview: fromPromise<ChatOverview, void>(async () => {
      throw new Error('loadOverview actor not provided');
    }),
    loadHistory: fromPromise<ChatMessagesPage, { with: string; before?: string }>(async () => {
      throw new Error('loadHistory actor not provided');
    }),
    markRead: fromPromise<unknown, { with: string }>(async () => {
      throw new Error('markRead actor not provided');
    }),
  },
  guards: {
    canSend: ({ context, event }) => event.type === 'SEND' && context.openWith !== null && isChatTextValid(event.text),
    hasOlder: ({ context }) => context.openWith !== null && (context.threads[context.openWith]?.hasMore ?? false),
    isRefusedPending: ({ context, event }) =>
      event.type === 'RETRY_SEND' && context.outbox.some((pending) => pending.clientId === event.clientId && pending.status === 'refused'),
    isReadAgain: ({ context }) => context.readAgain,
    hasUnreadOpen: ({ context }) => context.openWith !== null && (context.conversations[context.openWith]?.unread ?? 0) > 0,
    /** The user sees the open conversation: the panel is open and its history is shown. */
    shouldMarkRead: and(['hasUnreadOpen', stateIn({ panel: 'open' }), or([stateIn({ conversation: 'viewing' }), stateIn({ conversation: 'loadingOlder' })])]),
  },
  actions: {
    storeOverview: assign((_, params: { overview: ChatOverview }) => ({
      contacts: params.overview.contacts,
      conversations: Object.fromEntries(params.overview.conversations.map((c) => [c.with, { lastMessage: c.lastMessage, unread: c.unread }])),
      overviewError: null,
    })),
    storeOverviewError: assign((_, params: { error: unknown }) => ({ overviewError: toClientError(params.error) })),
    selectConversation: assign(({ event }) => (event.type === 'OPEN_CONVERSATION' ? { openWith: event.with, historyError: null } : {})),
    forgetConversation: assign({ openWith: null, historyError: null }),
    storeHistory: assign(({ context }, params: { page: ChatMessagesPage }) => {
      const partner = context.openWith!;
      // Messages that arrived while the page loaded are kept; the page's are the server's truth.
      const live = context.threads[partner]?.messages ?? [];
      const newestLoaded = params.page.messages.at(-1)?.id;
      const newer = newestLoaded === undefined ? live : live.filter((message) => compareMessageIds(message.id, newestLoaded) > 0);
      return { threads: { ...context.threads, [partner]: { messages: mergeMessages(params.page.messages, newer), hasMore: params.page.hasMore } }, historyError: null };
    }),
    prependHistory: assign(({ context }, params: { page: ChatMessagesPage }) => {
      const partner = context.openWith!;
      const thread = context.threads[partner] ?? { messages: [], hasMore: false };
      return { threads: { ...context.threads, [partner]: { messages: mergeMessages(thread.messages, params.page.messages), hasMore: params.page.hasMore } } };
    }),
    storeHistoryError: assign((_, params: { error: unknown }) => ({ historyError: toClientError(params.error) })),
    receiveMessage: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'chat.message') return;
      const { message } = event;
      const partner = partnerOf(context.me, message);
      const known = context.conversations[partner];
      const isNewer = !known || compareMessageIds(message.id, known.lastMessage.id) > 0;
      const alreadyHad = context.threads[partner]?.messages.some((m) => m.id === message.id) ?? false;
      const fromPartner = message.from === partner;
      const unreadBump = fromPartner && isNewer && !alreadyHad ? 1 : 0;
      const thread = context.threads[partner];
      enqueue.assign({
        conversations: {
          ...context.conversations,
          [partner]: { lastMessage: isNewer ? message : known!.lastMessage, unread: (known?.unread ?? 0) + unreadBump },
        },
        threads: thread ? { ...context.threads, [partner]: { ...thread, messages: mergeMessages(thread.messages, [message]) } } : context.threads,
        outbox: event.clientId ? context.outbox.filter((pending) => pending.clientId !== event.clientId) : context.outbox,
      });
      if (unreadBump > 0 && partner === context.openWith) enqueue.raise({ type: 'READ_NEEDED' });
    }),
    setPresence: assign(({ context, event }) =>
      event.type === 'chat.presence' ? { contacts: context.contacts.map((c) => (c.userId === event.userId ? { ...c, online: event.online } : c)) } : {},
    ),
    applyRead: assign(({ context, event }) => {
      if (event.type !== 'chat.read') return {};
      if (event.reader === context.me) {
        // Another tab (or this one) read the partner's messages up to upTo.
        const conversation = context.conversations[event.partner];
        if (!conversation) return {};
        const thread = context.threads[event.partner];
        const unread = thread
          ? thread.messages.filter((m) => m.from === event.partner && compareMessageIds(m.id, event.upTo) > 0).length
          : compareMessageIds(conversation.lastMessage.id, event.upTo) > 0
            ? conversation.unread
            : 0;
        return { conversations: { ...context.conversations, [event.partner]: { ...conversation, unread } } };
      }
      if (event.partner !== context.me) return {};
      const previous = context.readByPartner[event.reader];
      if (previous !== undefined && compareMessageIds(previous, event.upTo) >= 0) return {};
      return { readByPartner: { ...context.readByPartner, [event.reader]: event.upTo } };
    }),
    markRefused: assign(({ context, event }) =>
      event.type === 'chat.refusal' || event.type === 'SEND_FAILED'
        ? {
            outbox: context.outbox.map((pending) =>
              pending.clientId === event.clientId
                ? { ...pending, status: 'refused' as const, error: event.type === 'chat.refusal' ? clientErrorOf(event.code, event.params) : { code: NETWORK_ERROR, params: {} } }
                : pending,
            ),
          }
        : {},
    ),
    queueMessage: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'SEND' || context.openWith === null) return;
      const pending: PendingMessage = { clientId: `${context.clientPrefix}-${context.nextClientSeq}`, to: context.openWith, text: event.text, status: 'sending', error: null };
      enqueue.assign({ outbox: [...context.outbox, pending], nextClientSeq: context.nextClientSeq + 1 });
      enqueue.sendTo('outbox', { type: 'PUBLISH', message: { to: pending.to, text: pending.text, clientId: pending.clientId } } satisfies OutboxCommand);
    }),
    retryPending: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'RETRY_SEND') return;
      const pending = context.outbox.find((p) => p.clientId === event.clientId);
      if (!pending) return;
      enqueue.assign({ outbox: context.outbox.map((p) => (p.clientId === event.clientId ? { ...p, status: 'sending' as const, error: null } : p)) });
      enqueue.sendTo('outbox', { type: 'PUBLISH', message: { to: pending.to, text: pending.text, clientId: pending.clientId } } satisfies OutboxCommand);
    }),
    /** After a reconnect: what was in flight may have been lost; the server keeps a clientId once. */
    resendInFlight: enqueueActions(({ context, enqueue }) => {
      for (const pending of context.outbox) {
        if (pending.status === 'sending') enqueue.sendTo('outbox', { type: 'PUBLISH', message: { to: pending.to, text: pending.text, clientId: pending.clientId } } satisfies OutboxCommand);
      }
    }),
    discardPending: assign(({ context, event }) => (event.type === 'DISCARD' ? { outbox: context.outbox.filter((p) => p.clientId !== event.clientId) } : {})),
    /** Whether to mark read is decided by shouldMarkRead once the state has settled. */
    askToRead: raise({ type: 'READ_NEEDED' }),
    clearUnread: assign(({ context }) => {
      const partner = context.openWith;
      const conversation = partner === null ? undefined : context.conversations[partner];
      return conversation ? { conversations: { ...context.conversations, [partner!]: { ...conversation, unread: 0 } } } : {};
    }),
    rememberReadAgain: assign({ readAgain: true }),
    forgetReadAgain: assign({ readAgain: false }),
  },
}).createMachine({
  id: 'chat',
  type: 'parallel',
  context: ({ input }) => ({
    me: input.me,
    clientPrefix: input.clientPrefix ?? Math.random().toString(36).slice(2, 10),
    nextClientSeq: 1,
    contacts: [],
    conversations: {},
    threads: {},
    readByPartner: {},
    openWith: null,
    outbox: [],
    overviewError: null,
    historyError: null,
    readAgain: false,
  }),
  invoke: [
    { id: 'chatEvents', src: 'chatEvents' },
    { id: 'reconnects', src: 'reconnects' },
    { id: 'outbox', src: 'outbox' },
  ],
  on: {
    'chat.message': { actions: 'receiveMessage' },
    'chat.presence': { actions: 'setPresence' },
    'chat.read': { actions: 'applyRead' },
    'chat.refusal': { actions: 'markRefused' },
  },
  states: {
    // Its own region: RECONNECTED is also taken by the overview and conversation regions.
    sending: {
      initial: 'ready',
      states: {
        ready: {
          on: {
            SEND_FAILED: { actions: 'markRefused' },
            SEND: { guard: 'canSend', actions: 'queueMessage' },
            RETRY_SEND: { guard: 'isRefusedPending', actions: 'retryPending' },
            DISCARD: { actions: 'discardPending' },
            RECONNECTED: { actions: 'resendInFlight' },
          },
        },
      },
    },
    overview: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadOverview',
            onDone: { target: 'ready', actions: { type: 'storeOverview', params: ({ event }) => ({ overview: event.output }) } },
            onError: { target: 'failed', actions: { type: 'storeOverviewError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        ready: { on: { RECONNECTED: 'loading' } },
        failed: { on: { RETRY: 'loading', RECONNECTED: 'loading' } },
      },
    },
    panel: {
      initial: 'closed',
      states: {
        closed: { on: { OPEN_PANEL: 'open', TOGGLE_PANEL: 'open' } },
        open: {
          tags: ['panelOpen'],
          entry: 'askToRead',
          on: { CLOSE_PANEL: 'closed', TOGGLE_PANEL: 'closed' },
        },
      },
    },
    conversation: {
      initial: 'none',
      on: {
        OPEN_CONVERSATION: { target: '.loading', actions: 'selectConversation' },
        CLOSE_CONVERSATION: { target: '.none', actions: 'forgetConversation' },
      },
      states: {
        none: {},
        loading: {
          invoke: {
            src: 'loadHistory',
            input: ({ context }) => ({ with: context.openWith! }),
            onDone: { target: 'viewing', actions: [{ type: 'storeHistory', params: ({ event }) => ({ page: event.output }) }] },
            onError: { target: 'failed', actions: { type: 'storeHistoryError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        viewing: {
          tags: ['viewing'],
          entry: 'askToRead',
          on: { LOAD_OLDER: { guard: 'hasOlder', target: 'loadingOlder' }, RECONNECTED: 'loading' },
        },
        loadingOlder: {
          tags: ['viewing'],
          invoke: {
            src: 'loadHistory',
            input: ({ context }) => ({ with: context.openWith!, before: context.threads[context.openWith!]?.messages[0]?.id }),
            onDone: { target: 'viewing', actions: { type: 'prependHistory', params: ({ event }) => ({ page: event.output }) } },
            onError: { target: 'viewing', actions: { type: 'storeHistoryError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        failed: { on: { RETRY_HISTORY: 'loading' } },
      },
    },
    reading: {
      initial: 'idle',
      states: {
        idle: { on: { READ_NEEDED: { guard: 'shouldMarkRead', target: 'marking' } } },
        marking: {
          entry: ['forgetReadAgain', 'clearUnread'],
          on: { READ_NEEDED: { guard: 'shouldMarkRead', actions: 'rememberReadAgain' } },
          invoke: {
            src: 'markRead',
            input: ({ context }) => ({ with: context.openWith ?? '' }),
            onDone: [{ guard: 'isReadAgain', target: 'marking', reenter: true }, { target: 'idle' }],
            onError: { target: 'idle' },
          },
        },
      },
    },
  },
});

export type ChatSnapshot = SnapshotFrom<typeof chatMachine>;

/** A reconnection (not the first connect): the queue is resubscribed, but what came meanwhile must be fetched. */
export function reconnections$(states: Observable<ConnectionState>): Observable<{ type: 'RECONNECTED' }> {
  return states.pipe(
    // The current state is replayed on subscribe: only later connects count.
    skip(1),
    filter((state): state is Extract<ConnectionState, { status: 'connected' }> => state.status === 'connected' && state.generation > 1),
    map(() => ({ type: 'RECONNECTED' as const })),
  );
}

/** The machine on the app's connection and REST calls. */
export function chatMachineFor(connection: Connection, api: ChatApi) {
  return chatMachine.provide({
    actors: {
      chatEvents: fromEventObservable<ChatStreamEvent, void>(() => chatEvents$(connection).pipe(map(chatStreamEvent))),
      reconnects: fromEventObservable<{ type: 'RECONNECTED' }, void>(() => reconnections$(connection.connectionState$)),
      outbox: fromCallback<OutboxCommand>(({ receive, sendBack }) => {
        receive((command) => {
          if (!sendChatMessage(connection, command.message)) sendBack({ type: 'SEND_FAILED', clientId: command.message.clientId });
        });
      }),
      loadOverview: fromPromise<ChatOverview, void>(() => api.loadOverview()),
      loadHistory: fromPromise<ChatMessagesPage, { with: string; before?: string }>(({ input }) => api.loadHistory(input)),
      markRead: fromPromise<unknown, { with: string }>(({ input }) => api.markRead(input)),
    },
  });
}

// ---- selectors ----

export function totalUnread(snapshot: ChatSnapshot): number {
  return Object.values(snapshot.context.conversations).reduce((sum, conversation) => sum + conversation.unread, 0);
}

export interface ConversationEntry {
  partner: ChatContact | null;
  partnerId: string;
  lastMessage: ChatMessage;
  unread: number;
}

/** Conversations, latest first, with the partner's contact entry. */
export function conversationList(snapshot: ChatSnapshot): ConversationEntry[] {
  const contacts = new Map(snapshot.context.contacts.map((contact) => [contact.userId, contact]));
  return Object.entries(snapshot.context.conversations)
    .map(([partnerId, conversation]) => ({ partnerId, partner: contacts.get(partnerId) ?? null, ...conversation }))
    .sort((a, b) => compareMessageIds(b.lastMessage.id, a.lastMessage.id));
}

/** Online contacts: the "active brokers" list. */
export function activeContacts(snapshot: ChatSnapshot): ChatContact[] {
  return snapshot.context.contacts.filter((contact) => contact.online);
}

const noMessages: ChatMessage[] = [];

export function openThread(snapshot: ChatSnapshot): { messages: ChatMessage[]; hasMore: boolean; pending: PendingMessage[] } {
  const partner = snapshot.context.openWith;
  if (partner === null) return { messages: noMessages, hasMore: false, pending: [] };
  const thread = snapshot.context.threads[partner];
  return { messages: thread?.messages ?? noMessages, hasMore: thread?.hasMore ?? false, pending: snapshot.context.outbox.filter((p) => p.to === partner) };
}
