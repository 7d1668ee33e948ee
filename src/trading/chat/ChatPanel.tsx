import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { activeContacts, conversationList, type ChatSnapshot } from '../../../machines/chat.machine.ts';
import type { ChatContact } from '../../../protocol/chat.ts';
import { formatApiError } from '../../i18n/format-error.ts';
import type { MessageKey } from '../../i18n/messages/index.ts';
import { ChatConversationView } from './ChatConversation.tsx';
import { useChatActor, type ChatActor } from './ChatProvider.tsx';
import { shortExchangeTime } from './chat-time.ts';
import './Chat.css';

/** The chat side panel of the default layout, shown while the machine's panel region is open. */
export function ChatPanel() {
  const actor = useChatActor();
  if (!actor) return null;
  return <ChatPanelFor actor={actor} />;
}

export function ChatPanelFor({ actor }: { actor: ChatActor }) {
  const intl = useIntl();
  const open = useSelector(actor, (snapshot) => snapshot.hasTag('panelOpen'));
  const openWith = useSelector(actor, (snapshot) => snapshot.context.openWith);
  const panelRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (open) panelRef.current?.focus();
  }, [open]);

  if (!open) return null;
  return (
    <aside
      id="chat-panel"
      ref={panelRef}
      tabIndex={-1}
      className="chat-panel"
      aria-label={intl.formatMessage({ id: 'chat.title' })}
      onKeyDown={(event) => {
        if (event.key === 'Escape') actor.send({ type: 'CLOSE_PANEL' });
      }}
    >
      <header className="chat-panel-header">
        <h2 className="chat-panel-title">
          <FormattedMessage id="chat.title" />
        </h2>
        <button type="button" className="button button-ghost chat-icon-button" aria-label={intl.formatMessage({ id: 'chat.close' })} onClick={() => actor.send({ type: 'CLOSE_PANEL' })}>
          ×
        </button>
      </header>
      {openWith === null ? <ChatLists actor={actor} /> : <ChatConversationView actor={actor} partnerId={openWith} />}
    </aside>
  );
}

function roleLabel(intl: IntlShape, role: string): string {
  const key = `role.${role}`;
  return key in intl.messages ? intl.formatMessage({ id: key as MessageKey }) : role;
}

function ContactButton({ contact, onOpen, detail, unread }: { contact: ChatContact | null; onOpen: () => void; detail?: string | undefined; unread?: number }) {
  const intl = useIntl();
  return (
    <li>
      <button type="button" className="chat-contact" onClick={onOpen}>
        <span className={`chat-presence ${contact?.online ? 'chat-presence-online' : ''}`} aria-hidden="true" />
        <span className="chat-contact-text">
          <span className="chat-contact-name">
            {contact?.name ?? '—'}
            <span className="visually-hidden"> ({intl.formatMessage({ id: contact?.online ? 'chat.online' : 'chat.offline' })})</span>
          </span>
          <span className="chat-contact-detail">{detail ?? contact?.roles.map((role) => roleLabel(intl, role)).join(', ')}</span>
        </span>
        {unread !== undefined && unread > 0 && (
          <span className="chat-badge" aria-label={intl.formatMessage({ id: 'chat.unread' }, { count: unread })}>
            {unread}
          </span>
        )}
      </button>
    </li>
  );
}

const selectLists = (snapshot: ChatSnapshot) => ({
  status: snapshot.matches({ overview: 'failed' }) ? ('failed' as const) : snapshot.matches({ overview: 'loading' }) && snapshot.context.contacts.length === 0 ? ('loading' as const) : ('ready' as const),
  error: snapshot.context.overviewError,
  me: snapshot.context.me,
  active: activeContacts(snapshot),
  conversations: conversationList(snapshot),
  others: snapshot.context.contacts.filter((contact) => !contact.online),
});

function sameLists(a: ReturnType<typeof selectLists>, b: ReturnType<typeof selectLists>): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function ChatLists({ actor }: { actor: ChatActor }) {
  const intl = useIntl();
  const lists = useSelector(actor, selectLists, sameLists);
  const open = (partnerId: string) => actor.send({ type: 'OPEN_CONVERSATION', with: partnerId });

  if (lists.status === 'loading') {
    return (
      <p className="chat-note" role="status">
        <FormattedMessage id="chat.loading" />
      </p>
    );
  }
  if (lists.status === 'failed') {
    return (
      <div className="chat-note" role="alert">
        <p>
          <FormattedMessage id="chat.loadFailed" /> {lists.error && formatApiError(intl, lists.error)}
        </p>
        <button type="button" className="button button-secondary" onClick={() => actor.send({ type: 'RETRY' })}>
          <FormattedMessage id="chat.retry" />
        </button>
      </div>
    );
  }
  return (
    <div className="chat-lists">
      <section aria-labelledby="chat-active-title">
        <h3 id="chat-active-title" className="chat-section-title">
          <FormattedMessage id="chat.active" />
        </h3>
        {lists.active.length === 0 ? (
          <p className="chat-note">
            <FormattedMessage id="chat.activeEmpty" />
          </p>
        ) : (
          <ul className="chat-list">
            {lists.active.map((contact) => (
              <ContactButton key={contact.userId} contact={contact} onOpen={() => open(contact.userId)} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="chat-conversations-title">
        <h3 id="chat-conversations-title" className="chat-section-title">
          <FormattedMessage id="chat.conversations" />
        </h3>
        {lists.conversations.length === 0 ? (
          <p className="chat-note">
            <FormattedMessage id="chat.conversationsEmpty" />
          </p>
        ) : (
          <ul className="chat-list">
            {lists.conversations.map((conversation) => {
              const text = conversation.lastMessage.text.replace(/\s+/g, ' ');
              const snippet = conversation.lastMessage.from === lists.me ? intl.formatMessage({ id: 'chat.you' }, { text }) : text;
              return (
                <ContactButton
                  key={conversation.partnerId}
                  contact={conversation.partner}
                  unread={conversation.unread}
                  detail={`${shortExchangeTime(intl, conversation.lastMessage.at)} · ${snippet}`}
                  onOpen={() => open(conversation.partnerId)}
                />
              );
            })}
          </ul>
        )}
      </section>
      {lists.others.length > 0 && (
        <section aria-labelledby="chat-others-title">
          <h3 id="chat-others-title" className="chat-section-title">
            <FormattedMessage id="chat.others" />
          </h3>
          <ul className="chat-list">
            {lists.others.map((contact) => (
              <ContactButton key={contact.userId} contact={contact} onOpen={() => open(contact.userId)} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
