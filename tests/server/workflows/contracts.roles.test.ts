import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../protocol/market-data.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';
import { signInWorkflowPrincipals, workflowPrincipals, type Cell, type WorkflowPrincipal } from '../../helpers/workflow-principals.ts';

/**
 * The role matrix of the contract workflow: every action (upload, accept, approve, reject, download)
 * for every role, each cell on a contract of its own in the state the action is offered in, over the
 * real server. A refusal must leave the contract as it was. The transaction is RO-HIDRO (the
 * participant's, the client's and the terminal's client) buying from RO-TERMO (the counterparty's).
 */
const matrix: Record<'upload' | 'accept' | 'approve' | 'reject' | 'download', Record<WorkflowPrincipal, Cell>> = {
  upload: {
    participant: [201],
    counterparty: [201],
    sameAgencyBroker: [404, 'CONTRACT_TRANSACTION_NOT_FOUND'],
    otherAgencyBroker: [404, 'CONTRACT_TRANSACTION_NOT_FOUND'],
    client: [201],
    terminal: [403, 'CONTRACT_NOT_PARTICIPANT'],
    administrator: [403, 'CONTRACT_NOT_PARTICIPANT'],
  },
  // after the participant's upload
  accept: {
    participant: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    counterparty: [200],
    sameAgencyBroker: [404, 'WORKFLOW_NOT_FOUND'],
    otherAgencyBroker: [404, 'WORKFLOW_NOT_FOUND'],
    client: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    terminal: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    administrator: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
  },
  // after the counterparty's acceptance
  approve: {
    participant: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    counterparty: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    sameAgencyBroker: [404, 'WORKFLOW_NOT_FOUND'],
    otherAgencyBroker: [404, 'WORKFLOW_NOT_FOUND'],
    client: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    terminal: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    administrator: [200],
  },
  // after the participant's upload, with a reason
  reject: {
    participant: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    counterparty: [200],
    sameAgencyBroker: [404, 'WORKFLOW_NOT_FOUND'],
    otherAgencyBroker: [404, 'WORKFLOW_NOT_FOUND'],
    client: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    terminal: [409, 'WORKFLOW_ACTION_NOT_ALLOWED'],
    administrator: [200],
  },
  download: {
    participant: [200],
    counterparty: [200],
    sameAgencyBroker: [404, 'WORKFLOW_NOT_FOUND'],
    otherAgencyBroker: [404, 'WORKFLOW_NOT_FOUND'],
    client: [200],
    terminal: [200],
    administrator: [200],
  },
};

function transaction(transactionId: string): Transaction {
  const timestamp = '2026-11-22T10:00:00.000Z';
  return {
    transactionId,
    assetId: 'GSPOT-DA',
    price: 12_345,
    qty: 10_000,
    noCnt: 10,
    aggressor: 'bid',
    txDate: '2026-11-22',
    timestamp,
    buyer: 'RO-HIDRO',
    seller: 'RO-TERMO',
    buyOrderId: '1',
    sellOrderId: '2',
    marginsExposureActive: false,
    externalTransactionId: null,
    gasfwTransactionId: null,
    transferTimestamp: null,
    parentTransactionId: null,
    grandParentTransactionId: null,
    splitTimestamp: null,
  };
}

const pdf = new Uint8Array(Buffer.from('%PDF-1.4\n% a contract\n%%EOF\n'));

describe('contract workflow: every action × every role', () => {
  let t: TestServer;
  let tokens: Record<WorkflowPrincipal, string>;
  let nextId = 9100;

  beforeAll(async () => {
    t = await startTestServer();
    tokens = await signInWorkflowPrincipals(t);
  });
  afterAll(async () => {
    await t.server.close();
  });

  async function newTransaction(): Promise<string> {
    const id = String(nextId++);
    await t.server.store.trading.insertTransactions([transaction(id)]);
    return id;
  }
  async function upload(principal: WorkflowPrincipal, transactionId: string) {
    const form = new FormData();
    form.append('transactionId', transactionId);
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'contract.pdf');
    const response = await fetch(`${t.api}/workflows/contract`, { method: 'POST', headers: { authorization: `Bearer ${tokens[principal]}` }, body: form });
    return { status: response.status, body: await response.json() };
  }
  const act = (principal: WorkflowPrincipal, instanceId: string, action: string) =>
    t.post(`/workflows/${instanceId}/actions`, { action, ...(action === 'reject' ? { reason: 'not as agreed' } : {}) }, tokens[principal]);
  async function download(principal: WorkflowPrincipal, instanceId: string) {
    const response = await fetch(`${t.api}/workflows/${instanceId}/contract.pdf`, { headers: { authorization: `Bearer ${tokens[principal]}` } });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, body: response.ok ? null : JSON.parse(Buffer.from(bytes).toString('utf8')), bytes };
  }
  async function instanceAt(state: 'AWAITING_PARTNER_ACCEPT' | 'AWAITING_ADMIN_APPROVAL'): Promise<{ instanceId: string; version: number }> {
    const uploaded = await upload('participant', await newTransaction());
    expect(uploaded.status).toBe(201);
    if (state === 'AWAITING_PARTNER_ACCEPT') return uploaded.body;
    const accepted = await act('counterparty', uploaded.body.instanceId, 'accept');
    expect(accepted.status).toBe(200);
    return accepted.body;
  }
  const stateOf = async (instanceId: string) => {
    const rows = await t.server.store.db.query<{ status: string; version: number }>('select status, version from workflow_instances where id = $1', [instanceId]);
    return rows[0];
  };
  function expectCell(actual: { status: number; body: { error?: { code: string } } | null }, cell: Cell, label: string): void {
    expect(actual.status, label).toBe(cell[0]);
    if (cell[1]) expect(actual.body?.error?.code, label).toBe(cell[1]);
  }

  for (const principal of workflowPrincipals) {
    it(`upload by the ${principal}`, async () => {
      const transactionId = await newTransaction();
      const answer = await upload(principal, transactionId);
      expectCell(answer, matrix.upload[principal], principal);
      const stored = await t.server.store.db.query("select id from workflow_instances where kind = 'contract' and transaction_id = $1", [transactionId]);
      expect(stored).toHaveLength(answer.status === 201 ? 1 : 0);
    });

    for (const action of ['accept', 'approve', 'reject'] as const) {
      it(`${action} by the ${principal}`, async () => {
        const instance = await instanceAt(action === 'approve' ? 'AWAITING_ADMIN_APPROVAL' : 'AWAITING_PARTNER_ACCEPT');
        const before = await stateOf(instance.instanceId);
        const answer = await act(principal, instance.instanceId, action);
        const cell = matrix[action][principal];
        expectCell(answer, cell, `${action} ${principal}`);
        const after = await stateOf(instance.instanceId);
        if (cell[0] === 200) expect(after!.version).toBe(before!.version + 1);
        else expect(after).toEqual(before);
      });
    }

    it(`download by the ${principal}`, async () => {
      const instance = await instanceAt('AWAITING_PARTNER_ACCEPT');
      const answer = await download(principal, instance.instanceId);
      expectCell(answer, matrix.download[principal], principal);
      if (answer.status === 200) expect(Buffer.from(answer.bytes).equals(Buffer.from(pdf))).toBe(true);
    });
  }
});
