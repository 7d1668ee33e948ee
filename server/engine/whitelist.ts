/**
 * Whitelist relations between clients, for bilateral (whitelist-restricted) assets: there, two
 * orders match only when their clients have an active relation. A relation is symmetric and kept both
 * ways (client -> partners), so the matching asks one set.
 */
import { apiError } from '../../protocol/error-codes.ts';
import type { EngineState } from './engine-state.ts';
import { refuse, type Refusal } from './refusal.ts';
import type { SetWhitelistRelationCommand } from './types.ts';

const NO_PARTNERS: ReadonlySet<string> = new Set();

/** The active partners of a client (empty when none). */
export function partnersOf(s: EngineState, clientCode: string): ReadonlySet<string> {
  return s.relations.get(clientCode) ?? NO_PARTNERS;
}

export function arePartners(s: EngineState, x: string, y: string): boolean {
  return s.relations.get(x)?.has(y) ?? false;
}

/** Every active relation once, as [smaller code, larger code], sorted (snapshots, the hash). */
export function relationPairs(relations: ReadonlyMap<string, ReadonlySet<string>>): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [code, partners] of relations) for (const partner of partners) if (code < partner) pairs.push([code, partner]);
  return pairs.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
}

function link(s: EngineState, from: string, to: string): void {
  let partners = s.relations.get(from);
  if (partners === undefined) s.relations.set(from, (partners = new Set()));
  partners.add(to);
}

function unlink(s: EngineState, from: string, to: string): void {
  const partners = s.relations.get(from);
  if (partners === undefined) return;
  partners.delete(to);
  if (partners.size === 0) s.relations.delete(from);
}

export function addRelation(s: EngineState, x: string, y: string): void {
  link(s, x, y);
  link(s, y, x);
}

/**
 * Sets (active) or ends a relation. The clients need not be known to the engine yet (the workflow may
 * approve a relation before a client's first order). Resting orders are not matched at once: a new
 * relation takes effect with the next order or uncross. No change: no event, not journaled.
 */
export function setWhitelistRelation(s: EngineState, c: SetWhitelistRelationCommand): Refusal | null {
  if (typeof c.clientCode !== 'string' || c.clientCode === '') return refuse(apiError('REQUEST_INVALID', { field: 'clientCode', issue: 'missing' }));
  if (typeof c.partnerCode !== 'string' || c.partnerCode === '') return refuse(apiError('REQUEST_INVALID', { field: 'partnerCode', issue: 'missing' }));
  if (c.clientCode === c.partnerCode) return refuse(apiError('TRANSACTION_SAME_PARTY', { clientCode: c.clientCode }));
  if (typeof c.active !== 'boolean') return refuse(apiError('REQUEST_INVALID', { field: 'active', issue: 'invalid' }));
  if (arePartners(s, c.clientCode, c.partnerCode) === c.active) return null;
  if (c.active) addRelation(s, c.clientCode, c.partnerCode);
  else {
    unlink(s, c.clientCode, c.partnerCode);
    unlink(s, c.partnerCode, c.clientCode);
  }
  s.emit({ type: 'config', kind: 'whitelist', id: `${c.clientCode}|${c.partnerCode}`, at: c.at });
  return null;
}
