/**
 * How a workflow item is named to brokers, clients and administrators: by the number of the
 * transaction it is about, as its row shows it ('Contract of transaction 1001'), or, without one (a
 * whitelist request, an OTC deal not yet a transaction), by its kind and its two clients ('Whitelist
 * request between RO-HIDRO and RO-TERMO'). The instance id is internal: only the operator console's
 * Workflows tab shows it, for support.
 */
import type { IntlShape } from 'react-intl';
import type { WorkflowInstance, WorkflowKind } from '../../protocol/workflows.ts';
import { kindLabels, transactionOf } from './labels.ts';

export interface WorkflowNaming {
  kind: WorkflowKind;
  transactionId: string | null;
  initiator: string;
  partner: string;
}

export function namingOf(instance: WorkflowInstance): WorkflowNaming {
  return { kind: instance.kind, transactionId: transactionOf(instance), initiator: instance.initiatorClient, partner: instance.partnerClient };
}

/** The kind with its transaction's number ('Transfer to CCP of transaction 1001'), or its kind alone when there is none. */
export function workflowSubject(intl: IntlShape, kind: WorkflowKind, transactionId: string | null): string {
  if (transactionId === null || transactionId === '') return intl.formatMessage({ id: kindLabels[kind] });
  return intl.formatMessage({ id: 'workflow.name.transaction' }, { workflow: kind, transactionId });
}

/** The short name (panel titles, Details buttons): by transaction number, else by kind and the two clients. */
export function workflowName(intl: IntlShape, naming: WorkflowNaming): string {
  const subject = workflowSubject(intl, naming.kind, naming.transactionId);
  if (naming.transactionId !== null && naming.transactionId !== '') return subject;
  return intl.formatMessage({ id: 'workflow.name.between' }, { name: subject, initiator: naming.initiator, partner: naming.partner });
}

/** The full name (a confirmation): by transaction number when there is one, and always with the two clients. */
export function workflowFullName(intl: IntlShape, naming: WorkflowNaming): string {
  return intl.formatMessage({ id: 'workflow.name.between' }, { name: workflowSubject(intl, naming.kind, naming.transactionId), initiator: naming.initiator, partner: naming.partner });
}
