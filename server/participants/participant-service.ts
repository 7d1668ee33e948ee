/**
 * Participant suspension (issue 16, item 6): the operator lists the exchange's clients and brokers
 * with their suspension state, suspends and reinstates them. The state lives in the engine (journaled
 * commands suspendParticipant / reinstateParticipant, server/engine/participants.ts), so a restart or
 * a replay makes the same decisions; the names come from the store. The affected users get a
 * notification (the code's message); their cancelled orders reach them through the order events.
 */
import { apiError, ExchangeError, type ErrorCode } from '../../protocol/error-codes.ts';
import type { Participant, ParticipantChange, ParticipantKind } from '../../protocol/participants.ts';
import type { Queryable } from '../store/database.ts';
import type { UserRecord } from '../store/users.repository.ts';
import type { Sequencer } from '../trading/sequencer.ts';

export interface ParticipantServiceOptions {
  db: Queryable;
  sequencer: Pick<Sequencer, 'submit' | 'engine'>;
  /** Which users act for a client code (they are told of the client's suspension). */
  usersOfClient: (clientCode: string) => readonly string[];
  /** Tells users that a participant they act as or for was suspended or reinstated. */
  notify?: (userIds: readonly string[], change: { kind: ParticipantKind; id: string; suspended: boolean }, at: string) => void;
}

interface Named {
  id: string;
  name: string;
}

export class ParticipantService {
  constructor(private readonly options: ParticipantServiceOptions) {}

  /** Every client (by code) and every broker (a user with the broker role), with their suspension. */
  async list(): Promise<Participant[]> {
    const [clients, brokers] = await Promise.all([this.clients(), this.brokers()]);
    return [...clients.map((c) => this.participant('client', c)), ...brokers.map((b) => this.participant('broker', b))];
  }

  /** Suspends the participant: its orders are cancelled in the same engine command (their number is answered). */
  async suspend(operator: UserRecord, kind: ParticipantKind, id: string, reason: string): Promise<ParticipantChange> {
    requireAdmin(operator);
    const named = await this.find(kind, id);
    const result = await this.options.sequencer.submit({ type: 'suspendParticipant', actor: { userId: operator.id }, kind, id, reason, by: operator.id });
    if (result.result !== 'OK') throw new ExchangeError({ code: result.result as ErrorCode, params: result.params ?? {} } as never);
    const participant = this.participant(kind, named);
    this.options.notify?.(this.affectedUsers(kind, id), { kind, id, suspended: true }, participant.suspendedAt ?? new Date().toISOString());
    return { participant, cancelledOrders: result.cancelled?.length ?? 0 };
  }

  /** Lifts the suspension: the participant may place orders again. */
  async reinstate(operator: UserRecord, kind: ParticipantKind, id: string): Promise<ParticipantChange> {
    requireAdmin(operator);
    const named = await this.find(kind, id);
    const result = await this.options.sequencer.submit({ type: 'reinstateParticipant', kind, id, by: operator.id });
    if (result.result !== 'OK') throw new ExchangeError({ code: result.result as ErrorCode, params: result.params ?? {} } as never);
    this.options.notify?.(this.affectedUsers(kind, id), { kind, id, suspended: false }, new Date(this.options.sequencer.engine.clock).toISOString());
    return { participant: this.participant(kind, named), cancelledOrders: 0 };
  }

  private participant(kind: ParticipantKind, named: Named): Participant {
    const s = this.options.sequencer.engine.getSuspension(kind, named.id);
    return {
      kind,
      id: named.id,
      name: named.name,
      suspended: s !== undefined,
      suspendedAt: s === undefined ? null : new Date(s.at).toISOString(),
      suspendedBy: s?.by ?? null,
      reason: s?.reason ?? null,
    };
  }

  private affectedUsers(kind: ParticipantKind, id: string): readonly string[] {
    return kind === 'broker' ? [id] : this.options.usersOfClient(id);
  }

  private async find(kind: ParticipantKind, id: string): Promise<Named> {
    const rows =
      kind === 'client'
        ? await this.options.db.query<Named>('select code as id, name from clients where code = $1', [id])
        : await this.options.db.query<Named>(`select id, name from users where id = $1 and roles @> '["broker"]'::jsonb`, [id]);
    const found = rows[0];
    if (found === undefined) throw new ExchangeError(apiError('PARTICIPANT_NOT_FOUND', { participant: id }));
    return found;
  }

  private clients(): Promise<Named[]> {
    return this.options.db.query<Named>('select code as id, name from clients order by code');
  }

  private brokers(): Promise<Named[]> {
    return this.options.db.query<Named>(`select id, name from users where roles @> '["broker"]'::jsonb order by username`);
  }
}

function requireAdmin(user: UserRecord): void {
  if (!user.roles.includes('administrator')) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'admin' }));
}
