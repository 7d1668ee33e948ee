/**
 * Pre-trade clearing and the client aggregates it reads: the checks of a new or grown order (status,
 * allowed assets, maximum contracts, trading limit, funds for margin), what resting orders reserve,
 * and what trades add to a client's exposure and trade margin.
 *
 * The seam for the clearing house: the checks read their figures only from ClientState (clearingActive,
 * maxContracts, tradingLimit, funds and the aggregates below), AssetState (marginBps, contractQty) and
 * the allowed assets resolved into ResolvedRules. Setting those fields by journaled commands changes
 * the checks with no change here.
 */
import { apiError } from '../../protocol/error-codes.ts';
import { formatDecimal } from '../../protocol/decimal.ts';
import { amountOf, marginOf } from './amounts.ts';
import type { EngineState } from './engine-state.ts';
import { refuse, type Refusal } from './refusal.ts';
import { ASK, BID, NONE } from './sides.ts';
import type { AssetState, ClientAssetState, ClientState, OrderState, ResolvedRules } from './state.ts';
import { AMOUNT_DECIMALS } from './types.ts';

/** noCnt of a quantity (no division for the common contract size 1). */
export function contractsOf(a: AssetState, qty: number): number {
  return a.contractQty === 1 ? qty : Math.ceil(qty / a.contractQty);
}

/** Fills clearingAllowed and the fast-path clearingOk. */
export function resolveClearingRules(target: ResolvedRules, client: ClientState, asset: AssetState): void {
  const allowed = client.config.clearing?.allowedAssets;
  target.clearingAllowed = allowed == null || allowed.includes('*') || allowed.includes(asset.assetId);
  target.clearingOk = client.clearingActive && target.clearingAllowed;
}

/** True when `value` / `margin` / `contracts` more pass every clearing check; false means "ask clearingRefusal". */
export function clearingOk(client: ClientState, rules: ResolvedRules, value: number, margin: number, contracts: number): boolean {
  return (
    rules.clearingOk &&
    (client.maxContracts === NONE || client.openContracts + contracts <= client.maxContracts) &&
    (client.tradingLimit === NONE || client.openValue + client.tradedValue + value <= client.tradingLimit) &&
    (client.funds === NONE || margin === 0 || margin <= client.funds - client.reservedMargin - client.tradesMargin)
  );
}

/** Pre-trade clearing for an additional open value / margin / contract count: the first check that fails, or null. */
export function clearingRefusal(a: AssetState, client: ClientState, rules: ResolvedRules, value: number, margin: number, contracts: number): Refusal | null {
  const clientCode = client.clientCode;
  if (!client.clearingActive) return refuse(apiError('CLEARING_CLIENT_NOT_ACTIVE', { clientCode }));
  if (!rules.clearingAllowed) return refuse(apiError('CLEARING_CLIENT_NOT_ALLOWED', { clientCode, assetId: a.assetId }));
  if (client.maxContracts !== NONE && client.openContracts + contracts > client.maxContracts) return refuse(apiError('CLEARING_MAX_CONTRACTS', { max: client.maxContracts }));
  if (client.tradingLimit !== NONE) {
    const exposure = client.openValue + client.tradedValue + value;
    if (exposure > client.tradingLimit) return refuse(apiError('CLEARING_FINANCIAL_LIMIT', { limit: formatDecimal(client.tradingLimit, AMOUNT_DECIMALS), exposure: formatDecimal(exposure, AMOUNT_DECIMALS) }));
  }
  if (client.funds !== NONE && margin > 0) {
    const free = client.funds - client.reservedMargin - client.tradesMargin;
    if (margin > free) return refuse(apiError('ORDER_INSUFFICIENT_FUNDS', { amountToDeposit: formatDecimal(margin - Math.max(0, free), AMOUNT_DECIMALS), currency: a.market.config.currency }));
  }
  return null;
}

/**
 * Sets what a resting order reserves on its client (value, margin, contracts) to its open quantity.
 * A new order at its full quantity reuses the value and margin its clearing check computed (the hint).
 */
export function reserve(s: EngineState, a: AssetState, o: OrderState): void {
  const client = o.cas.client;
  let value: number;
  let margin: number;
  if (o.remaining === s.hintQty && o.tradedQty === 0 && o.status === 'created') {
    value = s.hintValue;
    margin = s.hintMargin;
  } else {
    value = amountOf(a, o.price, o.remaining);
    margin = marginOf(a.marginBps, value);
  }
  s.hintQty = -1;
  const contracts = contractsOf(a, o.remaining);
  client.openValue += value - o.reservedValue;
  client.reservedMargin += margin - o.reservedMargin;
  client.openContracts += contracts - o.reservedContracts;
  o.reservedValue = value;
  o.reservedMargin = margin;
  o.reservedContracts = contracts;
}

/** Gives back everything the order reserves (it leaves the book). */
export function release(o: OrderState): void {
  const client = o.cas.client;
  client.openValue -= o.reservedValue;
  client.reservedMargin -= o.reservedMargin;
  client.openContracts -= o.reservedContracts;
  o.reservedValue = 0;
  o.reservedMargin = 0;
  o.reservedContracts = 0;
}

/** A trade of `q` at `price` between the buyer's and the seller's records: traded quantities, value, exposure and trade margin. */
export function recordTrade(a: AssetState, bc: ClientAssetState, sc: ClientAssetState, q: number, price: number): void {
  bc.tradedQty[BID] += q;
  bc.tradedTotalQty += q;
  bc.tradedValue += q * price;
  sc.tradedQty[ASK] += q;
  sc.tradedTotalQty += q;
  sc.tradedValue += q * price;
  const value = amountOf(a, price, q);
  const margin = marginOf(a.marginBps, value);
  bc.tradedAmount += value;
  bc.tradesMargin += margin;
  bc.client.tradedValue += value;
  bc.client.tradesMargin += margin;
  sc.tradedAmount += value;
  sc.tradesMargin += margin;
  sc.client.tradedValue += value;
  sc.client.tradesMargin += margin;
}

/** A new session: the traded exposure and trade margins of the last one leave with it (clearing settles them). */
export function settleSession(cas: ClientAssetState): void {
  cas.client.tradedValue -= cas.tradedAmount;
  cas.client.tradesMargin -= cas.tradesMargin;
  cas.tradedAmount = 0;
  cas.tradesMargin = 0;
}
