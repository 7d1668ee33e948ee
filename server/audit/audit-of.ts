import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditEntry, AuditRecord } from '../../protocol/audit.ts';
import { ExchangeError } from '../../protocol/error-codes.ts';
import type { AuditRecorder } from './audit-recorder.ts';

/** Who acts, as an audit entry names them. */
export type AuditActor = Pick<AuditRecord, 'actorUserId' | 'actorRole' | 'remoteAddress'>;

/**
 * The actor fields of an entry from a route's request and signed-in user: the user's id, its roles
 * (comma-separated, 'administrator' for the operator) and the remote address (X-Forwarded-For only
 * behind a trusted proxy, as Fastify's `request.ip`).
 */
export function auditOf(request: Pick<FastifyRequest, 'ip'>, user: { id: string; roles: readonly string[] } | null | undefined): AuditActor {
  return { actorUserId: user?.id ?? null, actorRole: user ? user.roles.join(',') || null : null, remoteAddress: request.ip ?? null };
}

type DetailValue = AuditEntry['details'][string];

/** Details as the trail keeps them: strings, numbers, booleans and null (anything else as JSON), strings cut at 500. */
export function auditDetails(values: Record<string, unknown>): AuditEntry['details'] {
  const details: Record<string, DetailValue> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    let kept: DetailValue;
    if (value === null || typeof value === 'number' || typeof value === 'boolean') kept = value;
    else if (typeof value === 'bigint') kept = value.toString();
    else kept = (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, 500);
    details[key] = kept;
  }
  return details;
}

export interface OperatorAction {
  action: AuditAction;
  /** What it is done to: `market GAS-FWD`, `warranty W-1`, `client RO-HIDRO`… */
  subject: string;
  details?: Record<string, unknown>;
}

/**
 * Runs an operator action and keeps its entry (category 'operator'): outcome 'ok', or 'refused' with
 * the refusal's code and parameters (merged into the details) when `work` throws; the error is
 * rethrown either way. An unexpected failure is kept as refused with UNKNOWN_ERROR. Usage in a route:
 *
 *   const user = await administrator(request);
 *   return audited(audit, auditOf(request, user), { action: 'market.suspend', subject: `market ${id}` }, () => …);
 */
export async function audited<T>(audit: AuditRecorder, actor: AuditActor, what: OperatorAction, work: () => Promise<T>): Promise<T> {
  const base = { category: 'operator' as const, action: what.action, subject: what.subject.slice(0, 200), ...actor };
  let result: T;
  try {
    result = await work();
  } catch (error) {
    const refusal = error instanceof ExchangeError ? { code: error.code, params: error.params as Record<string, unknown> } : { code: 'UNKNOWN_ERROR' as const, params: {} };
    await audit.record({ ...base, outcome: 'refused', code: refusal.code, details: auditDetails({ ...what.details, ...refusal.params }) });
    throw error;
  }
  await audit.record({ ...base, outcome: 'ok', code: null, details: auditDetails(what.details ?? {}) });
  return result;
}
