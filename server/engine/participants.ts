/**
 * Participant suspension (issue 16): the operator suspends a client (its code) or a broker (a user
 * id) and reinstates them. One journaled command each. A suspension cancels, in the same command,
 * every live order (resting or suspended) of the client, or entered by the user, whatever the
 * trader-side cancel rules (phase, delta T, agency, the asset's cancel flags) say: those restrict a
 * trader's request, not the operator's. From then on rules/participant-suspension.ts refuses the
 * participant's new orders, modifications and activations (and a suspended client's new OTC deals).
 */
import { apiError } from '../../protocol/error-codes.ts';
import { participantKinds } from '../../protocol/participants.ts';
import type { EngineState } from './engine-state.ts';
import { refuse, type Refusal } from './refusal.ts';
import { finish } from './resting.ts';
import type { OrderState } from './state.ts';
import type { ReinstateParticipantCommand, SuspendParticipantCommand } from './types.ts';

function malformed(c: { kind: unknown; id: unknown; by: unknown }): Refusal | null {
  if (!participantKinds.includes(c.kind as never)) return refuse(apiError('REQUEST_INVALID', { field: 'kind', issue: 'invalid' }));
  if (typeof c.id !== 'string' || c.id === '') return refuse(apiError('REQUEST_INVALID', { field: 'id', issue: 'invalid' }));
  if (typeof c.by !== 'string' || c.by === '') return refuse(apiError('REQUEST_INVALID', { field: 'by', issue: 'invalid' }));
  return null;
}

export function suspendParticipant(s: EngineState, c: SuspendParticipantCommand): Refusal | null {
  const bad = malformed(c) ?? (typeof c.reason === 'string' ? null : refuse(apiError('REQUEST_INVALID', { field: 'reason', issue: 'invalid' })));
  if (bad !== null) return bad;
  // A client must be known to the engine; a broker is a user, which the engine does not know (the service checks it).
  if (c.kind === 'client' && !s.clients.has(c.id)) return refuse(apiError('PARTICIPANT_NOT_FOUND', { participant: c.id }));
  const map = s.suspensions.of(c.kind);
  if (map.has(c.id)) return refuse(apiError('PARTICIPANT_ALREADY_SUSPENDED', { participant: c.id }));
  map.set(c.id, { kind: c.kind, id: c.id, at: c.at, by: c.by, reason: c.reason });
  // Collected first (cancelling removes from the index), in id order so a replay cancels alike.
  const targets: OrderState[] = [];
  for (const o of s.orders.values()) {
    if (c.kind === 'client' ? o.clientCode === c.id : o.enteredBy === c.id) targets.push(o);
  }
  targets.sort((x, y) => x.id - y.id);
  const cancelled: number[] = [];
  for (const o of targets) {
    cancelled.push(o.id);
    finish(s, o.cas.asset, o, 'cancelled', c.at, 'user');
  }
  s.emit({ type: 'config', kind: 'participant', id: `${c.kind}:${c.id}`, at: c.at });
  s.resultCancelAll = { cancelled, refused: [] };
  return null;
}

export function reinstateParticipant(s: EngineState, c: ReinstateParticipantCommand): Refusal | null {
  const bad = malformed(c);
  if (bad !== null) return bad;
  const map = s.suspensions.of(c.kind);
  if (!map.has(c.id)) return refuse(apiError('PARTICIPANT_NOT_SUSPENDED', { participant: c.id }));
  map.delete(c.id);
  s.emit({ type: 'config', kind: 'participant', id: `${c.kind}:${c.id}`, at: c.at });
  return null;
}
