/**
 * The demo's post-trade workflows (issue 15, item 9): OTC deals, transfers to the central counterparty,
 * margin exposure activations, transaction contracts and whitelist requests in the states a user meets,
 * so every tab of "My account" shows rows after `npm start`. Everything goes through the real services
 * (WorkflowService, ContractService, WhitelistService) as the demo users broker1 (RO-HIDRO, RO-GAZEST),
 * broker2 (RO-TERMO, RO-INDUS) and admin: the checks run, the engine registers and novates the
 * transactions, the read models and the history are the ones a person's clicks would leave.
 *
 * Decisions (docs/demo.md "Workflows"):
 *  - No book trades: a finalized OTC deal is a transaction like a book trade for transfers, margin
 *    activations and contracts, and registering it does not depend on the market's phase at start (a
 *    book order would be refused outside the trading phase, e.g. at 23:50).
 *  - The expired deal is registered and activated on a clock three days back (a day-ahead gas deal
 *    for delivery yesterday, whose limit date passed the day before); the timers' sweep at the real
 *    time then expires it, as it would have on a server running since.
 *  - The finalized transfer is approved with the checks when the CCP market holds today's session,
 *    otherwise without them (the operator's choice the workflow offers), so it finalizes whenever the
 *    demo is loaded.
 */
import type { OtcDealDraft, WorkflowInstance } from '../../protocol/workflows.ts';
import { DocumentWriter } from '../clearing/documents/pdf-document.ts';
import type { AssetRecord } from '../store/reference.repository.ts';
import type { Store } from '../store/store.ts';
import { bucharestDate } from '../trading/time.ts';
import type { ContractService } from '../workflows/contracts.ts';
import type { WhitelistService } from '../workflows/whitelist.ts';
import { workflowActorOf, type WorkflowUser } from '../workflows/workflow-runner.ts';
import { WorkflowService } from '../workflows/workflow-service.ts';
import { romanianMonthOf } from './demo-calendar.ts';
import { demoAssetId } from './demo-exchange.ts';

export interface DemoWorkflowsDeps {
  store: Store;
  workflows: WorkflowService;
  contracts: ContractService;
  whitelist: WhitelistService;
  /** Resolves once the read models hold the engine's events (transfers and contracts read transactions there). */
  readModelsSettled: () => Promise<void>;
  now: () => number;
}

/** The fixture's ids of the demo's products (templates: the deals use the month listed when the demo is made, server/demo/demo-calendar.ts). */
const GAS_TEMPLATE = 'GFWD-M-2027-01';
const POWER_TEMPLATE = 'EFWD-M-2027-01-BASE';
const GAS_DAY_AHEAD = 'GSPOT-DA';
/** Prices when the asset has no daily settlement price yet (the demo settlement history gives them one). */
const BASE_PRICE: Record<string, number> = { [GAS_TEMPLATE]: 16_500, [POWER_TEMPLATE]: 41_000, [GAS_DAY_AHEAD]: 15_200 };
const DAY_MS = 86_400_000;

/**
 * The demo product a template is in this database: the one listed today (the demo exchange was made
 * today), else the template itself (a data directory made by a version before the demo's calendar).
 */
async function demoProduct(store: Store, templateId: string, at: number): Promise<AssetRecord> {
  const assets = await store.reference.assets();
  for (const id of [demoAssetId(templateId, at), templateId]) {
    const asset = assets.find((candidate) => candidate.id === id);
    if (asset) return asset;
  }
  throw new Error(`demo asset ${templateId} is missing`);
}

/** Lower-cases a name's first letter, to use it inside a sentence. */
function inSentence(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

type Party = 'broker1' | 'broker2' | 'admin';

/** Loads the demo workflows when there are none; false when the database already has some (or the load stopped, with a warning). */
export async function loadDemoWorkflowsIfEmpty(deps: DemoWorkflowsDeps): Promise<boolean> {
  const [{ n }] = (await deps.store.db.query<{ n: string | number }>('select count(*) as n from workflow_instances')) as [{ n: string | number }];
  if (Number(n) > 0) return false;
  try {
    await loadDemoWorkflows(deps);
    return true;
  } catch (error) {
    // The exchange runs without them (e.g. a data directory made before the demo's calendar, once its January 2027 forwards are past their limit dates).
    console.warn(`Demo workflows not loaded completely: ${(error as Error).message}`);
    return false;
  }
}

async function loadDemoWorkflows({ store, workflows, contracts, whitelist, readModelsSettled, now }: DemoWorkflowsDeps): Promise<void> {
  const users = {} as Record<Party, WorkflowUser>;
  for (const username of ['broker1', 'broker2', 'admin'] as const) {
    const user = await store.users.findByUsername(username);
    if (!user) throw new Error(`demo user ${username} is missing`);
    users[username] = workflowActorOf(user);
  }
  const act = (service: WorkflowService, instance: WorkflowInstance, action: string, by: Party, reason?: string) =>
    service.act(instance.instanceId, { action, ...(reason ? { reason } : {}) }, users[by]);
  const gas = await demoProduct(store, GAS_TEMPLATE, now());
  const power = await demoProduct(store, POWER_TEMPLATE, now());
  const GAS = gas.id;
  const POWER = power.id;
  const basePrice = new Map([[GAS, BASE_PRICE[GAS_TEMPLATE]!], [POWER, BASE_PRICE[POWER_TEMPLATE]!], [GAS_DAY_AHEAD, BASE_PRICE[GAS_DAY_AHEAD]!]]);
  const price = async (assetId: string, offset: number) => ((await workflows.env.clearing.settlementPrice(assetId)) ?? basePrice.get(assetId)!) + offset;
  // The forwards' delivery month (January 2027 on the fixture's dates): every day of it.
  const { deliveryStart, deliveryEnd } = gas.spec;
  const month = {
    firstDeliveryDate: deliveryStart,
    lastDeliveryDate: deliveryEnd,
    noDeliveryDays: Math.round((Date.parse(`${deliveryEnd}T12:00:00Z`) - Date.parse(`${deliveryStart}T12:00:00Z`)) / DAY_MS) + 1,
  };
  const register = async (by: Party, draft: Omit<OtcDealDraft, 'price' | 'firstDeliveryDate' | 'lastDeliveryDate' | 'noDeliveryDays'> & { offset: number }, service = workflows, dates = month) => {
    const { offset, ...rest } = draft;
    return service.otc.register({ ...rest, ...dates, price: await price(draft.assetId, offset) }, users[by]);
  };
  const partnerOf = (clientCode: string): Party => (users.broker1.clientCodes.includes(clientCode) ? 'broker1' : 'broker2');
  /** A deal taken to finalized: its transaction id. */
  const finalized = async (by: Party, draft: Parameters<typeof register>[1]) => {
    const deal = await register(by, draft);
    await act(workflows, deal, 'activate', by);
    await act(workflows, deal, 'acceptActivation', partnerOf(draft.partnerClientCode));
    const done = await act(workflows, deal, 'approve', 'admin');
    return String((done.data as { transactionId: string }).transactionId);
  };

  // OTC deals in every state.
  await register('broker1', { clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', assetId: GAS, way: 'bid', qty: 1_500, offset: -50 });
  const toPartner = await register('broker1', { clientCode: 'RO-GAZEST', partnerClientCode: 'RO-INDUS', assetId: POWER, way: 'ask', qty: 800, offset: 120 });
  await act(workflows, toPartner, 'activate', 'broker1');
  const fromTermo = await register('broker2', { clientCode: 'RO-TERMO', partnerClientCode: 'RO-HIDRO', assetId: GAS, way: 'ask', qty: 1_000, offset: 30 });
  await act(workflows, fromTermo, 'activate', 'broker2');
  const toAdmin = await register('broker1', { clientCode: 'RO-HIDRO', partnerClientCode: 'RO-INDUS', assetId: POWER, way: 'bid', qty: 600, offset: -80 });
  await act(workflows, toAdmin, 'activate', 'broker1');
  await act(workflows, toAdmin, 'acceptActivation', 'broker2');
  const refusedByPartner = await register('broker1', { clientCode: 'RO-GAZEST', partnerClientCode: 'RO-TERMO', assetId: GAS, way: 'ask', qty: 2_000, offset: 250 });
  await act(workflows, refusedByPartner, 'activate', 'broker1');
  await act(workflows, refusedByPartner, 'reject', 'broker2', `Prețul depășește limita noastră internă pentru ${romanianMonthOf(deliveryStart)}.`);
  const refusedByAdmin = await register('broker2', { clientCode: 'RO-INDUS', partnerClientCode: 'RO-GAZEST', assetId: POWER, way: 'bid', qty: 400, offset: 0 });
  await act(workflows, refusedByAdmin, 'activate', 'broker2');
  await act(workflows, refusedByAdmin, 'acceptActivation', 'broker1');
  await act(workflows, refusedByAdmin, 'reject', 'admin', 'Contractul-cadru dintre părți nu este depus la bursă.');
  await registerExpiredDeal(workflows, now, async (service, clock) => {
    const deliveryDay = bucharestDate(now() - DAY_MS);
    const deal = await register('broker1', { clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', assetId: GAS_DAY_AHEAD, way: 'ask', qty: 500, offset: 40 }, service, {
      firstDeliveryDate: deliveryDay,
      lastDeliveryDate: deliveryDay,
      noDeliveryDays: 1,
    });
    clock.advance(3_600_000);
    await act(service, deal, 'activate', 'broker1');
  });

  // Finalized deals: transactions for the transfers, margin activations and contracts.
  const hidroBuysGas = await finalized('broker1', { clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', assetId: GAS, way: 'bid', qty: 2_000, offset: 20 });
  const gazestSellsPower = await finalized('broker1', { clientCode: 'RO-GAZEST', partnerClientCode: 'RO-INDUS', assetId: POWER, way: 'ask', qty: 1_000, offset: 60 });
  const termoBuysGas = await finalized('broker2', { clientCode: 'RO-TERMO', partnerClientCode: 'RO-HIDRO', assetId: GAS, way: 'bid', qty: 1_200, offset: -40 });
  const hidroSellsPower = await finalized('broker1', { clientCode: 'RO-HIDRO', partnerClientCode: 'RO-INDUS', assetId: POWER, way: 'ask', qty: 700, offset: 90 });
  const indusBuysGas = await finalized('broker2', { clientCode: 'RO-INDUS', partnerClientCode: 'RO-GAZEST', assetId: GAS, way: 'bid', qty: 900, offset: 10 });
  await readModelsSettled();

  // Transfers to the CCP market.
  const finalTransfer = await workflows.transfers.request({ transactionId: hidroBuysGas, qty: 1_200 }, users.broker1);
  await act(workflows, finalTransfer, 'accept', 'broker2');
  const target = await store.reference.markets().then((markets) => markets.find((market) => market.kind === 'ccp' && market.commodity === 'gas'));
  const session = target !== undefined && (await workflows.env.clearing.hasSession(target.id, bucharestDate(now())));
  await act(workflows, finalTransfer, session ? 'approve' : 'approveWithoutChecks', 'admin');
  await workflows.transfers.request({ transactionId: gazestSellsPower }, users.broker1);
  const toApprove = await workflows.transfers.request({ transactionId: termoBuysGas }, users.broker2);
  await act(workflows, toApprove, 'accept', 'broker1');
  const refusedTransfer = await workflows.transfers.request({ transactionId: hidroSellsPower }, users.broker1);
  await act(workflows, refusedTransfer, 'reject', 'broker2', 'RO-INDUS păstrează poziția bilaterală până la livrare.');

  // Margin exposure activations.
  const activation = await workflows.marginActivations.request({ transactionId: termoBuysGas }, users.broker1);
  await act(workflows, activation, 'approve', 'admin');
  await workflows.marginActivations.request({ transactionId: hidroSellsPower }, users.broker2);

  // Transaction contracts.
  const contract = (transactionId: string, title: string) => ({ transactionId, fileName: `Contract ${transactionId}.pdf`, bytes: contractPdf(transactionId, title, now()) });
  await contracts.upload(contract(gazestSellsPower, `RO-GAZEST → RO-INDUS, ${inSentence(power.names.ro)}`), users.broker2);
  const toAdminContract = await contracts.upload(contract(hidroSellsPower, `RO-HIDRO → RO-INDUS, ${inSentence(power.names.ro)}`), users.broker1);
  await act(workflows, toAdminContract, 'accept', 'broker2');
  const finalContract = await contracts.upload(contract(indusBuysGas, `RO-GAZEST → RO-INDUS, ${inSentence(gas.names.ro)}`), users.broker2);
  await act(workflows, finalContract, 'accept', 'broker1');
  await act(workflows, finalContract, 'approve', 'admin');

  // Whitelist: partners on the bilateral asset (GBIL-M-2027-01 on the fixture's dates), a pending request, a rejected one, a denial.
  const allow = await whitelist.request({ clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', type: 'ALLOW_TRADING' }, users.broker1);
  await act(workflows, allow, 'approve', 'broker2');
  await whitelist.request({ clientCode: 'RO-GAZEST', partnerClientCode: 'RO-INDUS', type: 'ALLOW_TRADING' }, users.broker1);
  const refused = await whitelist.request({ clientCode: 'RO-TERMO', partnerClientCode: 'RO-GAZEST', type: 'ALLOW_TRADING' }, users.broker2);
  await act(workflows, refused, 'reject', 'broker1', 'Nu avem încă un contract-cadru cu RO-TERMO.');
  const formerPartner = await whitelist.request({ clientCode: 'RO-INDUS', partnerClientCode: 'RO-HIDRO', type: 'ALLOW_TRADING' }, users.broker2);
  await act(workflows, formerPartner, 'approve', 'broker1');
  await whitelist.request({ clientCode: 'RO-HIDRO', partnerClientCode: 'RO-INDUS', type: 'DENY_TRADING' }, users.broker1);
}

/**
 * The expired deal: registered and activated by a service on a clock three days back (no publisher:
 * nobody is connected at start), then expired by the real timers' sweep, which finds its limit passed.
 */
async function registerExpiredDeal(
  workflows: WorkflowService,
  now: () => number,
  make: (service: WorkflowService, clock: { advance(ms: number): void }) => Promise<void>,
): Promise<void> {
  let at = now() - 3 * DAY_MS;
  const past = new WorkflowService({ db: workflows.runner.db, env: { ...workflows.env, now: () => at }, timerIntervalMs: 0 });
  await make(past, {
    advance: (ms) => {
      at += ms;
    },
  });
  await workflows.timers.sweep();
}

/** A one-page contract (pdfkit, through the clearing documents' writer), dated when the demo is made. */
function contractPdf(transactionId: string, title: string, at: number): Buffer {
  const writer = new DocumentWriter({
    title: `Contract ${transactionId}`,
    author: 'Bursa de energie (demo)',
    subject: title,
    createdAt: new Date(at),
    layout: 'portrait',
    footer: `Contract bilateral pentru tranzacția ${transactionId}`,
    pageLabel: (page, pages) => `Pagina ${page} din ${pages}`,
  });
  writer.heading('Bursa de energie', 'Exemplu generat pentru demonstrație', `Contract pentru tranzacția ${transactionId}`);
  writer.info([
    ['Tranzacția', transactionId],
    ['Obiect', title],
    ['Data', bucharestDate(at)],
  ]);
  writer.note('Părțile confirmă tranzacția de mai sus și condițiile de livrare din specificația activului. Document demonstrativ, fără valoare juridică.');
  return writer.finish();
}
