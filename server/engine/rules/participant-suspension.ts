/**
 * Participant suspension (issue 16): a client or a broker (a user) the operator suspended places no
 * order, modifies or activates none, and a suspended client registers no new OTC deal, until the
 * operator reinstates them (server/engine/participants.ts holds the commands).
 *
 * Fast path: nobody is suspended (both maps empty), which is the normal state of the exchange.
 */
import { apiError } from '../../../protocol/error-codes.ts';
import { refuse, type Refusal } from '../refusal.ts';
import type { ParticipantSuspensions } from '../state.ts';

/** True when nobody is suspended; false means "ask suspensionRefusal". */
export function suspensionFree(suspensions: ParticipantSuspensions): boolean {
  return suspensions.clients.size === 0 && suspensions.brokers.size === 0;
}

/**
 * PARTICIPANT_SUSPENDED for the client (its code) when it is suspended, else for the acting user (its
 * id) when that broker is suspended, else null.
 */
export function suspensionRefusal(suspensions: ParticipantSuspensions, clientCode: string, userId: string | null | undefined): Refusal | null {
  if (suspensions.clients.has(clientCode)) return refuse(apiError('PARTICIPANT_SUSPENDED', { participant: clientCode }));
  if (userId && suspensions.brokers.has(userId)) return refuse(apiError('PARTICIPANT_SUSPENDED', { participant: userId }));
  return null;
}
