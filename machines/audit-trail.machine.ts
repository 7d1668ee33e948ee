/**
 * The operator console's audit tab (issue 16): the filters, the page shown and its load. A filter
 * change goes back to the first page and loads again; a page change loads that page; a load still
 * running when another starts is dropped (its invoke is stopped), so the table never shows an older
 * answer over a newer one. The audit is not pushed: REFRESH loads the same page again.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { AuditEntry, AuditPage, AuditQuery } from '../protocol/audit.ts';
import { toClientError, type ClientError } from '../streams/api.ts';

export type AuditFilters = Omit<AuditQuery, 'offset' | 'limit'>;

export const AUDIT_PAGE_SIZES = [25, 50, 100] as const;

export interface AuditTrailContext {
  filters: AuditFilters;
  offset: number;
  limit: number;
  items: readonly AuditEntry[];
  total: number;
  error: ClientError | null;
}

export type AuditTrailEvent =
  | { type: 'FILTER'; filters: AuditFilters }
  | { type: 'PAGE'; offset: number }
  | { type: 'PAGE_SIZE'; limit: number }
  | { type: 'REFRESH' };

const loadAudit = fromPromise<AuditPage, Partial<AuditQuery>>(async () => {
  throw new Error('loadAudit actor not provided: use auditTrailMachineWith()');
});

/** Drops empty filters so the query (and the CSV link) carries only what the operator chose. */
function cleanFilters(filters: AuditFilters): AuditFilters {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined && value !== '')) as AuditFilters;
}

export const auditTrailMachine = setup({
  types: {
    context: {} as AuditTrailContext,
    events: {} as AuditTrailEvent,
    input: {} as { limit?: number } | undefined,
  },
  actors: { loadAudit },
  actions: {
    setFilters: assign((_, params: { filters: AuditFilters }) => ({ filters: cleanFilters(params.filters), offset: 0 })),
    setOffset: assign(({ context }, params: { offset: number }) => ({ offset: Math.max(0, Math.min(params.offset, Math.max(0, context.total - 1))) })),
    setLimit: assign((_, params: { limit: number }) => ({ limit: params.limit, offset: 0 })),
    keepPage: assign((_, params: { page: AuditPage }) => ({ items: params.page.items, total: params.page.total, error: null })),
    keepError: assign((_, params: { error: unknown }) => ({ error: toClientError(params.error) })),
  },
}).createMachine({
  id: 'auditTrail',
  context: ({ input }) => ({ filters: {}, offset: 0, limit: input?.limit ?? AUDIT_PAGE_SIZES[0], items: [], total: 0, error: null }),
  initial: 'loading',
  on: {
    FILTER: { target: '.loading', reenter: true, actions: { type: 'setFilters', params: ({ event }) => ({ filters: event.filters }) } },
    PAGE: { target: '.loading', reenter: true, actions: { type: 'setOffset', params: ({ event }) => ({ offset: event.offset }) } },
    PAGE_SIZE: { target: '.loading', reenter: true, actions: { type: 'setLimit', params: ({ event }) => ({ limit: event.limit }) } },
    REFRESH: { target: '.loading', reenter: true },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadAudit',
        src: 'loadAudit',
        input: ({ context }) => ({ ...context.filters, offset: context.offset, limit: context.limit }),
        onDone: { target: 'ready', actions: { type: 'keepPage', params: ({ event }) => ({ page: event.output }) } },
        onError: { target: 'failed', actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: {},
    failed: {},
  },
});

/** The machine with its load (the app's GET /admin/audit, or a test's). */
export function auditTrailMachineWith(load: (query: Partial<AuditQuery>) => Promise<AuditPage>) {
  return auditTrailMachine.provide({ actors: { loadAudit: fromPromise(({ input }: { input: Partial<AuditQuery> }) => load(input)) } });
}

/** The footer's 'a-b of c' (1-based, 0-0 of 0 when empty). */
export function auditRange(context: Pick<AuditTrailContext, 'offset' | 'items' | 'total'>): { from: number; to: number; count: number } {
  if (context.items.length === 0) return { from: 0, to: 0, count: context.total };
  return { from: context.offset + 1, to: context.offset + context.items.length, count: context.total };
}
