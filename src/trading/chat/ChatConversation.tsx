import { useVirtualizer } from '@tanstack/react-virtual';
import { useSelector } from '@xstate/react';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { compareMessageIds, openThread, type ChatSnapshot, type PendingMessage } from '../../../machines/chat.machine.ts';
import { CHAT_MAX_LENGTH, chatTextLength, isChatTextValid } from '../../../protocol/chat.ts';
import type { ChatMessage } from '../../../protocol/market-data.ts';
import { formatApiError } from '../../i18n/format-error.ts';
import type { ChatActor } from './ChatProvider.tsx';
import { shortExchangeTime } from './chat-time.ts';

type Row = { kind: 'message'; key: string; message: ChatMessage; seen: boolean } | { kind: 'pending'; key: string; pending: PendingMessage };

/** Rows are measured after render; the estimate only places the first paint. */
const ESTIMATED_ROW_HEIGHT = 56;

function selectConversation(snapshot: ChatSnapshot, partnerId: string) {
  const thread = openThread(snapshot);
  return {
    me: snapshot.context.me,
    partner: snapshot.context.contacts.find((contact) => contact.userId === partnerId) ?? null,
    messages: thread.messages,
    pending: thread.pending,
    hasMore: thread.hasMore,
    seenUpTo: snapshot.context.readByPartner[partnerId] ?? null,
    status: snapshot.matches({ conversation: 'loading' })
      ? ('loading' as const)
      : snapshot.matches({ conversation: 'failed' })
        ? ('failed' as const)
        : snapshot.matches({ conversation: 'loadingOlder' })
          ? ('loadingOlder' as const)
          : ('viewing' as const),
    error: snapshot.context.historyError,
  };
}

type ConversationState = ReturnType<typeof selectConversation>;
const sameConversation = (a: ConversationState, b: ConversationState) =>
  a.me === b.me &&
  a.partner === b.partner &&
  a.messages === b.messages &&
  a.pending.length === b.pending.length &&
  a.pending.every((p, i) => p === b.pending[i]) &&
  a.hasMore === b.hasMore &&
  a.seenUpTo === b.seenUpTo &&
  a.status === b.status &&
  a.error === b.error;

/** One conversation: virtualised history (measured rows), pending and refused sends, the composer. */
export function ChatConversationView({ actor, partnerId }: { actor: ChatActor; partnerId: string }) {
  const intl = useIntl();
  const state = useSelector(actor, (snapshot) => selectConversation(snapshot, partnerId), sameConversation);
  const name = state.partner?.name ?? partnerId;

  // "Seen" goes under my latest message the partner has read.
  const lastSeenMine = state.seenUpTo === null ? null : ([...state.messages].reverse().find((m) => m.from === state.me && compareMessageIds(m.id, state.seenUpTo!) <= 0)?.id ?? null);
  const rows: Row[] = [
    ...state.messages.map((message) => ({ kind: 'message' as const, key: `m-${message.id}`, message, seen: message.id === lastSeenMine })),
    ...state.pending.map((pending) => ({ kind: 'pending' as const, key: `p-${pending.clientId}`, pending })),
  ];

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    getItemKey: (index) => rows[index]!.key,
    overscan: 8,
    initialRect: { width: 0, height: 400 },
  });

  // Stick to the bottom when a row is added at the end and the reader was at the bottom (or just opened).
  const lastKey = rows.at(-1)?.key;
  const firstKey = rows[0]?.key;
  const atBottom = useRef(true);
  useLayoutEffect(() => {
    if (rows.length > 0 && atBottom.current) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when a row is added at the end: `rows` and the virtualizer are new every render
  }, [lastKey, rows.length > 0]);
  // Older messages were prepended: keep the row that was first in view.
  const previousFirst = useRef(firstKey);
  useLayoutEffect(() => {
    const before = previousFirst.current;
    previousFirst.current = firstKey;
    if (before === undefined || before === firstKey || atBottom.current) return;
    const index = rows.findIndex((row) => row.key === before);
    if (index > 0) virtualizer.scrollToIndex(index, { align: 'start' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when older rows were prepended: `rows` and the virtualizer are new every render
  }, [firstKey]);

  return (
    <div className="chat-conversation">
      <div className="chat-conversation-header">
        <button type="button" className="button button-ghost chat-icon-button" aria-label={intl.formatMessage({ id: 'chat.back' })} onClick={() => actor.send({ type: 'CLOSE_CONVERSATION' })}>
          ←
        </button>
        <span className={`chat-presence ${state.partner?.online ? 'chat-presence-online' : ''}`} aria-hidden="true" />
        <span className="chat-conversation-name">{name}</span>
        <span className="chat-contact-detail">
          <FormattedMessage id={state.partner?.online ? 'chat.online' : 'chat.offline'} />
        </span>
      </div>

      {state.status === 'failed' ? (
        <div className="chat-note" role="alert">
          <p>
            <FormattedMessage id="chat.historyFailed" /> {state.error && formatApiError(intl, state.error)}
          </p>
          <button type="button" className="button button-secondary" onClick={() => actor.send({ type: 'RETRY_HISTORY' })}>
            <FormattedMessage id="chat.retry" />
          </button>
        </div>
      ) : (
        <div
          ref={scrollRef}
          className="chat-history"
          role="log"
          aria-label={intl.formatMessage({ id: 'chat.history' }, { name })}
          aria-busy={state.status === 'loading' || state.status === 'loadingOlder'}
          onScroll={(event) => {
            const element = event.currentTarget;
            atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
          }}
        >
          {state.hasMore && (
            <button type="button" className="button button-ghost chat-older" disabled={state.status === 'loadingOlder'} onClick={() => actor.send({ type: 'LOAD_OLDER' })}>
              <FormattedMessage id={state.status === 'loadingOlder' ? 'chat.loadingOlder' : 'chat.loadOlder'} />
            </button>
          )}
          {state.status === 'loading' && rows.length === 0 ? (
            <p className="chat-note" role="status">
              <FormattedMessage id="chat.loading" />
            </p>
          ) : rows.length === 0 ? (
            <p className="chat-note">
              <FormattedMessage id="chat.historyEmpty" />
            </p>
          ) : (
            <div className="chat-rows" style={{ height: virtualizer.getTotalSize() }}>
              {virtualizer.getVirtualItems().map((item) => {
                const row = rows[item.index]!;
                return (
                  <div key={item.key} ref={virtualizer.measureElement} data-index={item.index} className="chat-row" style={{ transform: `translateY(${item.start}px)` }}>
                    {row.kind === 'message' ? <MessageBubble message={row.message} mine={row.message.from === state.me} seen={row.seen} /> : <PendingBubble actor={actor} pending={row.pending} />}
                  </div>
                );
              })}
            </div>
          )}
        </div>
      )}

      <Composer actor={actor} name={name} />
    </div>
  );
}

function MessageBubble({ message, mine, seen }: { message: ChatMessage; mine: boolean; seen: boolean }) {
  const intl = useIntl();
  return (
    <div className={`chat-bubble ${mine ? 'chat-bubble-mine' : 'chat-bubble-theirs'}`} data-message-id={message.id}>
      <p className="chat-text">{message.text}</p>
      <span className="chat-meta">
        <time dateTime={message.at}>{shortExchangeTime(intl, message.at)}</time>
        {seen && (
          <>
            {' · '}
            <FormattedMessage id="chat.seen" />
          </>
        )}
      </span>
    </div>
  );
}

function PendingBubble({ actor, pending }: { actor: ChatActor; pending: PendingMessage }) {
  const intl = useIntl();
  return (
    <div className={`chat-bubble chat-bubble-mine chat-bubble-${pending.status}`}>
      <p className="chat-text">{pending.text}</p>
      {pending.status === 'sending' ? (
        <span className="chat-meta">
          <FormattedMessage id="chat.sending" />
        </span>
      ) : (
        <div className="chat-refusal" role="alert">
          <span>{pending.error && formatApiError(intl, pending.error)}</span>
          <span className="chat-refusal-actions">
            <button type="button" className="button button-ghost button-small" onClick={() => actor.send({ type: 'RETRY_SEND', clientId: pending.clientId })}>
              <FormattedMessage id="chat.retrySend" />
            </button>
            <button type="button" className="button button-ghost button-small" onClick={() => actor.send({ type: 'DISCARD', clientId: pending.clientId })}>
              <FormattedMessage id="chat.discard" />
            </button>
          </span>
        </div>
      )}
    </div>
  );
}

function Composer({ actor, name }: { actor: ChatActor; name: string }) {
  const intl = useIntl();
  const [text, setText] = useState('');
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const length = chatTextLength(text);
  const valid = isChatTextValid(text);

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  const send = () => {
    if (!valid) return;
    actor.send({ type: 'SEND', text });
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter is a new line; Enter while composing (IME) belongs to the IME.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <form
      className="chat-composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        ref={inputRef}
        className="chat-input"
        rows={2}
        value={text}
        aria-label={intl.formatMessage({ id: 'chat.compose' }, { name })}
        aria-describedby="chat-compose-hint chat-compose-counter"
        aria-invalid={length > CHAT_MAX_LENGTH}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="chat-composer-footer">
        <span id="chat-compose-hint" className="chat-contact-detail">
          <FormattedMessage id="chat.composeHint" />
        </span>
        <span id="chat-compose-counter" className={`chat-counter ${length > CHAT_MAX_LENGTH ? 'chat-counter-over' : ''}`}>
          <FormattedMessage id="chat.counter" values={{ count: intl.formatNumber(length), max: intl.formatNumber(CHAT_MAX_LENGTH) }} />
        </span>
        <button type="submit" className="button button-primary button-small" disabled={!valid}>
          <FormattedMessage id="chat.send" />
        </button>
      </div>
    </form>
  );
}
