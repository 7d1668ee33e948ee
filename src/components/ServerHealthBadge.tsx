import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ServerHealth } from '../../protocol/health.ts';
import { fetchServerHealth } from '../api/health.ts';

/** How often the header asks the server for its health while signed in. */
export const HEALTH_POLL_MS = 15_000;

/**
 * The server's health, asked now and every `intervalMs` while `enabled`; null before the first answer
 * or when disabled. A failed request keeps the last answer: a server that cannot be reached at all is
 * the connection indicator's business.
 */
export function useServerHealth(enabled: boolean, intervalMs = HEALTH_POLL_MS, fetchHealth: (signal: AbortSignal) => Promise<ServerHealth> = fetchServerHealth): ServerHealth | null {
  const [health, setHealth] = useState<ServerHealth | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const ask = () => {
      fetchHealth(controller.signal).then(setHealth, () => {});
    };
    ask();
    const timer = setInterval(ask, intervalMs);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [enabled, intervalMs, fetchHealth]);
  return enabled ? health : null;
}

/**
 * A warning chip in the header while the server reports itself degraded: trading goes on, but the
 * order history, transactions and statistics are catching up (the database is away), or new orders
 * are refused for the moment (the journal cannot be written). Nothing when all is well.
 */
export function ServerHealthBadge({ health }: { health: ServerHealth | null }) {
  const intl = useIntl();
  if (health === null || health.status === 'ok') return null;
  const detail =
    health.journal.status === 'unavailable'
      ? intl.formatMessage({ id: 'health.journalUnavailable' })
      : intl.formatMessage({ id: 'health.readModelsBehind' }, { behindBy: health.readModels.behindBy });
  return (
    <span className="chip chip-warning" role="status" data-status="degraded" title={detail} aria-label={detail}>
      <span aria-hidden="true">⚠</span> <FormattedMessage id="health.degraded" />
    </span>
  );
}
