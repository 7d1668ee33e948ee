/**
 * Rights and roles of a client on an asset: client status, agency, trading rights per direction,
 * the ask restriction, owner sides, the transmission side and gas release.
 *
 * Fast path: the static part (everything but the agency, which depends on the actor) is resolved
 * per client and asset into ResolvedRules.bidOk / askOk once per configuration change.
 */
import { apiError } from '../../../protocol/error-codes.ts';
import { refuse, type Refusal } from '../refusal.ts';
import { ASK, BID, NONE, sideOf, wayOf, type SideIndex } from '../sides.ts';
import type { AssetState, ClientState, ResolvedRules } from '../state.ts';

/** The entry of a per-asset record for `assetId`, else its '*' entry. */
export function pickForAsset<T>(record: Record<string, T> | undefined, assetId: string): T | undefined {
  if (!record) return undefined;
  return Object.prototype.hasOwnProperty.call(record, assetId) ? record[assetId] : Object.prototype.hasOwnProperty.call(record, '*') ? record['*'] : undefined;
}

/** Fills canBid, canAsk, ownerSide, gasReleaseOk and the fast-path bidOk / askOk. */
export function resolveRights(target: ResolvedRules, client: ClientState, asset: AssetState): void {
  const cc = client.config;
  const ac = asset.config;
  const rights = pickForAsset(cc.rights, asset.assetId);
  target.canBid = rights?.bid ?? false;
  target.canAsk = rights?.ask ?? false;
  const owner = ac.ownerSides && Object.prototype.hasOwnProperty.call(ac.ownerSides, client.clientCode) ? ac.ownerSides[client.clientCode] : undefined;
  target.ownerSide = owner ? sideOf(owner) : NONE;
  const gr = cc.gasReleaseAssets ?? [];
  target.gasReleaseOk = gr.includes('*') || gr.includes(asset.assetId);
  target.bidOk = sideOk(target, client, asset, BID, target.canBid);
  target.askOk = sideOk(target, client, asset, ASK, target.canAsk);
}

function sideOk(rules: ResolvedRules, client: ClientState, asset: AssetState, side: SideIndex, can: boolean): boolean {
  return (
    client.active &&
    can &&
    !(side === ASK && client.restrictedAsk) &&
    (rules.ownerSide === NONE || rules.ownerSide === side) &&
    (asset.transmissionSide === NONE || (side === asset.transmissionSide ? client.transmissionActive : !client.transmissionPartner)) &&
    (!asset.gasRelease || rules.gasReleaseOk)
  );
}

/** True when the client may place on `side` for this actor; false means "ask participantRefusal". */
export function participantOk(rules: ResolvedRules, client: ClientState, side: SideIndex, agencyId: string | null | undefined): boolean {
  return (side === BID ? rules.bidOk : rules.askOk) && !(agencyId && client.agencyId !== agencyId);
}

/** An agency actor acts only for its own clients. */
export function agencyRefusal(client: ClientState, agencyId: string | null | undefined): Refusal | null {
  if (agencyId && client.agencyId !== agencyId) return refuse(apiError('ORDER_AGENCY_CLIENT_FORBIDDEN', { clientCode: client.clientCode }));
  return null;
}

/** The first participant rule an order on `side` breaks, or null: status, agency, right, ask restriction, owner side, transmission, gas release. */
export function participantRefusal(a: AssetState, client: ClientState, rules: ResolvedRules, agencyId: string | null | undefined, side: SideIndex): Refusal | null {
  const clientCode = client.clientCode;
  if (!client.active) return refuse(apiError('ORDER_CLIENT_NOT_ACTIVE', { clientCode }));
  const agency = agencyRefusal(client, agencyId);
  if (agency !== null) return agency;
  if (!(side === BID ? rules.canBid : rules.canAsk)) return refuse(apiError('ORDER_NO_RIGHT', { clientCode, assetId: a.assetId, way: wayOf(side) }));
  if (side === ASK && client.restrictedAsk) return refuse(apiError('ORDER_CLIENT_RESTRICTED_ASK', { clientCode }));
  if (rules.ownerSide !== NONE && rules.ownerSide !== side) return refuse(apiError('ORDER_SIDE_RESTRICTED', { way: wayOf(side) }));
  if (a.transmissionSide !== NONE) {
    if (side === a.transmissionSide) {
      if (!client.transmissionActive) return refuse(apiError('ORDER_NOT_TRANSMISSION_PARTNER', { clientCode }));
    } else if (client.transmissionPartner) {
      return refuse(apiError('ORDER_TRANSMISSION_SIDE_RESTRICTED', { way: wayOf(side) }));
    }
  }
  if (a.gasRelease && !rules.gasReleaseOk) return refuse(apiError('ORDER_GAS_RELEASE_FORBIDDEN', { clientCode, assetId: a.assetId }));
  return null;
}
