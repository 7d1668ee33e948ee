import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WhitelistRequestBody, WorkflowInstance } from '../../../protocol/workflows.ts';
import { WhitelistService } from '../../../server/workflows/whitelist.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { openWorkflowStore, type WorkflowStore } from '../../helpers/workflow-store.ts';

/**
 * The whitelist service on the runner and a real database: the four rules, the relation after each
 * transition (both directions), and exactly one engine call per relation change, in the transition.
 * RO-HIDRO is broker1's client (AG-NORD), RO-TERMO broker2's (AG-CARP).
 */
describe.each(testDatabases)('whitelist requests and relations on $name', (database) => {
  let w: WorkflowStore;
  let service: WhitelistService;
  let engine: Array<[string, string, boolean]>;
  let failEngine: boolean;

  // One store per database (opening one loads the demo exchange); each test starts with no workflow rows.
  beforeAll(async () => {
    w = await openWorkflowStore(database);
  });
  afterAll(async () => {
    await w.close();
  });
  beforeEach(async () => {
    for (const table of ['whitelist_relations', 'transaction_contract_files', 'workflow_events', 'workflow_requests', 'workflow_instances']) await w.store.db.query(`delete from ${table}`);
    engine = [];
    failEngine = false;
    const ledger = {
      async setWhitelistRelation(client: string, partner: string, active: boolean) {
        if (failEngine) throw new Error('engine away');
        engine.push([client, partner, active]);
      },
    };
    service = new WhitelistService(w.runner, { db: w.store.db, ledger, now: w.clock.now });
  });

  const allow: WhitelistRequestBody = { clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', type: 'ALLOW_TRADING' };
  const deny: WhitelistRequestBody = { clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', type: 'DENY_TRADING' };

  async function request(username: string, body: WhitelistRequestBody): Promise<WorkflowInstance> {
    w.clock.advance(1_000);
    return service.request(body, await w.actor(username));
  }
  async function act(instance: WorkflowInstance, action: string, username: string, reason?: string): Promise<WorkflowInstance> {
    w.clock.advance(1_000);
    return w.runner.act(instance.instanceId, action, await w.actor(username), { reason }, service.sideEffects(action));
  }
  async function relations(): Promise<string[]> {
    const rows = await w.store.db.query<{ client_code: string; partner_code: string; status: string }>(
      "select client_code, partner_code, status from whitelist_relations where client_code in ('RO-HIDRO', 'RO-TERMO') order by client_code, partner_code",
    );
    return rows.map((row) => `${row.client_code}>${row.partner_code} ${row.status}`);
  }
  async function refusal(promise: Promise<unknown>): Promise<{ code: string; params: unknown }> {
    const error = (await promise.then(
      () => null,
      (caught: unknown) => caught,
    )) as { code: string; params: unknown } | null;
    if (!error) throw new Error('expected a refusal');
    return { code: error.code, params: error.params };
  }

  it('ALLOW: PENDING both ways while it waits, ACTIVE once the partner approves; the engine hears each change once', async () => {
    const pending = await request('broker1', allow);
    expect(pending.status).toBe('PENDING');
    expect(pending.waitingOn).toBe('partner');
    expect(await relations()).toEqual(['RO-HIDRO>RO-TERMO PENDING', 'RO-TERMO>RO-HIDRO PENDING']);
    expect(engine).toEqual([['RO-HIDRO', 'RO-TERMO', false]]);

    const approved = await act(pending, 'approve', 'broker2');
    expect(approved.status).toBe('APPROVED');
    expect(await relations()).toEqual(['RO-HIDRO>RO-TERMO ACTIVE', 'RO-TERMO>RO-HIDRO ACTIVE']);
    expect(engine).toEqual([
      ['RO-HIDRO', 'RO-TERMO', false],
      ['RO-HIDRO', 'RO-TERMO', true],
    ]);

    const partners = await service.partners('RO-TERMO', await w.actor('broker2'));
    expect(partners).toEqual([
      { clientCode: 'RO-TERMO', partnerClientCode: 'RO-HIDRO', partnerName: expect.any(String), status: 'ACTIVE', requestId: pending.instanceId, updatedAt: approved.updatedAt },
    ]);
    expect(partners[0]!.partnerName).not.toBe('RO-HIDRO');
  });

  it('DENY: approved at once by the system in the creating transaction, the relation DISABLED', async () => {
    await act(await request('broker1', allow), 'approve', 'broker2');
    engine.length = 0;
    // The partner ends it: no consent needed.
    const denied = await request('broker2', { clientCode: 'RO-TERMO', partnerClientCode: 'RO-HIDRO', type: 'DENY_TRADING' });
    expect(denied.status).toBe('APPROVED');
    expect(denied.waitingOn).toBe('none');
    expect(denied.history.map((event) => [event.action, event.actorRole, event.fromStatus, event.toStatus])).toEqual([
      ['create', 'broker', null, 'PENDING'],
      ['approveAtOnce', 'system', 'PENDING', 'APPROVED'],
    ]);
    expect(await relations()).toEqual(['RO-HIDRO>RO-TERMO DISABLED', 'RO-TERMO>RO-HIDRO DISABLED']);
    expect(engine).toEqual([['RO-TERMO', 'RO-HIDRO', false]]);
  });

  it('ALLOW rejected or cancelled: back to no relation when they never were partners', async () => {
    const first = await request('broker1', allow);
    const rejected = await act(first, 'reject', 'broker2', 'no credit line');
    expect(rejected.status).toBe('REJECTED');
    expect(rejected.reason).toEqual({ text: 'no credit line', code: null, params: {} });
    expect(await relations()).toEqual([]);

    const second = await request('client1', allow);
    expect(await relations()).toEqual(['RO-HIDRO>RO-TERMO PENDING', 'RO-TERMO>RO-HIDRO PENDING']);
    expect((await act(second, 'cancel', 'broker1')).status).toBe('CANCELLED');
    expect(await relations()).toEqual([]);
    expect(engine.map(([, , active]) => active)).toEqual([false, false, false, false]);
    expect(engine).toHaveLength(4);
  });

  it('ALLOW rejected or cancelled after a DENY: back to DISABLED', async () => {
    await act(await request('broker1', allow), 'approve', 'broker2');
    await request('broker1', deny);
    const again = await request('broker1', allow);
    expect(await relations()).toEqual(['RO-HIDRO>RO-TERMO PENDING', 'RO-TERMO>RO-HIDRO PENDING']);
    await act(again, 'reject', 'broker2', 'not now');
    expect(await relations()).toEqual(['RO-HIDRO>RO-TERMO DISABLED', 'RO-TERMO>RO-HIDRO DISABLED']);
    const third = await request('broker1', allow);
    await act(third, 'cancel', 'client1');
    expect(await relations()).toEqual(['RO-HIDRO>RO-TERMO DISABLED', 'RO-TERMO>RO-HIDRO DISABLED']);
    // and an approval makes them partners again
    await act(await request('broker1', allow), 'approve', 'broker2');
    expect(await relations()).toEqual(['RO-HIDRO>RO-TERMO ACTIVE', 'RO-TERMO>RO-HIDRO ACTIVE']);
  });

  describe('the four rules, each refusal changing nothing', () => {
    async function unchanged<T>(work: () => Promise<T>): Promise<T> {
      const before = { relations: await relations(), engine: engine.length, count: await w.store.db.query('select count(*)::int as n from workflow_instances') };
      const result = await work();
      expect(await relations()).toEqual(before.relations);
      expect(engine).toHaveLength(before.engine);
      expect(await w.store.db.query('select count(*)::int as n from workflow_instances')).toEqual(before.count);
      return result;
    }

    it('one pending request per partner, in either direction', async () => {
      await request('broker1', allow);
      expect(await unchanged(() => refusal(request('broker1', allow)))).toEqual({ code: 'WHITELIST_PENDING_EXISTS', params: { partner: 'RO-TERMO' } });
      expect(await unchanged(() => refusal(request('broker2', { clientCode: 'RO-TERMO', partnerClientCode: 'RO-HIDRO', type: 'ALLOW_TRADING' })))).toEqual({
        code: 'WHITELIST_PENDING_EXISTS',
        params: { partner: 'RO-HIDRO' },
      });
    });

    it('no ALLOW for an ACTIVE partner', async () => {
      await act(await request('broker1', allow), 'approve', 'broker2');
      expect(await unchanged(() => refusal(request('client1', allow)))).toEqual({ code: 'WHITELIST_PARTNER_EXISTS', params: { partner: 'RO-TERMO' } });
    });

    it('no DENY for a non-partner: none, PENDING or DISABLED', async () => {
      expect(await unchanged(() => refusal(request('broker1', deny)))).toEqual({ code: 'WHITELIST_NOT_PARTNER', params: { partner: 'RO-TERMO' } });
      await act(await request('broker1', allow), 'approve', 'broker2');
      await request('broker1', deny);
      expect(await unchanged(() => refusal(request('broker2', { clientCode: 'RO-TERMO', partnerClientCode: 'RO-HIDRO', type: 'DENY_TRADING' })))).toEqual({
        code: 'WHITELIST_NOT_PARTNER',
        params: { partner: 'RO-HIDRO' },
      });
    });

    it('not the same as the latest approved request between the two (a relation changed another way)', async () => {
      await act(await request('broker1', allow), 'approve', 'broker2');
      // Someone disabled the relation by hand: the latest approved request is still an ALLOW.
      await w.store.db.query("update whitelist_relations set status = 'DISABLED' where client_code in ('RO-HIDRO', 'RO-TERMO')");
      expect(await unchanged(() => refusal(request('broker2', { clientCode: 'RO-TERMO', partnerClientCode: 'RO-HIDRO', type: 'ALLOW_TRADING' })))).toEqual({
        code: 'WHITELIST_SAME_AS_LATEST',
        params: { partner: 'RO-HIDRO' },
      });
    });

    it('acts only for its own client, toward another existing client', async () => {
      expect(await unchanged(() => refusal(request('broker2', allow)))).toEqual({ code: 'ACCOUNT_CLIENT_FORBIDDEN', params: { clientCode: 'RO-HIDRO' } });
      expect(await unchanged(() => refusal(request('terminal1', { ...allow, clientCode: 'RO-GAZEST' })))).toEqual({ code: 'ACCOUNT_CLIENT_FORBIDDEN', params: { clientCode: 'RO-GAZEST' } });
      expect(await unchanged(() => refusal(request('admin', allow)))).toEqual({ code: 'ACCOUNT_CLIENT_FORBIDDEN', params: { clientCode: 'RO-HIDRO' } });
      expect(await unchanged(() => refusal(request('broker1', { ...allow, partnerClientCode: 'RO-HIDRO' })))).toEqual({ code: 'WHITELIST_SELF', params: { partner: 'RO-HIDRO' } });
      expect(await unchanged(() => refusal(request('broker1', { ...allow, partnerClientCode: 'RO-NOBODY' })))).toEqual({ code: 'CLEARING_CLIENT_NOT_FOUND', params: { clientCode: 'RO-NOBODY' } });
    });
  });

  it('two requests of one pair at once, one each way: one is made, the other WHITELIST_PENDING_EXISTS', async () => {
    const [a, b] = await Promise.allSettled([request('broker1', allow), request('broker2', { clientCode: 'RO-TERMO', partnerClientCode: 'RO-HIDRO', type: 'ALLOW_TRADING' })]);
    const outcomes = [a, b].map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.status : (outcome.reason as { code: string }).code)).sort();
    expect(outcomes).toEqual(['PENDING', 'WHITELIST_PENDING_EXISTS']);
    expect(await relations()).toEqual(['RO-HIDRO>RO-TERMO PENDING', 'RO-TERMO>RO-HIDRO PENDING']);
    expect(engine).toHaveLength(1);
  });

  it('an engine that fails rolls the transition back: the request still waits, the relation as it was', async () => {
    const pending = await request('broker1', allow);
    failEngine = true;
    await expect(act(pending, 'approve', 'broker2')).rejects.toThrow('engine away');
    expect((await w.runner.get(pending.instanceId, await w.actor('broker2'))).status).toBe('PENDING');
    expect(await relations()).toEqual(['RO-HIDRO>RO-TERMO PENDING', 'RO-TERMO>RO-HIDRO PENDING']);
    failEngine = false;
    expect((await act(pending, 'approve', 'broker2')).status).toBe('APPROVED');
    expect(engine).toEqual([
      ['RO-HIDRO', 'RO-TERMO', false],
      ['RO-HIDRO', 'RO-TERMO', true],
    ]);
  });

  it('lists partners to the users holding the client and the administrator only', async () => {
    await act(await request('broker1', allow), 'approve', 'broker2');
    expect((await service.partners('RO-HIDRO', await w.actor('client1'))).map((relation) => [relation.partnerClientCode, relation.status])).toEqual([['RO-TERMO', 'ACTIVE']]);
    expect((await service.partners('RO-TERMO', await w.actor('admin'))).map((relation) => relation.partnerClientCode)).toEqual(['RO-HIDRO']);
    expect(await refusal(service.partners('RO-HIDRO', await w.actor('broker2')))).toEqual({ code: 'ACCOUNT_CLIENT_FORBIDDEN', params: { clientCode: 'RO-HIDRO' } });
    expect(await refusal(service.partners('RO-NOBODY', await w.actor('broker2')))).toEqual({ code: 'ACCOUNT_CLIENT_FORBIDDEN', params: { clientCode: 'RO-NOBODY' } });
    expect(await refusal(service.partners('RO-NOBODY', await w.actor('admin')))).toEqual({ code: 'CLEARING_CLIENT_NOT_FOUND', params: { clientCode: 'RO-NOBODY' } });
    expect(await service.partners('RO-GAZEST', await w.actor('terminal1'))).toEqual([]);
    // Without a client: every client of the user; the administrator sees all.
    expect((await service.partners(undefined, await w.actor('broker1'))).map((relation) => `${relation.clientCode}>${relation.partnerClientCode}`)).toEqual(['RO-HIDRO>RO-TERMO']);
    expect((await service.partners(undefined, await w.actor('broker2'))).map((relation) => `${relation.clientCode}>${relation.partnerClientCode}`)).toEqual(['RO-TERMO>RO-HIDRO']);
    expect(await service.partners(undefined, await w.actor('sim-nord'))).toEqual([]);
    expect((await service.partners(undefined, await w.actor('admin'))).map((relation) => relation.clientCode).sort()).toEqual(['RO-HIDRO', 'RO-TERMO']);
  });
});
