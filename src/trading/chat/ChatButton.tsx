import { useSelector } from '@xstate/react';
import { FormattedMessage, useIntl } from 'react-intl';
import { totalUnread } from '../../../machines/chat.machine.ts';
import { useChatActor } from './ChatProvider.tsx';
import './Chat.css';

/** Header button: opens and closes the chat panel, with the number of unread messages. */
export function ChatButton() {
  const actor = useChatActor();
  if (!actor) return null;
  return <ChatButtonFor actor={actor} />;
}

function ChatButtonFor({ actor }: { actor: NonNullable<ReturnType<typeof useChatActor>> }) {
  const intl = useIntl();
  const unread = useSelector(actor, totalUnread);
  const open = useSelector(actor, (snapshot) => snapshot.hasTag('panelOpen'));
  return (
    <button
      type="button"
      className="button button-ghost chat-button"
      aria-label={intl.formatMessage({ id: 'chat.button.label' }, { count: unread })}
      aria-expanded={open}
      aria-controls="chat-panel"
      onClick={() => actor.send({ type: 'TOGGLE_PANEL' })}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <path d="M4 4h16a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H9l-4 3.5V17H4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1z" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
      </svg>
      <span className="chat-button-text">
        <FormattedMessage id="chat.button" />
      </span>
      {unread > 0 && (
        <span className="chat-badge" aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </button>
  );
}
