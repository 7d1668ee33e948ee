import { useIntl } from 'react-intl';
import type { MessageKey } from '../i18n/messages/index.ts';
import type { ConnectionIndicatorStatus } from '../realtime/RealtimeProvider.tsx';

const labels: Record<ConnectionIndicatorStatus, MessageKey> = {
  connecting: 'connection.connecting',
  connected: 'connection.connected',
  reconnecting: 'connection.reconnecting',
  offline: 'connection.offline',
};

/**
 * A dot and a word: is the app in touch with the exchange's realtime channel? Prop-driven; the header
 * feeds it from the connection machine (useConnectionStatus).
 */
export function ConnectionIndicator({ status, compact = false }: { status: ConnectionIndicatorStatus; compact?: boolean }) {
  const intl = useIntl();
  const label = intl.formatMessage({ id: labels[status] });
  return (
    <span
      className={`connection connection-${status}`}
      role="status"
      title={label}
      aria-label={intl.formatMessage({ id: 'connection.label' }, { status: label })}
      data-status={status}
    >
      <span className="connection-dot" aria-hidden="true" />
      {!compact && <span className="connection-text">{label}</span>}
    </span>
  );
}
