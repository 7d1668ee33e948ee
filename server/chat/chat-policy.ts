/**
 * Who may chat with whom. Chat is for the people who make the market, so it follows who deals with
 * whom on the exchange:
 *
 * - the operator (administrator) talks with everyone who chats (market supervision, help desk);
 * - intermediaries (brokers and agencies) talk with each other across agencies: that is the
 *   "active brokers" list, where counterparties arrange deals;
 * - participants (clients, asset owners, transmission partners) talk with the intermediaries of
 *   their own agency and the operator, never with other participants directly;
 * - terminals are read-only desks: they do not chat.
 *
 * The relation is symmetric, so whoever receives a message may answer it.
 */
export type ChatCircle = 'operator' | 'intermediary' | 'participant';

export interface ChatParty {
  id: string;
  roles: readonly string[];
  agencyId: string | null;
}

const participantRoles = new Set(['client', 'assetOwner', 'transmissionPartner', 'initiator', 'partner']);

/** The widest circle a user's roles give; null for users who do not chat (terminals only). */
export function chatCircle(roles: readonly string[]): ChatCircle | null {
  if (roles.includes('administrator')) return 'operator';
  if (roles.includes('broker') || roles.includes('agency')) return 'intermediary';
  if (roles.some((role) => participantRoles.has(role))) return 'participant';
  return null;
}

export function mayChat(a: ChatParty, b: ChatParty): boolean {
  if (a.id === b.id) return false;
  const circleA = chatCircle(a.roles);
  const circleB = chatCircle(b.roles);
  if (circleA === null || circleB === null) return false;
  if (circleA === 'operator' || circleB === 'operator') return true;
  if (circleA === 'intermediary' && circleB === 'intermediary') return true;
  if (circleA === 'participant' && circleB === 'participant') return false;
  return a.agencyId !== null && a.agencyId === b.agencyId;
}
