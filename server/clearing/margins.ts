/**
 * The financial report's margin formulas (SPEC §3, docs/clearing.md "Collateral and margins"), pure
 * and exact: every product runs on BigInt; what a client must hold rounds up, what is unlocked for it
 * rounds down. The worked example of docs/clearing.md is tests/server/clearing/margins.test.ts.
 */
import type { FinancialReport, MarginParts } from '../../protocol/clearing.ts';
import { AMOUNT_DECIMALS } from '../../protocol/margin.ts';

export interface AssetScale {
  priceDecimals: number;
  quantityDecimals: number;
}

/** One trade of the client after its last settled position, on one side. */
export interface OpenTrade {
  way: 'bid' | 'ask';
  price: number;
  qty: number;
}

/** A client's position on one asset, as clearing sees it. */
export interface PositionInput {
  assetId: string;
  scale: AssetScale;
  /** Carried out of the last settled session (+ long, − short). */
  carriedQty: number;
  /** Where the carried position stands: before its delivery, in it, or past it (delivered, left to the obligations). */
  stage: 'open' | 'delivery' | 'delivered';
  /** Bought and sold in the asset's current session (the engine holds these trades' initial margin). */
  trades: readonly OpenTrade[];
  /** Trades of earlier sessions no settlement has covered yet: already in carriedQty, marked to market here. */
  priorTrades?: readonly OpenTrade[];
  /** The latest daily settlement price in force, else the last trade price; null: never traded. */
  markPrice: number | null;
  initialMarginBps: number;
  deliveryMarginBps: number;
  /** Forward (a delivery period ahead): marked to market; spot is not. */
  forward: boolean;
}

/** What the engine holds for the client now (server/engine/clearing.ts), read from getClientFinancials. */
export interface EngineFigures {
  reservedMargin: number;
  tradesMargin: number;
  openValue: number;
  tradedValue: number;
  tradingLimit: number | null;
}

export interface MarginInput {
  clearingLimit: number;
  engine: EngineFigures;
  positions: readonly PositionInput[];
  /** Σ unpaid pay obligations. */
  unpaidAmount: number;
}

export type MarginFigures = Pick<
  FinancialReport,
  'clearingLimit' | 'tradingLimit' | 'initialMargin' | 'variationMargin' | 'deliveryMargin' | 'totalExposure' | 'unpaidAmount' | 'withUnpaid' | 'withoutUnpaid'
> & {
  /** The funds figure for the engine: clearingLimit less what the engine does not hold itself (never below 0). */
  engineFunds: number;
};

const BPS = 10_000n;

function ceilDiv(numerator: bigint, divisor: bigint): bigint {
  const quotient = numerator / divisor;
  return numerator % divisor === 0n ? quotient : quotient + 1n;
}

function safe(value: bigint): number {
  const asNumber = Number(value);
  if (!Number.isSafeInteger(asNumber)) throw new RangeError('clearing figure exceeds the safe integer range');
  return asNumber;
}

/** price × qty (asset minor units) in amount units: rounded up for what is held, down for what is released. */
function amountOf(raw: bigint, scale: AssetScale, rounding: 'up' | 'down'): bigint {
  const shift = AMOUNT_DECIMALS - scale.priceDecimals - scale.quantityDecimals;
  if (shift >= 0) return raw * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  return rounding === 'up' ? ceilDiv(raw, divisor) : raw / divisor;
}

/** The value of |qty| at `price`, rounded up, as the engine values an order (protocol/margin.ts). */
export function positionValue(price: number, qty: number, scale: AssetScale): bigint {
  return amountOf(BigInt(price) * BigInt(Math.abs(qty)), scale, 'up');
}

function marginUp(value: bigint, bps: number): bigint {
  return ceilDiv(value * BigInt(bps), BPS);
}

function parts(orderPart: bigint, transactionPart: bigint, unlocked: bigint): MarginParts {
  const total = orderPart + transactionPart - unlocked;
  return { orderPart: safe(orderPart), transactionPart: safe(transactionPart), unlocked: safe(unlocked), total: safe(total > 0n ? total : 0n) };
}

/** The quantity of a carried position that the trades since have closed (a long sold, a short bought back). */
export function offsetQty(position: Pick<PositionInput, 'carriedQty' | 'trades'>): number {
  const carried = position.carriedQty;
  if (carried === 0) return 0;
  const opposite = position.trades.filter((trade) => trade.way === (carried > 0 ? 'ask' : 'bid')).reduce((sum, trade) => sum + trade.qty, 0);
  return Math.min(Math.abs(carried), opposite);
}

/** The loss of the trades since the last settlement marked to the mark price (a gain counts 0), in amount units rounded up. */
export function variationLoss(position: Pick<PositionInput, 'trades' | 'priorTrades' | 'markPrice' | 'scale'>): bigint {
  if (position.markPrice === null) return 0n;
  const mark = BigInt(position.markPrice);
  let pnl = 0n;
  for (const trade of [...(position.priorTrades ?? []), ...position.trades]) {
    const difference = trade.way === 'bid' ? mark - BigInt(trade.price) : BigInt(trade.price) - mark;
    pnl += difference * BigInt(trade.qty);
  }
  return pnl < 0n ? amountOf(-pnl, position.scale, 'up') : 0n;
}

function figures(requirement: bigint, clearingLimit: bigint) {
  return {
    currentMarginRequirement: safe(requirement),
    creditLimit: safe(clearingLimit > requirement ? clearingLimit - requirement : 0n),
    marginCall: safe(requirement > clearingLimit ? requirement - clearingLimit : 0n),
  };
}

/** The financial report's figures of one client. */
export function computeMargins(input: MarginInput): MarginFigures {
  let carriedInitial = 0n;
  let unlocked = 0n;
  let variation = 0n;
  let delivery = 0n;
  let carriedValue = 0n;
  for (const position of input.positions) {
    const mark = position.markPrice ?? 0;
    if (position.stage !== 'delivered' && position.carriedQty !== 0) carriedValue += positionValue(mark, position.carriedQty, position.scale);
    if (position.stage === 'open') {
      carriedInitial += marginUp(positionValue(mark, position.carriedQty, position.scale), position.initialMarginBps);
      // Released: the margin of the closed quantity, rounded down (the clearing house keeps the remainder).
      const closed = amountOf(BigInt(mark) * BigInt(offsetQty(position)), position.scale, 'down');
      unlocked += (closed * BigInt(position.initialMarginBps)) / BPS;
    } else if (position.stage === 'delivery') {
      delivery += marginUp(positionValue(mark, position.carriedQty, position.scale), position.deliveryMarginBps);
    }
    if (position.forward) variation += variationLoss(position);
  }
  const engine = input.engine;
  const initialMargin = parts(BigInt(engine.reservedMargin), BigInt(engine.tradesMargin) + carriedInitial, unlocked);
  const variationMargin = parts(0n, variation, 0n);
  const deliveryMargin = parts(0n, delivery, 0n);
  const withoutUnpaid = BigInt(initialMargin.total) + variation + delivery;
  const unpaid = BigInt(input.unpaidAmount);
  const limit = BigInt(input.clearingLimit);
  // The engine subtracts reservedMargin and tradesMargin itself; funds carry everything else.
  const notHeldByEngine = carriedInitial - unlocked + variation + delivery + unpaid;
  const funds = limit - notHeldByEngine;
  return {
    clearingLimit: input.clearingLimit,
    tradingLimit: engine.tradingLimit,
    initialMargin,
    variationMargin,
    deliveryMargin,
    totalExposure: safe(BigInt(engine.openValue) + BigInt(engine.tradedValue) + carriedValue),
    unpaidAmount: input.unpaidAmount,
    withoutUnpaid: figures(withoutUnpaid, limit),
    withUnpaid: figures(withoutUnpaid + unpaid, limit),
    // The engine reads a negative funds figure -1 as "not checked": a shortfall is sent as 0 (nothing more may be blocked).
    engineFunds: safe(funds > 0n ? funds : 0n),
  };
}
