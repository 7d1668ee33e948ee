/**
 * How a workflow item is named to brokers, clients and administrators: by the number of the
 * transaction it is about, as its row shows it ('Contract of transaction 1001'), or, without one (a
 * whitelist request, an OTC deal not yet a transaction), by its kind, its two clients and when it was
 * registered ('OTC deal between RO-HIDRO and RO-TERMO, registered 06/12/2026, 10:42:05'): two deals
 * of the same clients never share a name. The instance id is internal: only the operator console's
 * Workflows tab shows it, for support.
 */
import type { IntlShape } from 'react-intl';
import type { WorkflowInstance, WorkflowKind } from '../../protocol/workflows.ts';
import { formatExchangeDateTime } from '../i18n/format.ts';
import { kindLabels, transactionOf } from './labels.ts';

export interface WorkflowNaming {
  kind: WorkflowKind;
  transactionId: string | null;
  initiator: string;
  partner: string;
  /** When it was registered (ISO time): tells apart two items of the same kind and clients without a transaction. */
  createdAt: string;
}

export function namingOf(instance: WorkflowInstance): WorkflowNaming {
  return { kind: instance.kind, transactionId: transactionOf(instance), initiator: instance.initiatorClient, partner: instance.partnerClient, createdAt: instance.createdAt };
}

/** The kind with its transaction's number ('Transfer to CCP of transaction 1001'), or its kind alone when there is none. */
export function workflowSubject(intl: IntlShape, kind: WorkflowKind, transactionId: string | null): string {
  if (transactionId === null || transactionId === '') return intl.formatMessage({ id: kindLabels[kind] });
  return intl.formatMessage({ id: 'workflow.name.transaction' }, { workflow: kind, transactionId });
}

const hasTransaction = (naming: WorkflowNaming): boolean => naming.transactionId !== null && naming.transactionId !== '';

/** Kind, clients and the registration time in exchange time: the name of an item without a transaction. */
function registeredName(intl: IntlShape, naming: WorkflowNaming): string {
  const name = workflowSubject(intl, naming.kind, null);
  return intl.formatMessage({ id: 'workflow.name.registered' }, { name, initiator: naming.initiator, partner: naming.partner, at: formatExchangeDateTime(intl, naming.createdAt) });
}

/** The short name (panel titles, Details buttons): by transaction number, else by kind, the two clients and the registration time. */
export function workflowName(intl: IntlShape, naming: WorkflowNaming): string {
  if (hasTransaction(naming)) return workflowSubject(intl, naming.kind, naming.transactionId);
  return registeredName(intl, naming);
}

/** The full name (a confirmation): always with the two clients; by transaction number when there is one, else with the registration time. */
export function workflowFullName(intl: IntlShape, naming: WorkflowNaming): string {
  if (!hasTransaction(naming)) return registeredName(intl, naming);
  return intl.formatMessage({ id: 'workflow.name.between' }, { name: workflowSubject(intl, naming.kind, naming.transactionId), initiator: naming.initiator, partner: naming.partner });
}
