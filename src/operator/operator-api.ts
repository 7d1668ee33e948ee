/**
 * The operator console's REST calls (issue 16) through the app's one HTTP client, as the signed-in
 * administrator: market suspend and resume (protocol/operator.ts), a phase change (the existing
 * POST /admin/markets/:marketId/phase), participant suspension (protocol/participants.ts) and the
 * audit trail (protocol/audit.ts): a page of entries, and the CSV of every matching entry, fetched
 * with the bearer token and saved from memory (as the clearing tabs' PDFs are).
 */
import { auditPageSchema, auditRoutes, type AuditPage, type AuditQuery } from '../../protocol/audit.ts';
import type { SessionPhase } from '../../protocol/enums.ts';
import { operatorRoutes } from '../../protocol/operator.ts';
import { participantChangeSchema, participantRoutes, participantSuspendSchema, type ParticipantChange, type ParticipantKind } from '../../protocol/participants.ts';
import type { AuditFilters } from '../../machines/audit-trail.machine.ts';
import type { DownloadedFile } from '../../streams/api.ts';
import { authedDownload, authedRequest, noBody } from '../api/http.ts';

const segment = encodeURIComponent;

/** POST /admin/markets/:marketId/suspend: the whole market stops (orders stay, nothing trades). */
export function suspendMarket(marketId: string): Promise<true> {
  return authedRequest(operatorRoutes.suspendMarket(segment(marketId)), noBody, { method: 'POST' });
}

/** POST /admin/markets/:marketId/resume: back to the phase the market was suspended in. */
export function resumeMarket(marketId: string): Promise<true> {
  return authedRequest(operatorRoutes.resumeMarket(segment(marketId)), noBody, { method: 'POST' });
}

/** POST /admin/markets/:marketId/phase: the market (or one asset of it) to `phase`. */
export function changePhase(marketId: string, phase: SessionPhase, assetId: string | null = null): Promise<true> {
  return authedRequest(`/admin/markets/${segment(marketId)}/phase`, noBody, { method: 'POST', body: { phase, assetId } });
}

const parseChange = (body: unknown): ParticipantChange | null => participantChangeSchema.safeParse(body).data ?? null;

/** POST /admin/participants/:kind/:id/suspend with the reason the operator typed (required). */
export async function suspendParticipant(kind: ParticipantKind, id: string, reason: string): Promise<ParticipantChange> {
  return authedRequest(participantRoutes.suspend(kind, segment(id)), parseChange, { method: 'POST', body: participantSuspendSchema.parse({ reason }) });
}

/** POST /admin/participants/:kind/:id/reinstate. */
export function reinstateParticipant(kind: ParticipantKind, id: string): Promise<ParticipantChange> {
  return authedRequest(participantRoutes.reinstate(kind, segment(id)), parseChange, { method: 'POST' });
}

/** The query string of the audit filters (empty ones left out), with paging when given. */
export function auditQueryString(filters: Partial<AuditQuery>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** GET /admin/audit: one page of the entries matching the filters, and how many match. */
export function fetchAudit(query: Partial<AuditQuery>, signal?: AbortSignal): Promise<AuditPage> {
  return authedRequest(`${auditRoutes.list}${auditQueryString(query)}`, (body) => auditPageSchema.safeParse(body).data ?? null, signal ? { signal } : {});
}

/** GET /admin/audit.csv with the same filters: every matching entry. */
export function downloadAuditCsv(filters: AuditFilters): Promise<DownloadedFile> {
  return authedDownload(`${auditRoutes.csv}${auditQueryString(filters)}`, 'text/csv');
}
