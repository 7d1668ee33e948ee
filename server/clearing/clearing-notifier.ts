import { destinations, type ClearingChange, type Notification } from '../../protocol/index.ts';
import type { StompGateway } from '../gateway/stomp-gateway.ts';
import type { Store } from '../store/store.ts';

/** The message keys of clearing's notifications (src/i18n/messages/notifications.ts). */
const clearingMessageKeys = {
  marginCall: 'notifications.marginCall',
  warrantyExpiring: 'notifications.warrantyExpiring',
} as const;

/** Who hears about a client: the users of its agency (brokers, agency, client and terminal desks) and the administrators. */
export interface ClearingAudience {
  usersOfAgency: ReadonlyMap<string, readonly string[]>;
  agencyOfClient: ReadonlyMap<string, string>;
  administrators: readonly string[];
  everyone: readonly string[];
}

export async function loadClearingAudience(store: Store): Promise<ClearingAudience> {
  const [users, clients] = await Promise.all([
    store.db.query<{ id: string; roles: string[]; agency_id: string | null }>('select id, roles, agency_id from users order by id'),
    store.reference.clients(),
  ]);
  const usersOfAgency = new Map<string, string[]>();
  for (const user of users) if (user.agency_id !== null) usersOfAgency.set(user.agency_id, [...(usersOfAgency.get(user.agency_id) ?? []), user.id]);
  return {
    usersOfAgency,
    agencyOfClient: new Map(clients.map((client) => [client.code, client.agencyId])),
    administrators: users.filter((user) => user.roles.includes('administrator')).map((user) => user.id),
    everyone: users.map((user) => user.id),
  };
}

/**
 * Publishes clearing's news: a ClearingChange on `/user/queue/clearing` (the account tabs refetch) to
 * the client's agency's users and the administrators (every user for a change of no client, a
 * settlement price), and, for margin calls and the warranty notice, a notification on
 * `/user/queue/notifications`. Nothing is stored: the tabs read the tables.
 */
export class ClearingNotifier {
  private seq = 0;
  private readonly prefix = `clr-${Date.now().toString(36)}`;

  constructor(
    private readonly gateway: Pick<StompGateway, 'sendToUser'>,
    private readonly audience: ClearingAudience,
  ) {}

  /** The users told about `clientCode` (null: everyone). */
  recipients(clientCode: string | null): string[] {
    if (clientCode === null) return [...this.audience.everyone];
    const agency = this.audience.agencyOfClient.get(clientCode);
    const agencyUsers = agency === undefined ? [] : (this.audience.usersOfAgency.get(agency) ?? []);
    return [...new Set([...agencyUsers, ...this.audience.administrators])];
  }

  notify = (change: ClearingChange): void => {
    for (const userId of this.recipients(change.clientCode)) this.gateway.sendToUser(userId, destinations.clearing, change);
  };

  /** A notification (and the matching change) for a margin call or a warranty about to expire. */
  alert(kind: keyof typeof clearingMessageKeys, clientCode: string, values: Notification['values'], at: string): void {
    const notification: Notification = { id: `${this.prefix}-${++this.seq}`, kind: 'system', messageKey: clearingMessageKeys[kind], values: { clientCode, ...values }, at };
    for (const userId of this.recipients(clientCode)) this.gateway.sendToUser(userId, destinations.notifications, notification);
    this.notify({ kind: kind === 'marginCall' ? 'margin_call' : 'warranty', clientCode, marketId: null, sessionDate: null, at });
  }
}
