/**
 * The operator console's test data, each checked with the contract's schema (protocol/operator.ts,
 * audit.ts, participants.ts): two markets (one trading with a scheduled close, one suspended with an
 * asset apart), participants, health figures and audit entries; and a fetch stub that records calls.
 */
import { vi } from 'vitest';
import { auditEntrySchema, type AuditEntry } from '../../../protocol/audit.ts';
import { operatorSnapshotSchema, type OperatorSnapshot } from '../../../protocol/operator.ts';
import { participantSchema, type Participant } from '../../../protocol/participants.ts';

export const participant = (partial: Partial<Participant> = {}): Participant =>
  participantSchema.parse({ kind: 'client', id: 'RO-HIDRO', name: 'Hidroelectrica SA', suspended: false, suspendedAt: null, suspendedBy: null, reason: null, ...partial });

export const participants: Participant[] = [
  participant(),
  participant({ id: 'RO-TERMO', name: 'Termo SA', suspended: true, suspendedAt: '2026-11-27T08:30:00.000Z', suspendedBy: 'U-admin', reason: 'Garanții expirate' }),
  participant({ kind: 'broker', id: 'U-broker1', name: 'Broker Unu' }),
];

export function snapshot(partial: Partial<OperatorSnapshot> = {}): OperatorSnapshot {
  return operatorSnapshotSchema.parse({
    at: '2026-11-27T10:00:00.000Z',
    markets: [
      {
        marketId: 'GAS-SPOT',
        name: 'Gas spot',
        phase: 'trading',
        sessionDate: '2026-11-27',
        since: '2026-11-27T07:00:00.000Z',
        nextPhase: 'closing',
        nextPhaseAt: '2099-11-27T15:00:00.000Z',
        assets: [
          { assetId: 'GSPOT-DA', name: 'Gas day ahead', phase: 'trading' },
          { assetId: 'GSPOT-WD', name: 'Gas within day', phase: 'trading' },
        ],
      },
      {
        marketId: 'EL-SPOT',
        name: 'Electricity spot',
        phase: 'suspended',
        sessionDate: '2026-11-27',
        since: '2026-11-27T09:45:00.000Z',
        nextPhase: null,
        nextPhaseAt: null,
        assets: [
          { assetId: 'ELSPOT-DA', name: 'Electricity day ahead', phase: 'suspended' },
          { assetId: 'ELSPOT-H7', name: 'Electricity hour 7', phase: 'closed' },
        ],
      },
    ],
    participants,
    connectedUsers: [
      { userId: 'U-broker1', name: 'Broker Unu', roles: ['broker'], sessions: 2, subscriptions: 1234, since: '2026-11-27T07:05:00.000Z' },
      { userId: 'U-admin', name: 'Admin', roles: ['administrator'], sessions: 1, subscriptions: 3, since: '2026-11-27T09:00:00.000Z' },
    ],
    gateway: { connections: 1520, subscriptions: 48210, slowConsumersDropped: 3, messagesPerSecond: 12345.67 },
    engine: { ordersPerSecond: 1050.5, journalSyncP99Ms: 2.75, journalLastSeq: 1234567, readModelBehindBy: 12, lastSnapshotAt: '2026-11-27T09:00:00.000Z', lastSnapshotSeq: 1200000 },
    clearing: {
      lastRuns: [{ marketId: 'GAS-FWD', sessionDate: '2026-11-26', status: 'completed', finishedAt: '2026-11-26T16:05:00.000Z' }],
      openMarginCalls: [{ clientCode: 'RO-TERMO', amount: 1_234_567_89, currency: 'RON' }],
    },
    ...partial,
  });
}

export const auditEntry = (partial: Partial<AuditEntry> = {}): AuditEntry =>
  auditEntrySchema.parse({
    id: 1,
    at: '2026-11-27T09:45:00.000Z',
    category: 'operator',
    action: 'market.suspend',
    actorUserId: 'U-admin',
    actorRole: 'administrator',
    subject: 'EL-SPOT',
    outcome: 'ok',
    code: null,
    remoteAddress: '10.0.0.5',
    details: { phase: 'trading' },
    ...partial,
  });

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

export type Answer = { status?: number; body?: unknown; text?: string; contentType?: string };

/** A fetch stub: each call recorded; answered by `route(call)` (404 NOT_FOUND when it says nothing). */
export function stubFetch(route: (call: Call) => Answer | undefined) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const parsed = new URL(url, 'http://localhost');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: parsed.pathname.replace('/session/api', ''),
      query: parsed.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: (init?.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const answer = route(call) ?? { status: 404, body: { error: { code: 'NOT_FOUND', params: {} } } };
    const status = answer.status ?? 200;
    if (answer.text !== undefined) return new Response(answer.text, { status, headers: { 'Content-Type': answer.contentType ?? 'text/csv; charset=utf-8' } });
    return new Response(status === 204 ? null : JSON.stringify(answer.body ?? {}), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

export const refusal = (status: number, code: string, params: Record<string, string | number>): Answer => ({ status, body: { error: { code, params } } });
