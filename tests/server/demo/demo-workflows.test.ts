/**
 * The demo's workflows (server/demo/demo-workflows.ts) on a real server with the demo's settlement
 * history: every workflow tab of broker1 lists rows, each state the demo promises is there, the engine
 * holds what the approvals made, and loading again adds nothing. On the fixture's dates and on a date
 * far past them (the demo's calendar rolls the products: server/demo/demo-calendar.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowRoutes, type WhitelistRelation, type WorkflowInstance } from '../../../protocol/workflows.ts';
import { demoAssetId } from '../../../server/demo/demo-exchange.ts';
import { loadDemoWorkflowsIfEmpty } from '../../../server/demo/demo-workflows.ts';
import { ContractService } from '../../../server/workflows/contracts.ts';
import { WhitelistService } from '../../../server/workflows/whitelist.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const statuses = (instances: WorkflowInstance[]) => new Set(instances.map((instance) => instance.status));

const dates = [
  { date: 'the fixture\'s dates', at: Date.parse('2026-11-22T09:00:00Z') },
  { date: '1 July 2027', at: Date.parse('2027-07-01T08:00:00Z') },
];
const cases = testDatabases.flatMap((database) => dates.map((date) => ({ name: database.name, database, ...date })));

describe.each(cases)('demo workflows on $name, made on $date', ({ database, at }) => {
  const gasCcp = demoAssetId('GCCP-M-2027-01', at);
  const gasBilateral = demoAssetId('GBIL-M-2027-01', at);
  let t: TestServer;
  let broker1: string;
  let drop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const created = await database.create();
    drop = created.drop;
    t = await startTestServer({ dataDir: created.dataDir, databaseUrl: created.databaseUrl, demoSettlement: true, demoWorkflows: true, workflowTimerIntervalMs: 0 }, at);
    broker1 = await t.login('broker1');
  }, 60_000);
  afterAll(async () => {
    await t?.server.close();
    await drop();
  });

  async function list(kind: string, token = broker1): Promise<WorkflowInstance[]> {
    const answer = await t.get(`${workflowRoutes.list}?kind=${kind}`, token);
    expect(answer.status).toBe(200);
    return answer.body.instances as WorkflowInstance[];
  }

  it('gives every workflow tab of broker1 rows', async () => {
    for (const kind of ['otc', 'transfer', 'marginActivation', 'contract', 'whitelist']) expect((await list(kind)).length, kind).toBeGreaterThan(0);
    const partners = await t.get(workflowRoutes.whitelistPartners, broker1);
    expect(partners.status).toBe(200);
    expect((partners.body.relations as WhitelistRelation[]).length).toBeGreaterThan(0);
  });

  it('has OTC deals in every state, the rejections with their reason and the expiry by the timers', async () => {
    const deals = await list('otc');
    expect([...statuses(deals)].sort()).toEqual(['awaiting_admin_approval', 'awaiting_partner_accept', 'expired', 'finalized', 'new', 'rejected']);
    const rejected = deals.filter((deal) => deal.status === 'rejected');
    expect(rejected).toHaveLength(2);
    for (const deal of rejected) expect(deal.reason?.text).toMatch(/\w/);
    const expired = deals.find((deal) => deal.status === 'expired')!;
    expect(expired.reason).toMatchObject({ code: 'OTC_LIMIT_DATE_EXCEEDED' });
    expect(Date.parse(expired.limitAt!)).toBeLessThan(t.clock.now());
    // Registered and activated three days back, expired now by the system's timer.
    const history = ((await t.get(workflowRoutes.instance(expired.instanceId), broker1)).body as WorkflowInstance).history;
    expect(history.map((event) => [event.action, event.actorRole])).toEqual([['create', 'broker'], ['activate', 'broker'], ['expire', 'system']]);
    expect(Date.parse(history[0]!.at)).toBeLessThan(t.clock.now() - 2 * 86_400_000);
    expect(Date.parse(history[2]!.at)).toBeGreaterThan(t.clock.now() - 3_600_000);
    // The forward deals are on the gas and power months listed when the demo was made, for every day of the month.
    const month = await t.get(`/assets/${demoAssetId('GFWD-M-2027-01', at)}`, broker1);
    expect(month.status).toBe(200);
    const forwards = deals.filter((deal) => deal.status !== 'expired').map((deal) => deal.data as { assetId: string; firstDeliveryDate: string; lastDeliveryDate: string });
    expect(new Set(forwards.map((deal) => deal.assetId))).toEqual(new Set([demoAssetId('GFWD-M-2027-01', at), demoAssetId('EFWD-M-2027-01-BASE', at)]));
    for (const deal of forwards) expect([deal.firstDeliveryDate, deal.lastDeliveryDate]).toEqual([month.body.deliveryStart, month.body.deliveryEnd]);
    // Every finalized deal is a transaction of the engine.
    for (const deal of deals.filter((candidate) => candidate.status === 'finalized')) {
      const transactionId = Number((deal.data as { transactionId: string }).transactionId);
      expect(t.server.sequencer.engine.getTransaction(transactionId)).toMatchObject({ origin: 'otc' });
    }
  });

  it('has transfers awaiting the partner, awaiting the administrator, finalized into the CCP asset and rejected by the partner', async () => {
    const transfers = await list('transfer');
    expect([...statuses(transfers)].sort()).toEqual(['awaitingAdminApproval', 'awaitingPartnerAccept', 'finalized', 'rejectedByPartner']);
    const done = transfers.find((transfer) => transfer.status === 'finalized')!;
    const data = done.data as { transferredTransactionId: string; remainderTransactionId: string | null; targetAssetId: string };
    expect(t.server.sequencer.engine.getTransaction(Number(data.transferredTransactionId))).toMatchObject({ assetId: gasCcp, origin: 'transfer' });
    expect(data.remainderTransactionId).not.toBeNull();
  });

  it('has a margin activation awaiting approval and an active one, the engine counting the active one', async () => {
    const activations = await list('marginActivation');
    expect([...statuses(activations)].sort()).toEqual(['active', 'awaitingApproval']);
    const active = activations.find((activation) => activation.status === 'active')!;
    const transactionId = Number((active.data as { transactionId: string }).transactionId);
    expect(t.server.sequencer.engine.getTransaction(transactionId)?.marginsExposureActive).toBe(true);
  });

  it('has contracts awaiting the partner, awaiting the administrator and finalized, each with a PDF broker1 can download', async () => {
    const contracts = await list('contract');
    expect([...statuses(contracts)].sort()).toEqual(['AWAITING_ADMIN_APPROVAL', 'AWAITING_PARTNER_ACCEPT', 'FINALIZED']);
    for (const contract of contracts) {
      const response = await fetch(`${t.api}${workflowRoutes.contractPdf(contract.instanceId)}`, { headers: { authorization: `Bearer ${broker1}` } });
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  });

  it('has whitelist requests pending, approved, rejected and a denial, and the relations they leave', async () => {
    const requests = await list('whitelist');
    expect([...statuses(requests)].sort()).toEqual(['APPROVED', 'PENDING', 'REJECTED']);
    expect(requests.find((request) => request.status === 'PENDING')).toMatchObject({ initiatorClient: 'RO-GAZEST', partnerClient: 'RO-INDUS' });
    expect(requests.filter((request) => (request.data as { type: string }).type === 'DENY_TRADING' && request.status === 'APPROVED')).toHaveLength(1);
    const answer = await t.get(workflowRoutes.whitelistPartners, broker1);
    const relations = answer.body.relations as WhitelistRelation[];
    const of = (client: string, partner: string) => relations.find((relation) => relation.clientCode === client && relation.partnerClientCode === partner)?.status;
    expect(of('RO-HIDRO', 'RO-TERMO')).toBe('ACTIVE');
    expect(of('RO-GAZEST', 'RO-INDUS')).toBe('PENDING');
    expect(of('RO-HIDRO', 'RO-INDUS')).toBe('DISABLED');
    expect(of('RO-GAZEST', 'RO-TERMO')).toBeUndefined();
  });

  it('lets RO-HIDRO and RO-TERMO trade on the bilateral asset', async () => {
    const broker2 = await t.login('broker2');
    expect((await t.post('/orders', { idempotencyKey: 'demo-bil-ask', assetId: gasBilateral, way: 'ask', price: 15_000, qty: 100, validityType: 'day', clientCode: 'RO-TERMO' }, broker2)).status).toBe(201);
    const bid = await t.post('/orders', { idempotencyKey: 'demo-bil-bid', assetId: gasBilateral, way: 'bid', price: 15_000, qty: 100, validityType: 'day', clientCode: 'RO-HIDRO' }, broker1);
    expect(bid.body.order).toMatchObject({ status: 'traded' });
  });

  it('adds nothing when loaded again', async () => {
    const count = async () => Number((await t.server.store.db.query<{ n: string | number }>('select count(*) as n from workflow_instances'))[0]!.n);
    const before = await count();
    expect(before).toBeGreaterThan(20);
    const workflows = t.server.workflows;
    const loaded = await loadDemoWorkflowsIfEmpty({
      store: t.server.store,
      workflows,
      contracts: new ContractService(workflows.runner, workflows.env),
      whitelist: new WhitelistService(workflows.runner, workflows.env),
      readModelsSettled: () => t.server.projector.settled(),
      now: t.clock.now,
    });
    expect(loaded).toBe(false);
    expect(await count()).toBe(before);
  });
});
