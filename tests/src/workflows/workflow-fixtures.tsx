/**
 * Sample workflow instances for the screens' tests, each in a state reached by the real machine
 * (machines/workflows/) and checked with the contract's schema, the users of the demo fixture
 * (broker1 holds RO-HIDRO, broker2 RO-TERMO, the administrator approves), and a render helper with
 * the app's dialogs.
 */
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { applyWorkflowEvent, startWorkflow, storeWorkflow, waitingOnOf } from '../../../machines/workflows/workflow-definitions.ts';
import type { WorkflowActor } from '../../../machines/workflows/workflow-actor.ts';
import type { UserInfo } from '../../../protocol/auth.ts';
import { workflowInstanceSchema, type WorkflowEventRecord, type WorkflowInstance, type WorkflowKind } from '../../../protocol/workflows.ts';
import { DialogProvider } from '../../../src/components/dialogs/DialogProvider.tsx';
import { WithIntl } from '../components/intl.tsx';

export function user(userId: string, roles: UserInfo['roles'], scopes: string[], clientCodes: string[]): UserInfo {
  return {
    userId,
    username: userId,
    name: userId,
    roles,
    scopes,
    broker: null,
    agency: null,
    terminal: null,
    clientCodes,
    marketIds: ['GAS-SPOT'],
    passwordExpiresAt: '2027-01-01T00:00:00.000Z',
    preferences: { language: 'en', theme: 'light', notifications: true, soundNotifications: false },
  };
}

export const broker1 = user('U-broker1', ['broker'], ['trading:read', 'trading:write'], ['RO-HIDRO', 'RO-GAZEST']);
export const broker2 = user('U-broker2', ['broker'], ['trading:read', 'trading:write'], ['RO-TERMO', 'RO-INDUS']);
export const admin = user('U-admin', ['administrator'], ['admin', 'trading:read', 'workflows:approve'], []);
export const terminal1 = user('U-terminal1', ['terminal'], ['trading:read'], ['RO-GAZEST']);

export const actorOf = (who: UserInfo): WorkflowActor => ({ userId: who.userId, roles: who.roles, scopes: who.scopes, clientCodes: who.clientCodes });

const dataByKind = {
  otc: {
    assetId: 'GSPOT-DA',
    way: 'bid',
    qty: 10_000,
    price: 150_00,
    firstDeliveryDate: '2026-12-01',
    lastDeliveryDate: '2026-12-31',
    noDeliveryDays: 31,
    settlementPrice: 148_00,
    initiatedAt: null,
    transactionId: null,
    txDate: null,
    txTime: null,
  },
  transfer: { transactionId: '1001', assetId: 'GSPOT-DA', targetAssetId: 'CCP-GSPOT-DA', qty: 5_000, transactionQty: 5_000, price: 150_00, buyer: 'RO-HIDRO', seller: 'RO-TERMO', transferredTransactionId: null, remainderTransactionId: null, checksSkipped: false },
  marginActivation: { transactionId: '1002', assetId: 'GSPOT-DA', buyer: 'RO-HIDRO', seller: 'RO-TERMO', activatedAt: null },
  contract: { transactionId: '1003', assetId: 'GSPOT-DA', buyer: 'RO-HIDRO', seller: 'RO-TERMO', date: '2026-11-20', fileName: 'contract-1003.pdf', fileSize: 2048, sha256: null, uploadedAt: '2026-11-20T10:00:00.000Z' },
  whitelist: { type: 'ALLOW_TRADING' },
} as const;

/**
 * An instance of `kind` between RO-HIDRO (initiator, broker1's) and RO-TERMO (partner, broker2's),
 * driven through `steps` (action, by whom) by the real machine; the history records each step.
 */
export function instance(kind: WorkflowKind, steps: ReadonlyArray<readonly [string, UserInfo, string?]> = [], partial: Partial<WorkflowInstance> = {}): WorkflowInstance {
  const parties = { initiatorClient: 'RO-HIDRO', partnerClient: 'RO-TERMO' };
  let snapshot = startWorkflow(kind, parties);
  const history: WorkflowEventRecord[] = [
    { seq: 1, action: 'create', actorUserId: broker1.userId, actorName: 'Broker Unu', actorRole: 'broker', fromStatus: null, toStatus: String(snapshot.value), reason: null, at: '2026-11-20T08:00:00.000Z' },
  ];
  for (const [action, who, reason] of steps) {
    const next = applyWorkflowEvent(kind, snapshot, { type: action, actor: actorOf(who), ...(reason ? { reason } : {}) });
    if (!next) throw new Error(`${kind}: ${action} by ${who.userId} not taken in ${String(snapshot.value)}`);
    history.push({
      seq: history.length + 1,
      action,
      actorUserId: who.userId,
      actorName: who.name,
      actorRole: who.roles[0] ?? null,
      fromStatus: String(snapshot.value),
      toStatus: String(next.value),
      reason: reason ? { text: reason, code: null, params: {} } : null,
      at: `2026-11-20T${String(8 + history.length).padStart(2, '0')}:00:00.000Z`,
    });
    snapshot = next;
  }
  return workflowInstanceSchema.parse({
    kind,
    status: String(snapshot.value),
    data: dataByKind[kind],
    instanceId: `WF-${kind}-1`,
    machineState: storeWorkflow(snapshot),
    initiatorClient: parties.initiatorClient,
    partnerClient: parties.partnerClient,
    initiatorName: 'Hidroelectrica SA',
    partnerName: 'Termo SA',
    createdBy: broker1.userId,
    createdAt: '2026-11-20T08:00:00.000Z',
    updatedAt: history.at(-1)!.at,
    limitAt: null,
    version: history.length,
    reason: history.at(-1)!.reason,
    waitingOn: waitingOnOf(snapshot),
    history,
    ...partial,
  });
}

export function renderWithDialogs(locale: 'en' | 'ro', node: ReactNode) {
  return render(
    <WithIntl locale={locale}>
      <DialogProvider>{node}</DialogProvider>
    </WithIntl>,
  );
}
