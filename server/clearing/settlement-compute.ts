import { createHash } from 'node:crypto';
import { CLEARING_AMOUNT_DECIMALS, type BankCommission, type BatchTransaction, type DailySettlementNote, type PaymentObligation } from '../../protocol/clearing.ts';
import { ceilDiv, floorDiv } from './settlement-price.ts';

/**
 * The settlement of one market and session date, as pure arithmetic (docs/clearing.md "## Settlement"):
 * variation margin on forward positions, delivery value of spot transactions, the exchange fee, bank
 * commissions, and the obligations to pay and to receive they become. settlement-run.ts gathers the
 * inputs from the store and writes the result in one transaction.
 */

/** The bank's charge for each payment a client makes to the clearing house (5.00 RON), passed on to the client. */
export const BANK_COMMISSION_PER_PAYMENT = 500n;

export interface SettlementAsset {
  assetId: string;
  assetName: string;
  priceDecimals: number;
  quantityDecimals: number;
  /** Forward: positions carry over and are marked to the daily settlement price. Spot: settled in full. */
  forward: boolean;
  /** Exchange fee per whole quantity unit, currency minor units, each side. */
  feePerUnit: bigint;
  /** The daily settlement price in force for the session (null: the asset never had one). */
  price: number | null;
  /** The price in force the session before. */
  previousPrice: number | null;
}

export interface SettlementTrade {
  transactionId: string;
  assetId: string;
  buyer: string;
  seller: string;
  price: number;
  qty: number;
  noCnt: number;
  /** false: the transaction's margins are not counted yet (an OTC deal before activation): no variation margin on it. Default true. */
  marginsExposureActive?: boolean;
}

export interface SettlementInput {
  settlementRunId: string;
  marketId: string;
  sessionDate: string;
  currency: string;
  /** When the run happened (ISO): createdAt of what it writes. */
  at: string;
  dueDate: string;
  assets: readonly SettlementAsset[];
  clients: ReadonlyMap<string, { name: string; fiscalCode: string }>;
  trades: readonly SettlementTrade[];
  /** Positions carried into the session on the market's forward assets. */
  openingPositions: ReadonlyArray<{ clientCode: string; assetId: string; qty: number }>;
  /**
   * Forward transactions an earlier run carried and that were novated (transferred to the central
   * counterparty) in this session, each as its reverse (buyer and seller swapped, at its own price):
   * they take the transaction out of the opening position, whose children are today's trades. They
   * move the position and the variation margin only: no fee, no batch row, no report (docs/clearing.md
   * "Unwinding a transaction novated after a settlement").
   */
  unwinds?: readonly SettlementTrade[];
}

export type ObligationRow = Omit<PaymentObligation, 'clientName' | 'settledAt' | 'settledBy' | 'status'>;
export type CommissionRow = Omit<BankCommission, 'name' | 'fiscalCode'> & { settlementRunId: string };

/** A batch row as stored: with the transaction's parties, so each sees its own. */
export type BatchRow = BatchTransaction & { buyer: string; seller: string };

export interface SettlementResult {
  sessionDate: string;
  /** The run's instant: createdAt and reportedAt of what it writes. */
  createdAt: string;
  notes: DailySettlementNote[];
  obligations: ObligationRow[];
  commissions: CommissionRow[];
  batches: BatchRow[];
  positions: Array<{ clientCode: string; assetId: string; qty: number }>;
  reports: Array<{ reportId: string; clientCode: string; title: string }>;
  clients: number;
  resultHash: string;
}

/** An id within the protocol's 64 characters: readable when it fits, else its prefix and a hash. */
export function settlementId(...parts: string[]): string {
  const readable = parts.join('-').replace(/[^A-Za-z0-9_-]/g, '_');
  if (readable.length <= 64) return readable;
  return `${parts[0]}-${createHash('sha256').update(readable).digest('hex').slice(0, 40)}`;
}

function safe(value: bigint): number {
  const asNumber = Number(value);
  if (!Number.isSafeInteger(asNumber)) throw new RangeError('settlement amount exceeds the safe integer range');
  return asNumber;
}

/** price·qty (asset minor units) in currency minor units, rounded down (floor). */
function amountFloor(raw: bigint, asset: SettlementAsset): bigint {
  const shift = CLEARING_AMOUNT_DECIMALS - asset.priceDecimals - asset.quantityDecimals;
  return shift >= 0 ? raw * 10n ** BigInt(shift) : floorDiv(raw, 10n ** BigInt(-shift));
}

function amountCeil(raw: bigint, asset: SettlementAsset): bigint {
  return -amountFloor(-raw, asset);
}

/**
 * How a transaction is reported to clearing: in pieces of one whole quantity unit (1 MWh) when the
 * contract size is smaller and the quantity is whole units, else of the contract size (qty / noCnt),
 * else as one piece.
 */
function piecesOf(trade: SettlementTrade, asset: SettlementAsset): { pieces: number; piecesCnt: number } {
  const unit = 10 ** asset.quantityDecimals;
  const contract = trade.noCnt > 0 && trade.qty % trade.noCnt === 0 ? trade.qty / trade.noCnt : null;
  if (contract !== null && contract >= unit) return { pieces: contract, piecesCnt: trade.qty / contract };
  if (trade.qty % unit === 0) return { pieces: unit, piecesCnt: trade.qty / unit };
  if (contract !== null) return { pieces: contract, piecesCnt: trade.qty / contract };
  return { pieces: trade.qty, piecesCnt: 1 };
}

interface Line {
  asset: SettlementAsset;
  opening: bigint;
  bought: bigint;
  sold: bigint;
  /** Σ over today's trades of ±qty·(DSP − trade price): + for buys, − for sells. */
  tradeMark: bigint;
  /** The part of bought + sold that unwinds: in the quantities, so opening + bought − sold = closing, but charged no fee. */
  unwound: bigint;
  /** − Σ ceil(buy value) + Σ floor(sell value), spot only. */
  delivery: bigint;
}

export function computeSettlement(input: SettlementInput): SettlementResult {
  const assets = new Map(input.assets.map((asset) => [asset.assetId, asset]));
  const lines = new Map<string, Map<string, Line>>();
  const lineOf = (clientCode: string, asset: SettlementAsset): Line => {
    let byAsset = lines.get(clientCode);
    if (!byAsset) lines.set(clientCode, (byAsset = new Map()));
    let line = byAsset.get(asset.assetId);
    if (!line) byAsset.set(asset.assetId, (line = { asset, opening: 0n, bought: 0n, sold: 0n, tradeMark: 0n, unwound: 0n, delivery: 0n }));
    return line;
  };
  for (const position of input.openingPositions) {
    const asset = assets.get(position.assetId);
    if (asset?.forward && position.qty !== 0) lineOf(position.clientCode, asset).opening += BigInt(position.qty);
  }

  const obligations: ObligationRow[] = [];
  const batches: BatchRow[] = [];
  const obligation = (clientCode: string, kind: ObligationRow['kind'], transactionId: string | null, direction: ObligationRow['direction'], amount: bigint, id: string): void => {
    if (amount === 0n) return;
    obligations.push({
      obligationId: id,
      settlementRunId: input.settlementRunId,
      clientCode,
      marketId: input.marketId,
      sessionDate: input.sessionDate,
      kind,
      transactionId,
      direction,
      amount: safe(amount),
      currency: input.currency,
      dueDate: input.dueDate,
    });
  };
  // An unwind reverses a carried forward transaction to its own price (its children are marked from there): position and variation only.
  for (const unwind of input.unwinds ?? []) {
    const asset = assets.get(unwind.assetId);
    if (!asset?.forward) continue;
    const qty = BigInt(unwind.qty);
    const buy = lineOf(unwind.buyer, asset);
    const sell = lineOf(unwind.seller, asset);
    buy.bought += qty;
    buy.unwound += qty;
    sell.sold += qty;
    sell.unwound += qty;
    if (asset.price !== null && unwind.marginsExposureActive !== false) {
      const mark = qty * (BigInt(asset.price) - BigInt(unwind.price));
      buy.tradeMark += mark;
      sell.tradeMark -= mark;
    }
  }
  const batchId = settlementId('CB', input.marketId, input.sessionDate);
  const trades = [...input.trades].sort((a, b) => Number(BigInt(a.transactionId) - BigInt(b.transactionId)));
  for (const trade of trades) {
    const asset = assets.get(trade.assetId);
    if (!asset) continue;
    const qty = BigInt(trade.qty);
    const raw = BigInt(trade.price) * qty;
    const buy = lineOf(trade.buyer, asset);
    const sell = lineOf(trade.seller, asset);
    buy.bought += qty;
    sell.sold += qty;
    if (asset.forward) {
      if (asset.price !== null && trade.marginsExposureActive !== false) {
        const mark = qty * (BigInt(asset.price) - BigInt(trade.price));
        buy.tradeMark += mark;
        sell.tradeMark -= mark;
      }
    } else {
      // Settled in full, one obligation per side and transaction: the buyer pays the value rounded up, the seller receives it rounded down.
      const pays = amountCeil(raw, asset);
      const receives = amountFloor(raw, asset);
      buy.delivery -= pays;
      sell.delivery += receives;
      obligation(trade.buyer, 'transaction', trade.transactionId, 'pay', pays, settlementId('OB', trade.transactionId, 'B'));
      obligation(trade.seller, 'transaction', trade.transactionId, 'receive', receives, settlementId('OB', trade.transactionId, 'S'));
    }
    const { pieces, piecesCnt } = piecesOf(trade, asset);
    batches.push({
      batchId,
      transactionId: trade.transactionId,
      reportedAt: input.at,
      singlePieceAmount: safe(amountCeil(BigInt(trade.price) * BigInt(pieces), asset)),
      assetId: asset.assetId,
      assetName: asset.assetName,
      pieces,
      piecesCnt,
      quantityDecimals: asset.quantityDecimals,
      buyer: trade.buyer,
      seller: trade.seller,
    });
  }

  const notes: DailySettlementNote[] = [];
  const commissions: CommissionRow[] = [];
  const positions: SettlementResult['positions'] = [];
  const reports: SettlementResult['reports'] = [];
  const tradedClients = new Set(trades.flatMap((trade) => [trade.buyer, trade.seller]));
  for (const clientCode of [...lines.keys()].sort()) {
    const byAsset = lines.get(clientCode)!;
    let variationMargin = 0n;
    let deliveryValue = 0n;
    let exchangeFee = 0n;
    const noteLines: DailySettlementNote['lines'] = [];
    for (const assetId of [...byAsset.keys()].sort()) {
      const line = byAsset.get(assetId)!;
      const { asset } = line;
      const closing = line.opening + line.bought - line.sold;
      let lineMargin = 0n;
      if (asset.forward) {
        const carried = asset.price !== null && asset.previousPrice !== null ? line.opening * (BigInt(asset.price) - BigInt(asset.previousPrice)) : 0n;
        // + the client gains (rounded down), − it owes (rounded up): floor either way.
        lineMargin = amountFloor(carried + line.tradeMark, asset);
        positions.push({ clientCode, assetId, qty: safe(closing) });
      }
      const fee = ceilDiv((line.bought + line.sold - line.unwound) * asset.feePerUnit, 10n ** BigInt(asset.quantityDecimals));
      variationMargin += lineMargin;
      deliveryValue += line.delivery;
      exchangeFee += fee;
      noteLines.push({
        assetId,
        assetName: asset.assetName,
        priceDecimals: asset.priceDecimals,
        quantityDecimals: asset.quantityDecimals,
        openingQty: safe(line.opening),
        boughtQty: safe(line.bought),
        soldQty: safe(line.sold),
        closingQty: safe(closing),
        previousSettlementPrice: asset.forward ? asset.previousPrice : null,
        settlementPrice: asset.price,
        variationMargin: safe(lineMargin),
        deliveryValue: safe(line.delivery),
        fees: safe(fee),
      });
    }
    // Variation margin nets across the market's forwards into one obligation per client and day.
    obligation(clientCode, 'variation_margin', null, variationMargin < 0n ? 'pay' : 'receive', variationMargin < 0n ? -variationMargin : variationMargin, settlementId('OB-VM', input.marketId, clientCode, input.sessionDate));
    // One commission per payment the client makes: the pay obligations so far, and the fees obligation itself, which exists when there is anything to charge.
    const payments = obligations.filter((row) => row.clientCode === clientCode && row.direction === 'pay').length;
    const feesPaymentNeeded = exchangeFee > 0n || payments > 0;
    const paymentCount = payments + (feesPaymentNeeded ? 1 : 0);
    const bankCommissions = BANK_COMMISSION_PER_PAYMENT * BigInt(paymentCount);
    if (paymentCount > 0) {
      commissions.push({
        id: settlementId('BC', input.marketId, clientCode, input.sessionDate),
        settlementRunId: input.settlementRunId,
        clientId: clientCode,
        date: input.sessionDate,
        info: `${input.marketId} ${input.sessionDate}: ${paymentCount} × ${formatAmount(BANK_COMMISSION_PER_PAYMENT)} ${input.currency}`,
        commission: safe(bankCommissions),
        currency: input.currency,
      });
    }
    obligation(clientCode, 'fees', null, 'pay', exchangeFee + bankCommissions, settlementId('OB-FE', input.marketId, clientCode, input.sessionDate));
    const own = obligations.filter((row) => row.clientCode === clientCode);
    const toPay = own.filter((row) => row.direction === 'pay').reduce((sum, row) => sum + BigInt(row.amount), 0n);
    const toReceive = own.filter((row) => row.direction === 'receive').reduce((sum, row) => sum + BigInt(row.amount), 0n);
    notes.push({
      noteId: settlementId('DN', input.marketId, clientCode, input.sessionDate),
      settlementRunId: input.settlementRunId,
      clientCode,
      clientName: input.clients.get(clientCode)?.name ?? clientCode,
      marketId: input.marketId,
      sessionDate: input.sessionDate,
      currency: input.currency,
      lines: noteLines,
      variationMargin: safe(variationMargin),
      deliveryValue: safe(deliveryValue),
      fees: safe(exchangeFee),
      bankCommissions: safe(bankCommissions),
      toPay: safe(toPay),
      toReceive: safe(toReceive),
      createdAt: input.at,
    });
    if (tradedClients.has(clientCode)) reports.push({ reportId: settlementId('TR', clientCode, input.sessionDate), clientCode, title: `Raport tranzacții ${input.sessionDate}` });
  }
  obligations.sort((a, b) => (a.clientCode === b.clientCode ? a.obligationId.localeCompare(b.obligationId) : a.clientCode.localeCompare(b.clientCode)));
  const resultHash = createHash('sha256').update(JSON.stringify({ notes, obligations, commissions, batches, positions, reports })).digest('base64url');
  return { sessionDate: input.sessionDate, createdAt: input.at, notes, obligations, commissions, batches, positions, reports, clients: notes.length, resultHash };
}

/** 500 → "5.00": the amount in the commission's info text. */
function formatAmount(amount: bigint): string {
  const scale = 10n ** BigInt(CLEARING_AMOUNT_DECIMALS);
  return `${amount / scale}.${(amount % scale).toString().padStart(CLEARING_AMOUNT_DECIMALS, '0')}`;
}
