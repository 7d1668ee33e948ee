import type { Participant } from '../../protocol/participants.ts';
import type { Store } from '../store/store.ts';

/**
 * The operator console's participants until participant suspension (server/participants/) is wired in:
 * every client (store reference) and every broker (a user with the broker role), none suspended.
 * The lead replaces this with the participants service's list.
 */
export function participantsFallback(store: Pick<Store, 'reference' | 'db'>): () => Promise<Participant[]> {
  return async () => {
    const [clients, brokers] = await Promise.all([
      store.reference.clients(),
      store.db.query<{ id: string; name: string }>(`select id, name from users where roles @> '["broker"]'::jsonb order by id`),
    ]);
    const idle = { suspended: false, suspendedAt: null, suspendedBy: null, reason: null };
    return [
      ...clients.map((client): Participant => ({ kind: 'client', id: client.code, name: client.name, ...idle })),
      ...brokers.map((broker): Participant => ({ kind: 'broker', id: broker.id, name: broker.name, ...idle })),
    ];
  };
}
