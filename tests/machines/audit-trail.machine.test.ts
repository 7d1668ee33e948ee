/** The audit tab's machine: filters (back to the first page), paging, page size, refresh; an older load never overwrites a newer one; refusals kept. */
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { auditRange, auditTrailMachine, auditTrailMachineWith } from '../../machines/audit-trail.machine.ts';
import type { AuditEntry, AuditPage, AuditQuery } from '../../protocol/audit.ts';
import { ApiCallError } from '../../streams/api.ts';
import { coverMachine } from './coverage.ts';

const entry = (id: number): AuditEntry => ({
  id,
  at: '2026-11-27T09:45:00.000Z',
  category: 'operator',
  action: 'market.suspend',
  actorUserId: 'U-admin',
  actorRole: 'administrator',
  subject: 'GAS-SPOT',
  outcome: 'ok',
  code: null,
  remoteAddress: null,
  details: {},
});
const page = (ids: number[], total: number): AuditPage => ({ items: ids.map(entry), total });

/** A load whose answers the test hands out by hand, in any order. */
function manualLoad() {
  const pending: Array<{ query: Partial<AuditQuery>; resolve: (page: AuditPage) => void; reject: (error: unknown) => void }> = [];
  const load = (query: Partial<AuditQuery>) => new Promise<AuditPage>((resolve, reject) => pending.push({ query, resolve, reject }));
  return { load, pending };
}

describe('auditTrailMachine', () => {
  it('reaches every state and every transition', () => {
    const report = coverMachine(auditTrailMachine, {
      samples: {
        FILTER: [{ type: 'FILTER', filters: { category: 'security' } }],
        PAGE: [{ type: 'PAGE', offset: 25 }],
        PAGE_SIZE: [{ type: 'PAGE_SIZE', limit: 50 }],
        REFRESH: [{ type: 'REFRESH' }],
        'xstate.done.actor.loadAudit': [{ type: 'xstate.done.actor.loadAudit', output: page([1], 1) }],
        'xstate.error.actor.loadAudit': [{ type: 'xstate.error.actor.loadAudit', error: new ApiCallError('FORBIDDEN', { scope: 'admin' }, 403) }],
      },
    });
    expect(report.statesCovered).toEqual(report.states);
    expect(report.transitionsCovered).toEqual(report.transitions);
  });

  it('loads the first page, pages on, and goes back to the first page on a filter (empty filters dropped)', async () => {
    const { load, pending } = manualLoad();
    const actor = createActor(auditTrailMachineWith(load), { input: { limit: 25 } }).start();
    expect(pending[0]!.query).toEqual({ offset: 0, limit: 25 });
    pending[0]!.resolve(page([60, 59], 60));
    await waitFor(actor, (s) => s.matches('ready'));
    expect(auditRange(actor.getSnapshot().context)).toEqual({ from: 1, to: 2, count: 60 });

    actor.send({ type: 'PAGE', offset: 25 });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(pending[1]!.query).toEqual({ offset: 25, limit: 25 });
    pending[1]!.resolve(page([35, 34], 60));
    await waitFor(actor, (s) => s.matches('ready'));
    expect(auditRange(actor.getSnapshot().context)).toEqual({ from: 26, to: 27, count: 60 });

    actor.send({ type: 'FILTER', filters: { category: 'security', q: '', action: undefined } });
    expect(pending[2]!.query).toEqual({ category: 'security', offset: 0, limit: 25 });
    actor.send({ type: 'PAGE_SIZE', limit: 100 });
    expect(pending[3]!.query).toEqual({ category: 'security', offset: 0, limit: 100 });
    // The older answer comes last: it is dropped, the newer one stays.
    pending[3]!.resolve(page([7], 1));
    await waitFor(actor, (s) => s.matches('ready'));
    pending[2]!.resolve(page([1, 2, 3], 3));
    await Promise.resolve();
    expect(actor.getSnapshot().context.items.map((item) => item.id)).toEqual([7]);

    actor.send({ type: 'REFRESH' });
    expect(pending[4]!.query).toEqual({ category: 'security', offset: 0, limit: 100 });
    actor.stop();
  });

  it('keeps a refusal, and loads again on REFRESH', async () => {
    const { load, pending } = manualLoad();
    const actor = createActor(auditTrailMachineWith(load), { input: {} }).start();
    pending[0]!.reject(new ApiCallError('FORBIDDEN', { scope: 'admin' }, 403));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toMatchObject({ code: 'FORBIDDEN', params: { scope: 'admin' } });
    actor.send({ type: 'REFRESH' });
    pending[1]!.resolve(page([], 0));
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(auditRange(actor.getSnapshot().context)).toEqual({ from: 0, to: 0, count: 0 });
  });
});
