/**
 * The operator's participant suspension (issue 16, item 6), administrators only: the list of clients
 * and brokers with their suspension, suspend (a reason), reinstate (no body). Every suspend and
 * reinstate an administrator sends is audited, accepted or refused (category operator).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuditRecord } from '../../protocol/audit.ts';
import { apiError, ExchangeError } from '../../protocol/error-codes.ts';
import { participantKinds, participantSuspendSchema, type ParticipantChange, type ParticipantKind } from '../../protocol/participants.ts';
import type { AuditRecorder } from '../audit/audit-recorder.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { ParticipantService } from '../participants/participant-service.ts';
import type { UserRecord } from '../store/users.repository.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

/** A client code or a user id, as the other routes' ids. */
export const participantParamsSchema = z.strictObject({ kind: z.enum(participantKinds), id: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/) });

export interface ParticipantsRoutesOptions {
  auth: AuthService;
  participants: ParticipantService;
  audit: AuditRecorder;
}

async function requireAdmin(auth: AuthService, request: FastifyRequest): Promise<UserRecord> {
  const user = await requireUser(auth, request);
  if (!user.roles.includes('administrator')) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'admin' }));
  return user;
}

export function participantsRoutes({ auth, participants, audit }: ParticipantsRoutesOptions) {
  /** Runs the change and keeps its audit entry, accepted or refused (the refusal is rethrown). */
  async function audited(
    request: FastifyRequest,
    user: UserRecord,
    action: 'participant.suspend' | 'participant.reinstate',
    target: { kind: ParticipantKind; id: string; reason: string | null },
    change: () => Promise<ParticipantChange>,
  ): Promise<ParticipantChange> {
    const entry = (outcome: AuditRecord['outcome'], code: AuditRecord['code'], cancelledOrders: number | null, params: Record<string, string | number> = {}): AuditRecord => ({
      category: 'operator',
      action,
      actorUserId: user.id,
      actorRole: 'administrator',
      subject: `${target.kind}:${target.id}`.slice(0, 200),
      outcome,
      code,
      remoteAddress: request.ip ?? null,
      details: { kind: target.kind, id: target.id, reason: target.reason, cancelledOrders, ...params },
    });
    let result: ParticipantChange;
    try {
      result = await change();
    } catch (error) {
      if (error instanceof ExchangeError) await audit.record(entry('refused', error.code, null, error.params as Record<string, string | number>));
      throw error;
    }
    await audit.record(entry('ok', null, result.cancelledOrders));
    return result;
  }

  return async function register(app: FastifyInstance): Promise<void> {
    app.get('/admin/participants', async (request) => {
      await requireAdmin(auth, request);
      return { participants: await participants.list() };
    });

    app.post('/admin/participants/:kind/:id/suspend', async (request) => {
      const user = await requireAdmin(auth, request);
      const { kind, id } = parseWith(participantParamsSchema, request.params);
      const { reason } = parseWith(participantSuspendSchema, request.body ?? {});
      return audited(request, user, 'participant.suspend', { kind, id, reason }, () => participants.suspend(user, kind, id, reason));
    });

    app.post('/admin/participants/:kind/:id/reinstate', async (request) => {
      const user = await requireAdmin(auth, request);
      const { kind, id } = parseWith(participantParamsSchema, request.params);
      return audited(request, user, 'participant.reinstate', { kind, id, reason: null }, () => participants.reinstate(user, kind, id));
    });
  };
}
