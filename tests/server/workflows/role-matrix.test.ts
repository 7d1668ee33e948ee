/**
 * The role matrix: every action of OTC deals, transfers and margin activations, for a participant
 * (broker1, RO-HIDRO's broker), another broker of the same agency who does not hold the client, another
 * agency's broker, a client user (client1, RO-HIDRO), a terminal holding RO-HIDRO (read only) and the
 * administrator: accepted ('ok') or refused with the code. The instance is always set up so that
 * RO-HIDRO is the side whose step it is. docs/workflows.md shows the same table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeError } from '../../../protocol/error-codes.ts';
import type { OtcDealDraft, WorkflowInstance } from '../../../protocol/workflows.ts';
import type { WorkflowService } from '../../../server/workflows/workflow-service.ts';
import type { WorkflowUser } from '../../../server/workflows/workflow-runner.ts';
import type { MemoryLedger } from '../../helpers/memory-ledger.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { openWorkflowStore, type WorkflowStore } from '../../helpers/workflow-store.ts';

const roles = ['participant', 'sameAgencyBroker', 'otherAgencyBroker', 'client', 'terminal', 'administrator'] as const;
type Role = (typeof roles)[number];
type Outcome = 'ok' | string;

const NF = 'WORKFLOW_NOT_FOUND';
const NA = 'WORKFLOW_ACTION_NOT_ALLOWED';

/** Expected outcome per role, in the order of `roles`. */
const row = (...outcomes: [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome]) => Object.fromEntries(roles.map((role, i) => [role, outcomes[i]!])) as Record<Role, Outcome>;
const sideStep = row('ok', NF, NF, 'ok', NA, NA);
const partnerStepAdminMayReject = row('ok', NF, NF, 'ok', NA, 'ok');
const adminStep = row(NA, NF, NF, NA, NA, 'ok');

const roleMatrix: Record<string, Record<string, Record<Role, Outcome>>> = {
  otc: {
    register: row('ok', 'ACCOUNT_CLIENT_FORBIDDEN', 'ACCOUNT_CLIENT_FORBIDDEN', 'ok', 'ACCOUNT_CLIENT_FORBIDDEN', 'ACCOUNT_CLIENT_FORBIDDEN'),
    activate: sideStep,
    delete: sideStep,
    acceptActivation: sideStep,
    'reject (partner stage)': partnerStepAdminMayReject,
    approve: adminStep,
    'reject (approval stage)': adminStep,
  },
  transfer: {
    request: row('ok', 'TRANSFER_NOT_PARTICIPANT', 'TRANSFER_NOT_PARTICIPANT', 'ok', 'TRANSFER_NOT_PARTICIPANT', 'TRANSFER_NOT_PARTICIPANT'),
    cancel: sideStep,
    accept: sideStep,
    'reject (partner stage)': partnerStepAdminMayReject,
    approve: adminStep,
    approveWithoutChecks: adminStep,
    'reject (approval stage)': adminStep,
  },
  marginActivation: {
    request: row('ok', 'FORBIDDEN', 'FORBIDDEN', 'ok', 'FORBIDDEN', 'FORBIDDEN'),
    activate: sideStep,
    cancel: sideStep,
    approve: adminStep,
    reject: adminStep,
  },
};

const draft: OtcDealDraft = {
  clientCode: 'RO-HIDRO', partnerClientCode: 'RO-TERMO', assetId: 'GFWD-M-2027-01', way: 'bid', qty: 100, price: 15000,
  firstDeliveryDate: '2027-01-01', lastDeliveryDate: '2027-01-31', noDeliveryDays: 31,
};

describe.each(testDatabases)('role matrix on $name', (database) => {
  let ws: WorkflowStore;
  let service: WorkflowService;
  let ledger: MemoryLedger;
  let actors: Record<Role, WorkflowUser>;
  let broker2: WorkflowUser;

  beforeAll(async () => {
    ws = await openWorkflowStore(database);
    ({ service, ledger } = ws.service());
    actors = {
      participant: await ws.actor('broker1'),
      sameAgencyBroker: await ws.addUser('broker1b', 'broker1', { clientCodes: [] }),
      otherAgencyBroker: await ws.actor('sim-nord'),
      client: await ws.actor('client1'),
      terminal: await ws.addUser('terminal-hidro', 'terminal1', { clientCodes: ['RO-HIDRO'] }),
      administrator: await ws.actor('admin'),
    };
    broker2 = await ws.actor('broker2');
  });
  afterAll(async () => ws?.close());

  const act = (instance: WorkflowInstance, action: string, actor: WorkflowUser, reason?: string) => service.act(instance.instanceId, { action, ...(reason ? { reason } : {}) }, actor);

  /** Each cell: set the instance up (RO-HIDRO's step), then the role's attempt. */
  const cells: Record<string, Record<string, (actor: WorkflowUser) => Promise<unknown>>> = {
    otc: {
      register: (actor) => service.otc.register(draft, actor),
      activate: async (actor) => act(await service.otc.register(draft, actors.participant), 'activate', actor),
      delete: async (actor) => act(await service.otc.register(draft, actors.participant), 'delete', actor),
      acceptActivation: async (actor) => act(await otcFromTermo(), 'acceptActivation', actor),
      'reject (partner stage)': async (actor) => act(await otcFromTermo(), 'reject', actor, 'no'),
      approve: async (actor) => act(await otcAwaitingApproval(), 'approve', actor),
      'reject (approval stage)': async (actor) => act(await otcAwaitingApproval(), 'reject', actor, 'no'),
    },
    transfer: {
      request: (actor) => service.transfers.request({ transactionId: ledger.seed().transactionId }, actor),
      cancel: async (actor) => act(await service.transfers.request({ transactionId: ledger.seed().transactionId }, actors.participant), 'cancel', actor),
      accept: async (actor) => act(await transferFromTermo(), 'accept', actor),
      'reject (partner stage)': async (actor) => act(await transferFromTermo(), 'reject', actor, 'no'),
      approve: async (actor) => act(await transferAwaitingApproval(), 'approve', actor),
      approveWithoutChecks: async (actor) => act(await transferAwaitingApproval(), 'approveWithoutChecks', actor),
      'reject (approval stage)': async (actor) => act(await transferAwaitingApproval(), 'reject', actor, 'no'),
    },
    marginActivation: {
      request: (actor) => service.marginActivations.request({ transactionId: ledger.seed().transactionId }, actor),
      activate: async (actor) => {
        const requested = await service.marginActivations.request({ transactionId: ledger.seed().transactionId }, actors.participant);
        return act(await act(requested, 'cancel', actors.participant), 'activate', actor);
      },
      cancel: async (actor) => act(await service.marginActivations.request({ transactionId: ledger.seed().transactionId }, actors.participant), 'cancel', actor),
      approve: async (actor) => act(await service.marginActivations.request({ transactionId: ledger.seed().transactionId }, actors.participant), 'approve', actor),
      reject: async (actor) => act(await service.marginActivations.request({ transactionId: ledger.seed().transactionId }, actors.participant), 'reject', actor, 'no'),
    },
  };

  async function otcFromTermo() {
    const deal = await service.otc.register({ ...draft, clientCode: 'RO-TERMO', partnerClientCode: 'RO-HIDRO' }, broker2);
    return act(deal, 'activate', broker2);
  }
  async function otcAwaitingApproval() {
    const deal = await act(await service.otc.register(draft, actors.participant), 'activate', actors.participant);
    return act(deal, 'acceptActivation', broker2);
  }
  async function transferFromTermo() {
    return service.transfers.request({ transactionId: ledger.seed().transactionId }, broker2);
  }
  async function transferAwaitingApproval() {
    return act(await service.transfers.request({ transactionId: ledger.seed().transactionId }, actors.participant), 'accept', broker2);
  }

  for (const [kind, actions] of Object.entries(roleMatrix)) {
    for (const [action, expected] of Object.entries(actions)) {
      it(`${kind} ${action}`, async () => {
        const outcomes: Record<string, Outcome> = {};
        for (const role of roles) {
          try {
            await cells[kind]![action]!(actors[role]);
            outcomes[role] = 'ok';
          } catch (error) {
            if (!(error instanceof ExchangeError)) throw error;
            outcomes[role] = error.code;
          }
        }
        expect(outcomes).toEqual(expected);
      });
    }
  }
});
