/** Message keys of the workflows' statuses, actions, kinds and "waiting on", by workflow kind. */
import type { WorkflowAction, WorkflowInstance, WorkflowKind } from '../../protocol/workflows.ts';
import type { MessageKey } from '../i18n/messages/index.ts';

/** The status families of the catalogue (protocol/enums.ts labels, plus 'deleted' and 'cancelled'). */
const statusPrefix: Record<WorkflowKind, string> = {
  otc: 'otc.status.',
  transfer: 'transfer.outcome.',
  marginActivation: 'margin.status.',
  contract: 'contract.status.',
  whitelist: 'whitelist.requestStatus.',
};

/** The label of a status of `kind`; a status the catalogue does not have is shown as it is (null). */
export function statusLabelKey(kind: WorkflowKind, status: string, messages: Record<string, unknown>): MessageKey | null {
  const key = `${statusPrefix[kind]}${status}`;
  return key in messages ? (key as MessageKey) : null;
}

export const actionLabels: Record<WorkflowAction, MessageKey> = {
  activate: 'workflow.action.activate',
  acceptActivation: 'workflow.action.acceptActivation',
  delete: 'workflow.action.delete',
  approve: 'workflow.action.approve',
  reject: 'workflow.action.reject',
  cancel: 'workflow.action.cancel',
  accept: 'workflow.action.accept',
  approveWithoutChecks: 'workflow.action.approveWithoutChecks',
};

/** What the panel says once an action went through: the action as done ('Approved.', 'Aprobat.'), not the button's imperative. */
export const actionDoneLabels: Record<WorkflowAction, MessageKey> = {
  activate: 'workflow.actionDone.activate',
  acceptActivation: 'workflow.actionDone.acceptActivation',
  delete: 'workflow.actionDone.delete',
  approve: 'workflow.actionDone.approve',
  reject: 'workflow.actionDone.reject',
  cancel: 'workflow.actionDone.cancel',
  accept: 'workflow.actionDone.accept',
  approveWithoutChecks: 'workflow.actionDone.approveWithoutChecks',
};

/** The history's actions, as done (a button says 'Approve', the history 'Approved'): the users' ones and the system's (creation, timers, checks). */
const historyActionLabels: Record<string, MessageKey> = {
  activate: 'workflow.history.activate',
  acceptActivation: 'workflow.history.acceptActivation',
  delete: 'workflow.history.delete',
  approve: 'workflow.history.approve',
  reject: 'workflow.history.reject',
  cancel: 'workflow.history.cancel',
  accept: 'workflow.history.accept',
  approveWithoutChecks: 'workflow.history.approveWithoutChecks',
  create: 'workflow.history.create',
  request: 'workflow.history.request',
  upload: 'workflow.history.upload',
  expire: 'workflow.history.expire',
  checksFailed: 'workflow.history.checksFailed',
  nonTransferable: 'workflow.history.nonTransferable',
  approveAtOnce: 'workflow.history.approveAtOnce',
};

/**
 * The server records the first entry of every workflow as `create`; what happened differs by kind: an
 * OTC deal is registered, a transfer, a margin activation or a whitelist change is requested, a
 * contract is opened by its first upload (its own `upload` entry follows).
 */
const createLabels: Record<WorkflowKind, MessageKey> = {
  otc: 'workflow.history.create',
  transfer: 'workflow.history.request',
  marginActivation: 'workflow.history.request',
  contract: 'workflow.history.open',
  whitelist: 'workflow.history.request',
};

/** The label of a history entry's action, as done, for the workflow's kind (the first entry, `create`, says what happened for that kind). */
export function historyActionLabel(action: string, kind?: WorkflowKind): MessageKey | null {
  if (action === 'create' && kind !== undefined) return createLabels[kind];
  return Object.hasOwn(historyActionLabels, action) ? historyActionLabels[action]! : null;
}

export const kindLabels: Record<WorkflowKind, MessageKey> = {
  otc: 'workflow.kind.otc',
  transfer: 'workflow.kind.transfer',
  marginActivation: 'workflow.kind.marginActivation',
  contract: 'workflow.kind.contract',
  whitelist: 'workflow.kind.whitelist',
};

export const waitingOnLabels: Record<Exclude<WorkflowInstance['waitingOn'], 'none'>, MessageKey> = {
  initiator: 'workflow.waitingOn.initiator',
  partner: 'workflow.waitingOn.partner',
  administrator: 'workflow.waitingOn.administrator',
};

/** Actions drawn as dangerous (the confirmation's button in the error colour). */
export const dangerousActions: readonly WorkflowAction[] = ['reject', 'delete', 'cancel'];

/**
 * The number of the transaction an instance is about, as its rows show it to users (transfer, margin
 * activation, contract; an OTC deal once approved: the transaction it became); null for a whitelist
 * request or a deal not yet a transaction. The instance id is internal and never named to users.
 */
export function transactionOf(instance: WorkflowInstance): string | null {
  return instance.kind === 'whitelist' ? null : instance.data.transactionId;
}
