/**
 * Post-trade commands on transactions: an off-book transaction (OTC deal) registered into the parties'
 * trade accounting, the transfer (novation) of a transaction to the central counterparty's asset, and
 * the switch of a transaction's margin exposure.
 *
 * The engine keeps a TransactionRecord of every off-book transaction and of every book transaction a
 * post-trade command touched (a book trade's facts come with the command: see TransactionFacts);
 * book trades themselves stay records-free on the hot path.
 *
 * The engine's trade accounting (ClientAssetState.tradedAmount / tradesMargin) holds the trades of the
 * asset's current session until clearing settles them (settleSession). A transaction leaves or changes
 * that accounting only while it is still there: its txDate is the asset's session date; what is taken
 * out is bounded by what the client's record holds (after settleSessionTrades it holds nothing).
 */
import { apiError } from '../../protocol/error-codes.ts';
import { amountOf, marginOf } from './amounts.ts';
import { contractsOf } from './clearing.ts';
import type { EngineState } from './engine-state.ts';
import { transactionViewOfRecord } from './events.ts';
import { clientAsset } from './orders.ts';
import { formatQty, refuse, type Refusal } from './refusal.ts';
import { isPositiveInt } from './rules/quantity.ts';
import { ASK, BID } from './sides.ts';
import type { AssetState, ClientAssetState } from './state.ts';
import { suspensionFree, suspensionRefusal } from './rules/participant-suspension.ts';
import type {
  NovateTransactionCommand,
  RegisterOffBookTradeCommand,
  SetTransactionMarginsExposureCommand,
  TransactionFacts,
  TransactionRecord,
} from './types.ts';

const invalid = (field: string, issue: string): Refusal => refuse(apiError('REQUEST_INVALID', { field, issue }));
const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const isIdOrNull = (value: unknown): boolean => value === null || isId(value);
const isTimeOrNull = (value: unknown): boolean => value === null || (typeof value === 'number' && Number.isFinite(value));

/** A party of an off-book transaction: known to the engine and active for trading and clearing. */
function partyRefusal(s: EngineState, clientCode: unknown): Refusal | null {
  if (typeof clientCode !== 'string') return invalid('clientCode', 'missing');
  const client = s.clients.get(clientCode);
  // An unknown client is not active for trading either (the engine knows every client set up to trade).
  if (client === undefined || !client.active || !client.clearingActive) return refuse(apiError('CLEARING_CLIENT_NOT_ACTIVE', { clientCode }));
  return null;
}

/** The checks of registerOffBookTrade, in order; null when it may be applied. */
function offBookRefusal(s: EngineState, c: RegisterOffBookTradeCommand): Refusal | null {
  const a = typeof c.assetId === 'string' ? s.assets.get(c.assetId) : undefined;
  if (a === undefined) return refuse(apiError('ORDER_ASSET_ID_INVALID', { assetId: String(c.assetId) }));
  const party = partyRefusal(s, c.buyer) ?? partyRefusal(s, c.seller);
  if (party !== null) return party;
  // A suspended client registers no new OTC deal; transfer and split children (post-trade of an existing deal) go on.
  if (c.origin === 'otc' && !suspensionFree(s.suspensions)) {
    const r = suspensionRefusal(s.suspensions, c.buyer, null) ?? suspensionRefusal(s.suspensions, c.seller, null);
    if (r !== null) return r;
  }
  if (c.buyer === c.seller) return refuse(apiError('TRANSACTION_SAME_PARTY', { clientCode: c.buyer }));
  if (!isPositiveInt(c.price)) return invalid('price', 'notPositiveInteger');
  if (!isPositiveInt(c.qty)) return invalid('qty', 'notPositiveInteger');
  if (c.origin !== 'otc' && c.origin !== 'transfer' && c.origin !== 'split') return invalid('origin', 'invalid');
  if (!isIdOrNull(c.parentTransactionId)) return invalid('parentTransactionId', 'invalid');
  if (!isIdOrNull(c.grandParentTransactionId)) return invalid('grandParentTransactionId', 'invalid');
  if (!isTimeOrNull(c.transferTimestamp)) return invalid('transferTimestamp', 'invalid');
  if (!isTimeOrNull(c.splitTimestamp)) return invalid('splitTimestamp', 'invalid');
  if (c.externalTransactionId !== null && typeof c.externalTransactionId !== 'string') return invalid('externalTransactionId', 'invalid');
  if (typeof c.marginsExposureActive !== 'boolean') return invalid('marginsExposureActive', 'invalid');
  return null;
}

/** The parties' records on the asset (made on first contact, as an order makes them). */
function partiesOf(s: EngineState, a: AssetState, buyer: string, seller: string): [ClientAssetState, ClientAssetState] {
  return [clientAsset(s, a, s.clients.get(buyer)!), clientAsset(s, a, s.clients.get(seller)!)];
}

/**
 * A new transaction of the engine's sequence, counted as a book trade of the asset would be (traded
 * quantities, value, exposure; the margin only with marginsExposureActive), and announced.
 */
function book(s: EngineState, a: AssetState, fields: Omit<TransactionRecord, 'transactionId' | 'marketId' | 'noCnt' | 'txDate' | 'status' | 'assetId'>): TransactionRecord {
  const record: TransactionRecord = {
    transactionId: s.nextTransactionId++,
    assetId: a.assetId,
    marketId: a.marketId,
    noCnt: contractsOf(a, fields.qty),
    txDate: a.sessionDate,
    status: 'active',
    ...fields,
  };
  s.transactions.set(record.transactionId, record);
  const [bc, sc] = partiesOf(s, a, record.buyer, record.seller);
  const q = record.qty;
  const value = amountOf(a, record.price, q);
  const margin = record.marginsExposureActive ? marginOf(a.marginBps, value) : 0;
  bc.tradedQty[BID] += q;
  bc.tradedTotalQty += q;
  bc.tradedValue += q * record.price;
  sc.tradedQty[ASK] += q;
  sc.tradedTotalQty += q;
  sc.tradedValue += q * record.price;
  for (const cas of [bc, sc]) {
    cas.tradedAmount += value;
    cas.tradesMargin += margin;
    cas.client.tradedValue += value;
    cas.client.tradesMargin += margin;
  }
  s.emit({ type: 'offBookTrade', seq: s.changedCommands + 1, at: record.timestamp, transaction: transactionViewOfRecord(record) });
  return record;
}

/** Takes up to `value` and `margin` out of a party's accounting (never below what it holds). */
function takeOut(cas: ClientAssetState, value: number, margin: number): void {
  const v = Math.min(value, cas.tradedAmount);
  const m = Math.min(margin, cas.tradesMargin);
  cas.tradedAmount -= v;
  cas.tradesMargin -= m;
  cas.client.tradedValue -= v;
  cas.client.tradesMargin -= m;
}

/** Whether the engine's accounting still holds the transaction (its asset's session is its session). */
function counted(s: EngineState, r: TransactionRecord): AssetState | null {
  const a = s.assets.get(r.assetId);
  return a !== undefined && a.sessionDate === r.txDate && s.clients.has(r.buyer) && s.clients.has(r.seller) ? a : null;
}

function updated(s: EngineState, r: TransactionRecord, at: number): void {
  s.emit({
    type: 'transactionUpdate',
    seq: s.changedCommands + 1,
    at,
    transactionId: r.transactionId,
    assetId: r.assetId,
    buyer: r.buyer,
    seller: r.seller,
    status: r.status,
    marginsExposureActive: r.marginsExposureActive,
    transaction: transactionViewOfRecord(r),
  });
}

export function registerOffBookTrade(s: EngineState, c: RegisterOffBookTradeCommand): Refusal | null {
  const refusal = offBookRefusal(s, c);
  if (refusal !== null) return refusal;
  book(s, s.assets.get(c.assetId)!, {
    buyer: c.buyer,
    seller: c.seller,
    price: c.price,
    qty: c.qty,
    timestamp: c.at,
    origin: c.origin,
    marginsExposureActive: c.marginsExposureActive,
    parentTransactionId: c.parentTransactionId,
    grandParentTransactionId: c.grandParentTransactionId,
    transferTimestamp: c.transferTimestamp,
    splitTimestamp: c.splitTimestamp,
    externalTransactionId: c.externalTransactionId,
  });
  return null;
}

/** The facts of a book transaction as sent: well formed and of an id the sequence has given out. */
function factsOk(s: EngineState, transactionId: number, f: TransactionFacts | null | undefined): f is TransactionFacts {
  return (
    f != null &&
    f.transactionId === transactionId &&
    transactionId < s.nextTransactionId &&
    typeof f.assetId === 'string' &&
    s.assets.has(f.assetId) &&
    typeof f.buyer === 'string' &&
    typeof f.seller === 'string' &&
    isPositiveInt(f.price) &&
    isPositiveInt(f.qty) &&
    typeof f.txDate === 'string' &&
    typeof f.timestamp === 'number' &&
    isIdOrNull(f.parentTransactionId) &&
    isIdOrNull(f.grandParentTransactionId) &&
    typeof f.marginsExposureActive === 'boolean' &&
    (f.buyOrderId == null || isId(f.buyOrderId)) &&
    (f.sellOrderId == null || isId(f.sellOrderId)) &&
    (f.aggressor == null || f.aggressor === 'bid' || f.aggressor === 'ask')
  );
}

/** The transaction the command is about: held, or made from its facts (not stored until the command applies). */
function subject(s: EngineState, transactionId: unknown, original: TransactionFacts | null | undefined): TransactionRecord | Refusal {
  if (!isId(transactionId)) return refuse(apiError('TRANSACTION_NOT_FOUND', { transactionId: String(transactionId) }));
  const held = s.transactions.get(transactionId);
  if (held !== undefined) return held;
  if (!factsOk(s, transactionId, original)) return refuse(apiError('TRANSACTION_NOT_FOUND', { transactionId }));
  const a = s.assets.get(original.assetId)!;
  return {
    transactionId,
    assetId: original.assetId,
    marketId: a.marketId,
    buyer: original.buyer,
    seller: original.seller,
    price: original.price,
    qty: original.qty,
    noCnt: contractsOf(a, original.qty),
    txDate: original.txDate,
    timestamp: original.timestamp,
    origin: original.origin,
    status: 'active',
    marginsExposureActive: original.marginsExposureActive,
    parentTransactionId: original.parentTransactionId,
    grandParentTransactionId: original.grandParentTransactionId,
    transferTimestamp: null,
    splitTimestamp: null,
    externalTransactionId: null,
    ...(original.buyOrderId != null ? { buyOrderId: original.buyOrderId } : {}),
    ...(original.sellOrderId != null ? { sellOrderId: original.sellOrderId } : {}),
    ...(original.aggressor != null ? { aggressor: original.aggressor } : {}),
  };
}

const isRefusal = (value: TransactionRecord | Refusal): value is Refusal => 'result' in value;

export function novateTransaction(s: EngineState, c: NovateTransactionCommand): Refusal | null {
  const r = subject(s, c.transactionId, c.original);
  if (isRefusal(r)) return r;
  const transactionId = r.transactionId;
  if (r.status === 'superseded') return refuse(apiError('TRANSFER_ALREADY_DONE', { transactionId }));
  const origin = s.assets.get(r.assetId)!;
  if (!isPositiveInt(c.qty) || c.qty > r.qty) return refuse(apiError('TRANSFER_QTY_INVALID', { transactionId, max: formatQty(origin, r.qty) }));
  const target = typeof c.targetAssetId === 'string' ? s.assets.get(c.targetAssetId) : undefined;
  if (target === undefined) return refuse(apiError('ORDER_ASSET_ID_INVALID', { assetId: String(c.targetAssetId) }));
  const party = partyRefusal(s, r.buyer) ?? partyRefusal(s, r.seller);
  if (party !== null) return party;
  if (!isPositiveInt(r.qty)) return invalid('qty', 'notPositiveInteger');

  // The original leaves the engine's accounting (while it is still there) and is superseded.
  const a = counted(s, r);
  if (a !== null) {
    const value = amountOf(a, r.price, r.qty);
    const margin = r.marginsExposureActive ? marginOf(a.marginBps, value) : 0;
    const [bc, sc] = partiesOf(s, a, r.buyer, r.seller);
    takeOut(bc, value, margin);
    takeOut(sc, value, margin);
  }
  r.status = 'superseded';
  s.transactions.set(transactionId, r);
  updated(s, r, c.at);
  const common = { buyer: r.buyer, seller: r.seller, price: r.price, timestamp: c.at, externalTransactionId: null } as const;
  book(s, target, {
    ...common,
    qty: c.qty,
    origin: 'transfer',
    marginsExposureActive: target.bookTradesMargined,
    parentTransactionId: transactionId,
    grandParentTransactionId: r.parentTransactionId,
    transferTimestamp: c.at,
    splitTimestamp: null,
  });
  if (c.qty < r.qty) {
    book(s, origin, {
      ...common,
      qty: r.qty - c.qty,
      origin: 'split',
      marginsExposureActive: r.marginsExposureActive,
      parentTransactionId: transactionId,
      grandParentTransactionId: r.parentTransactionId,
      transferTimestamp: null,
      splitTimestamp: c.at,
    });
  }
  return null;
}

export function setTransactionMarginsExposure(s: EngineState, c: SetTransactionMarginsExposureCommand): Refusal | null {
  const r = subject(s, c.transactionId, c.original);
  if (isRefusal(r)) return r;
  if (typeof c.active !== 'boolean') return invalid('active', 'invalid');
  // Nothing to change: no event, not journaled.
  if (r.marginsExposureActive === c.active) return null;
  if (r.status === 'active') {
    const a = counted(s, r);
    if (a !== null) {
      const margin = marginOf(a.marginBps, amountOf(a, r.price, r.qty));
      const [bc, sc] = partiesOf(s, a, r.buyer, r.seller);
      if (c.active) {
        for (const cas of [bc, sc]) {
          cas.tradesMargin += margin;
          cas.client.tradesMargin += margin;
        }
      } else {
        takeOut(bc, 0, margin);
        takeOut(sc, 0, margin);
      }
    }
  }
  r.marginsExposureActive = c.active;
  s.transactions.set(r.transactionId, r);
  updated(s, r, c.at);
  return null;
}
