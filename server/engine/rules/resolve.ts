/**
 * The rules of one client on one asset, resolved from both configurations into ResolvedRules (the
 * fast-path flags of the hot path). Each rule family fills its own fields.
 */
import { resolveClearingRules } from '../clearing.ts';
import type { AssetState, ClientState, ResolvedRules } from '../state.ts';
import { resolvePositionLimits } from './position-limits.ts';
import { resolveRights } from './rights.ts';

export function resolveRules(target: ResolvedRules, client: ClientState, asset: AssetState, epoch: number): void {
  resolveRights(target, client, asset);
  resolvePositionLimits(target, client, asset);
  resolveClearingRules(target, client, asset);
  target.epoch = epoch;
}
