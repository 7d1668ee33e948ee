/**
 * Who acts on a workflow instance, and the role and participation questions every workflow machine's
 * guards ask. The same functions decide on the server (which accepts or refuses) and in the browser
 * (which offers only what the server would accept), so the two cannot drift.
 */
import { tradingRoles, TRADING_WRITE_SCOPE } from '../permissions.ts';

/** The administrator's scope for approving workflows (fixtures/demo/users.json). */
export const WORKFLOW_APPROVE_SCOPE = 'workflows:approve';

export interface WorkflowActor {
  /** null: the system (a timer, a check run by the server). */
  userId: string | null;
  roles: readonly string[];
  scopes: readonly string[];
  clientCodes: readonly string[];
}

export const systemActor: WorkflowActor = { userId: null, roles: [], scopes: [], clientCodes: [] };

/** The two sides of an instance, by client code. */
export interface WorkflowParties {
  initiatorClient: string;
  partnerClient: string;
}

export function isSystem(actor: WorkflowActor): boolean {
  return actor.userId === null;
}

export function isAdministrator(actor: WorkflowActor): boolean {
  return actor.userId !== null && actor.roles.includes('administrator') && actor.scopes.includes(WORKFLOW_APPROVE_SCOPE);
}

/**
 * A user acts for a client when it holds the client, places orders (a trading role with the write
 * scope) and is not the operator. A terminal holds clients but only reads.
 */
export function actsFor(actor: WorkflowActor, clientCode: string): boolean {
  if (actor.userId === null || actor.roles.includes('administrator')) return false;
  if (!actor.scopes.includes(TRADING_WRITE_SCOPE)) return false;
  if (!actor.roles.some((role) => (tradingRoles as readonly string[]).includes(role))) return false;
  return actor.clientCodes.includes(clientCode);
}

/** Sees an instance: the administrator, or a user holding either side's client (terminals included). */
export function mayView(actor: WorkflowActor, parties: WorkflowParties): boolean {
  if (actor.userId === null) return true;
  if (actor.roles.includes('administrator')) return true;
  return actor.clientCodes.includes(parties.initiatorClient) || actor.clientCodes.includes(parties.partnerClient);
}

export const isInitiatorSide = (actor: WorkflowActor, parties: WorkflowParties): boolean => actsFor(actor, parties.initiatorClient);
export const isPartnerSide = (actor: WorkflowActor, parties: WorkflowParties): boolean => actsFor(actor, parties.partnerClient);
