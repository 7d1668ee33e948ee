import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whitelistRelationListSchema, workflowInstanceSchema } from '../../../protocol/workflows.ts';
import { MemoryLedger } from '../../helpers/memory-ledger.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';
import { signInWorkflowPrincipals, workflowPrincipals, type Cell, type WorkflowPrincipal } from '../../helpers/workflow-principals.ts';

/**
 * The whitelist routes over HTTP on the real server, with the engine port in memory: a request, the
 * partner's answer through the generic action route, the partners list after each transition, and the
 * role matrix of every action. The requests are RO-HIDRO's (the participant's, the client's, the
 * terminal's) to RO-TERMO (the counterparty's).
 */
const allow = { clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', type: 'ALLOW_TRADING' };

const matrix: Record<'request' | 'approve' | 'reject' | 'cancel' | 'partners', Record<WorkflowPrincipal, Cell>> = {
  request: {
    participant: [201],
    counterparty: [403, 'ACCOUNT_CLIENT_FORBIDDEN'],
    sameAgencyBroker: [403, 'ACCOUNT_CLIENT_FORBIDDEN'],
    otherAgencyBroker: [403, 'ACCOUNT_CLIENT_FORBIDDEN'],
    client: [201],
    terminal: [403, 'ACCOUNT_CLIENT_FORBIDDEN'],
    administrator: [403, 'ACCOUNT_CLIENT_FORBIDDEN'],
  },
  approve: {
    participant: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    counterparty: [200],
    sameAgencyBroker: [404, 'WORKFLOW_NOT_FOUND'],
    otherAgencyBroker: [404, 'WORKFLOW_NOT_FOUND'],
    client: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    terminal: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    administrator: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
  },
  reject: {
    participant: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    counterparty: [200],
    sameAgencyBroker: [404, 'WORKFLOW_NOT_FOUND'],
    otherAgencyBroker: [404, 'WORKFLOW_NOT_FOUND'],
    client: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    terminal: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    administrator: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
  },
  cancel: {
    participant: [200],
    counterparty: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    sameAgencyBroker: [404, 'WORKFLOW_NOT_FOUND'],
    otherAgencyBroker: [404, 'WORKFLOW_NOT_FOUND'],
    client: [200],
    terminal: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    administrator: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
  },
  // GET /whitelist/partners?clientCode=RO-HIDRO
  partners: {
    participant: [200],
    counterparty: [403, 'ACCOUNT_CLIENT_FORBIDDEN'],
    sameAgencyBroker: [403, 'ACCOUNT_CLIENT_FORBIDDEN'],
    otherAgencyBroker: [403, 'ACCOUNT_CLIENT_FORBIDDEN'],
    client: [200],
    terminal: [200],
    administrator: [200],
  },
};

describe.each(testDatabases)('whitelist routes on $name', (database) => {
  let t: TestServer;
  let drop: () => Promise<void>;
  let ledger: MemoryLedger;
  let tokens: Record<WorkflowPrincipal, string>;

  beforeAll(async () => {
    const target = await database.create();
    drop = target.drop;
    ledger = new MemoryLedger();
    t = await startTestServer({ dataDir: target.dataDir, databaseUrl: target.databaseUrl, workflowLedger: () => ledger });
    tokens = await signInWorkflowPrincipals(t);
  });
  afterAll(async () => {
    await t.server.close();
    await drop();
  });

  /** Each case starts with no whitelist request or relation. */
  async function reset(): Promise<void> {
    await t.server.store.db.query('delete from whitelist_relations');
    await t.server.store.db.query("delete from workflow_events where instance_id in (select id from workflow_instances where kind = 'whitelist')");
    await t.server.store.db.query("delete from workflow_instances where kind = 'whitelist'");
    ledger.calls.length = 0;
  }
  const request = (principal: WorkflowPrincipal, body: object) => t.post('/workflows/whitelist', body, tokens[principal]);
  const act = (principal: WorkflowPrincipal, instanceId: string, action: string, reason?: string) =>
    t.post(`/workflows/${instanceId}/actions`, { action, ...(reason ? { reason } : {}) }, tokens[principal]);
  async function partners(principal: WorkflowPrincipal, clientCode = 'RO-HIDRO') {
    return t.get(`/whitelist/partners?clientCode=${clientCode}`, tokens[principal]);
  }
  const statusWith = async (principal: WorkflowPrincipal, clientCode: string) =>
    ((await partners(principal, clientCode)).body.relations as Array<{ partnerClientCode: string; status: string }>).map((relation) => `${relation.partnerClientCode} ${relation.status}`);
  const engineCalls = () => ledger.calls.map((call) => (call.method === 'setWhitelistRelation' ? `${call.clientCode}>${call.partnerCode} ${call.active}` : call.method));

  it('ALLOW → PENDING → approved ACTIVE → DENY at once DISABLED → ALLOW rejected stays DISABLED; the engine hears each change once', async () => {
    await reset();
    const created = await request('participant', allow);
    expect(created.status).toBe(201);
    expect(workflowInstanceSchema.safeParse(created.body).error).toBeUndefined();
    expect(created.body).toMatchObject({ kind: 'whitelist', status: 'PENDING', waitingOn: 'partner', data: { type: 'ALLOW_TRADING' }, initiatorClient: 'RO-HIDRO', partnerClient: 'RO-TERMO' });
    expect(await statusWith('participant', 'RO-HIDRO')).toEqual(['RO-TERMO PENDING']);
    expect(await statusWith('counterparty', 'RO-TERMO')).toEqual(['RO-HIDRO PENDING']);

    expect((await act('counterparty', created.body.instanceId, 'approve')).body).toMatchObject({ status: 'APPROVED', waitingOn: 'none' });
    expect(await statusWith('client', 'RO-HIDRO')).toEqual(['RO-TERMO ACTIVE']);
    expect(await statusWith('counterparty', 'RO-TERMO')).toEqual(['RO-HIDRO ACTIVE']);

    const denied = await request('counterparty', { clientCode: 'RO-TERMO', partnerClientCode: 'RO-HIDRO', type: 'DENY_TRADING' });
    expect(denied.status).toBe(201);
    expect(denied.body).toMatchObject({ status: 'APPROVED', waitingOn: 'none' });
    expect(denied.body.history.map((event: { action: string; actorRole: string }) => `${event.action} ${event.actorRole}`)).toEqual(['create broker', 'approveAtOnce system']);
    expect(await statusWith('participant', 'RO-HIDRO')).toEqual(['RO-TERMO DISABLED']);

    const again = await request('client', allow);
    expect(await statusWith('participant', 'RO-HIDRO')).toEqual(['RO-TERMO PENDING']);
    expect((await act('counterparty', again.body.instanceId, 'reject', 'not this month')).body).toMatchObject({ status: 'REJECTED', reason: { text: 'not this month' } });
    expect(await statusWith('participant', 'RO-HIDRO')).toEqual(['RO-TERMO DISABLED']);

    expect(engineCalls()).toEqual([
      'RO-HIDRO>RO-TERMO false',
      'RO-HIDRO>RO-TERMO true',
      'RO-TERMO>RO-HIDRO false',
      'RO-HIDRO>RO-TERMO false',
      'RO-HIDRO>RO-TERMO false',
    ]);
  });

  it('the four rules over HTTP, each with its code and partner, and the request checks before them', async () => {
    await reset();
    const first = await request('participant', allow);
    expect((await request('participant', allow)).body).toEqual({ error: { code: 'WHITELIST_PENDING_EXISTS', params: { partner: 'RO-TERMO' } } });
    await act('counterparty', first.body.instanceId, 'approve');
    expect((await request('client', allow)).body).toEqual({ error: { code: 'WHITELIST_PARTNER_EXISTS', params: { partner: 'RO-TERMO' } } });
    expect((await request('participant', { ...allow, partnerClientCode: 'RO-INDUS', type: 'DENY_TRADING' })).body).toEqual({
      error: { code: 'WHITELIST_NOT_PARTNER', params: { partner: 'RO-INDUS' } },
    });
    await t.server.store.db.query("update whitelist_relations set status = 'DISABLED'");
    expect((await request('participant', allow)).body).toEqual({ error: { code: 'WHITELIST_SAME_AS_LATEST', params: { partner: 'RO-TERMO' } } });
    expect((await request('participant', { ...allow, partnerClientCode: 'RO-HIDRO' })).body).toEqual({ error: { code: 'WHITELIST_SELF', params: { partner: 'RO-HIDRO' } } });
    expect((await request('participant', { ...allow, partnerClientCode: 'RO-NOBODY' })).body).toEqual({ error: { code: 'CLEARING_CLIENT_NOT_FOUND', params: { clientCode: 'RO-NOBODY' } } });
    expect((await request('participant', { ...allow, type: 'MAYBE' })).body.error.code).toBe('REQUEST_INVALID');
    // only the first ALLOW and its approval reached the engine
    expect(engineCalls()).toEqual(['RO-HIDRO>RO-TERMO false', 'RO-HIDRO>RO-TERMO true']);
  });

  it('an Idempotency-Key: a retried request is one request', async () => {
    await reset();
    const headers = { authorization: `Bearer ${tokens.participant}`, 'content-type': 'application/json', 'idempotency-key': 'wl-1' };
    const send = () => fetch(`${t.api}/workflows/whitelist`, { method: 'POST', headers, body: JSON.stringify(allow) }).then(async (response) => ({ status: response.status, body: await response.json() }));
    const first = await send();
    const second = await send();
    expect(second.body.instanceId).toBe(first.body.instanceId);
    expect(engineCalls()).toHaveLength(1);
  });

  describe('every action × every role', () => {
    for (const principal of workflowPrincipals) {
      it(`request by the ${principal}`, async () => {
        await reset();
        const answer = await request(principal, allow);
        const cell = matrix.request[principal];
        expect(answer.status).toBe(cell[0]);
        if (cell[1]) expect(answer.body.error.code).toBe(cell[1]);
        expect(await statusWith('administrator', 'RO-HIDRO')).toEqual(answer.status === 201 ? ['RO-TERMO PENDING'] : []);
      });

      for (const action of ['approve', 'reject', 'cancel'] as const) {
        it(`${action} by the ${principal}`, async () => {
          await reset();
          const pending = await request('participant', allow);
          const answer = await act(principal, pending.body.instanceId, action, action === 'reject' ? 'no' : undefined);
          const cell = matrix[action][principal];
          expect(answer.status).toBe(cell[0]);
          if (cell[1]) expect(answer.body.error.code).toBe(cell[1]);
          const expected = answer.status !== 200 ? ['RO-TERMO PENDING'] : action === 'approve' ? ['RO-TERMO ACTIVE'] : [];
          expect(await statusWith('administrator', 'RO-HIDRO')).toEqual(expected);
        });
      }

      it(`partners list by the ${principal}`, async () => {
        await reset();
        await request('participant', allow);
        const answer = await partners(principal);
        const cell = matrix.partners[principal];
        expect(answer.status).toBe(cell[0]);
        if (cell[1]) expect(answer.body.error.code).toBe(cell[1]);
        else {
          expect(answer.body.relations).toEqual([expect.objectContaining({ clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', status: 'PENDING' })]);
          expect(whitelistRelationListSchema.safeParse(answer.body).success).toBe(true);
        }
      });
    }
  });
});
