import { describe, expect, it } from 'vitest';
import { BANK_COMMISSION_PER_PAYMENT, computeSettlement, settlementId, type SettlementInput } from '../../../server/clearing/settlement-compute.ts';
import { dueDateOf } from '../../../server/clearing/settlement-run.ts';

// The worked example of docs/clearing.md "## Settlement": every figure below is computed there by hand.
const clients = new Map([
  ['RO-HIDRO', { name: 'Hidro Furnizare SA', fiscalCode: 'RO1234567' }],
  ['RO-TERMO', { name: 'Termocentrala Vest SA', fiscalCode: 'RO7654321' }],
]);
const base = { sessionDate: '2026-11-25', currency: 'RON', at: '2026-11-25T21:45:00.000Z', dueDate: '2026-11-26', clients } as const;

const forward: SettlementInput = {
  ...base,
  settlementRunId: 'SR-EL-FWD-2026-11-25',
  marketId: 'EL-FWD',
  assets: [{ assetId: 'EFWD-M-2027-01-BASE', assetName: 'EFWD', priceDecimals: 2, quantityDecimals: 1, forward: true, feePerUnit: 10n, price: 41_083, previousPrice: 40_000 }],
  trades: [
    { transactionId: '1', assetId: 'EFWD-M-2027-01-BASE', buyer: 'RO-HIDRO', seller: 'RO-TERMO', price: 41_000, qty: 50, noCnt: 50 },
    { transactionId: '2', assetId: 'EFWD-M-2027-01-BASE', buyer: 'RO-TERMO', seller: 'RO-HIDRO', price: 41_250, qty: 25, noCnt: 25 },
  ],
  openingPositions: [
    { clientCode: 'RO-HIDRO', assetId: 'EFWD-M-2027-01-BASE', qty: 100 },
    { clientCode: 'RO-TERMO', assetId: 'EFWD-M-2027-01-BASE', qty: -100 },
  ],
};

const spot: SettlementInput = {
  ...base,
  settlementRunId: 'SR-EL-SPOT-2026-11-25',
  marketId: 'EL-SPOT',
  assets: [{ assetId: 'ESPOT-DA-BASE', assetName: 'ESPOT', priceDecimals: 2, quantityDecimals: 1, forward: false, feePerUnit: 5n, price: 35_066, previousPrice: null }],
  trades: [
    { transactionId: '3', assetId: 'ESPOT-DA-BASE', buyer: 'RO-HIDRO', seller: 'RO-TERMO', price: 35_055, qty: 123, noCnt: 123 },
    { transactionId: '4', assetId: 'ESPOT-DA-BASE', buyer: 'RO-TERMO', seller: 'RO-HIDRO', price: 35_100, qty: 40, noCnt: 40 },
  ],
  openingPositions: [],
};

const amounts = (result: ReturnType<typeof computeSettlement>) =>
  Object.fromEntries(result.obligations.map((row) => [row.obligationId, [row.kind, row.direction, row.amount, row.transactionId]]));

describe('settlement arithmetic: the worked example', () => {
  it('forward: variation margin (floor), fee (ceil), commissions and obligations', () => {
    const result = computeSettlement(forward);
    const [hidro, termo] = result.notes;
    expect(hidro).toMatchObject({ clientCode: 'RO-HIDRO', variationMargin: 11_662, deliveryValue: 0, fees: 75, bankCommissions: 500, toPay: 575, toReceive: 11_662 });
    expect(hidro!.lines).toEqual([
      expect.objectContaining({ openingQty: 100, boughtQty: 50, soldQty: 25, closingQty: 125, previousSettlementPrice: 40_000, settlementPrice: 41_083, variationMargin: 11_662, fees: 75 }),
    ]);
    expect(termo).toMatchObject({ clientCode: 'RO-TERMO', variationMargin: -11_663, fees: 75, bankCommissions: 1_000, toPay: 12_738, toReceive: 0 });
    expect(termo!.lines[0]).toMatchObject({ openingQty: -100, boughtQty: 25, soldQty: 50, closingQty: -125 });
    expect(amounts(result)).toEqual({
      'OB-FE-EL-FWD-RO-HIDRO-2026-11-25': ['fees', 'pay', 575, null],
      'OB-VM-EL-FWD-RO-HIDRO-2026-11-25': ['variation_margin', 'receive', 11_662, null],
      'OB-FE-EL-FWD-RO-TERMO-2026-11-25': ['fees', 'pay', 1_075, null],
      'OB-VM-EL-FWD-RO-TERMO-2026-11-25': ['variation_margin', 'pay', 11_663, null],
    });
    expect(result.positions).toEqual([
      { clientCode: 'RO-HIDRO', assetId: 'EFWD-M-2027-01-BASE', qty: 125 },
      { clientCode: 'RO-TERMO', assetId: 'EFWD-M-2027-01-BASE', qty: -125 },
    ]);
    expect(result.commissions.map((row) => [row.clientId, row.commission])).toEqual([['RO-HIDRO', 500], ['RO-TERMO', 1_000]]);
    expect(result.batches.map((row) => [row.transactionId, row.pieces, row.piecesCnt, row.singlePieceAmount])).toEqual([['1', 10, 5, 41_000], ['2', 1, 25, 4_125]]);
    expect(result.reports.map((row) => row.reportId)).toEqual(['TR-RO-HIDRO-2026-11-25', 'TR-RO-TERMO-2026-11-25']);
  });

  it('spot: each transaction settles in full, the buyer paying rounded up and the seller receiving rounded down', () => {
    const result = computeSettlement(spot);
    const [hidro, termo] = result.notes;
    expect(hidro).toMatchObject({ deliveryValue: -290_777, variationMargin: 0, fees: 82, bankCommissions: 1_000, toPay: 432_259, toReceive: 140_400 });
    expect(termo).toMatchObject({ deliveryValue: 290_776, variationMargin: 0, fees: 82, bankCommissions: 1_000, toPay: 141_482, toReceive: 431_176 });
    expect(amounts(result)).toEqual({
      'OB-3-B': ['transaction', 'pay', 431_177, '3'],
      'OB-4-S': ['transaction', 'receive', 140_400, '4'],
      'OB-FE-EL-SPOT-RO-HIDRO-2026-11-25': ['fees', 'pay', 1_082, null],
      'OB-3-S': ['transaction', 'receive', 431_176, '3'],
      'OB-4-B': ['transaction', 'pay', 140_400, '4'],
      'OB-FE-EL-SPOT-RO-TERMO-2026-11-25': ['fees', 'pay', 1_082, null],
    });
    expect(result.positions).toEqual([]);
    expect(result.batches.map((row) => [row.transactionId, row.pieces, row.piecesCnt, row.singlePieceAmount])).toEqual([['3', 1, 123, 3_506], ['4', 10, 4, 35_100]]);
  });

  it('the notes balance: delivery + variation − fees − commissions = to receive − to pay', () => {
    for (const input of [forward, spot]) {
      for (const note of computeSettlement(input).notes) {
        expect(note.deliveryValue + note.variationMargin - note.fees - note.bankCommissions).toBe(note.toReceive - note.toPay);
      }
    }
  });

  it('is deterministic, and its hash follows what it writes', () => {
    expect(computeSettlement(forward).resultHash).toBe(computeSettlement({ ...forward, trades: [...forward.trades].reverse() }).resultHash);
    expect(computeSettlement(forward).resultHash).not.toBe(computeSettlement({ ...forward, assets: [{ ...forward.assets[0]!, price: 41_084 }] }).resultHash);
  });

  it('charges no commission and writes no obligation where nothing is owed', () => {
    const quiet = computeSettlement({ ...forward, trades: [], assets: [{ ...forward.assets[0]!, price: 40_000 }] });
    expect(quiet.obligations).toEqual([]);
    expect(quiet.commissions).toEqual([]);
    expect(quiet.notes.map((note) => [note.clientCode, note.toPay, note.toReceive])).toEqual([['RO-HIDRO', 0, 0], ['RO-TERMO', 0, 0]]);
    expect(BANK_COMMISSION_PER_PAYMENT).toBe(500n);
  });

  it('makes ids that fit the protocol, and due dates on business days', () => {
    expect(settlementId('DN', 'EL-FWD', 'RO-HIDRO', '2026-11-25')).toBe('DN-EL-FWD-RO-HIDRO-2026-11-25');
    const long = settlementId('DN', 'X'.repeat(40), 'Y'.repeat(40));
    expect(long).toMatch(/^DN-[0-9a-f]{40}$/);
    expect(dueDateOf('2026-11-25')).toBe('2026-11-26'); // Wednesday → Thursday
    expect(dueDateOf('2026-11-27')).toBe('2026-11-30'); // Friday → Monday
  });
});

describe('settlement: margin exposure per transaction', () => {
  it('marks a forward trade to the settlement price only while its margin exposure is active; the position counts it either way', () => {
    const input: SettlementInput = { ...forward, openingPositions: [], trades: [{ ...forward.trades[0]!, marginsExposureActive: false }] };
    const result = computeSettlement(input);
    expect(result.notes[0]!.lines[0]).toMatchObject({ boughtQty: 50, closingQty: 50, variationMargin: 0 });
    expect(result.positions).toContainEqual({ clientCode: 'RO-HIDRO', assetId: 'EFWD-M-2027-01-BASE', qty: 50 });
    const active = computeSettlement({ ...input, trades: [{ ...forward.trades[0]!, marginsExposureActive: true }] });
    // 5.0 × (410.83 − 410.00) = 4.15
    expect(active.notes[0]!.lines[0]).toMatchObject({ variationMargin: 415 });
  });

  it('settles a spot transaction in full whatever its margin exposure', () => {
    const inactive = computeSettlement({ ...spot, trades: spot.trades.map((trade) => ({ ...trade, marginsExposureActive: false })) });
    expect(amounts(inactive)).toEqual(amounts(computeSettlement(spot)));
  });
});

// docs/clearing.md "Unwinding a transaction novated after a settlement": T (A buys 10.0 MWh from B at
// 400.00) was carried out of D0 at 405.00; on D1 6.0 MWh go to the CCP asset and 4.0 MWh stay as a split.
describe('settlement: a transaction novated after a settlement carried it', () => {
  const X = 'EFWD-M-2027-01-BASE';
  const Y = 'ECCP-M-2027-01';
  const A = 'RO-HIDRO';
  const B = 'RO-TERMO';
  const novated: SettlementInput = {
    ...base,
    settlementRunId: 'SR-EL-FWD-2026-11-25',
    marketId: 'EL-FWD',
    assets: [
      { assetId: X, assetName: 'EFWD', priceDecimals: 2, quantityDecimals: 1, forward: true, feePerUnit: 10n, price: 41_000, previousPrice: 40_500 },
      { assetId: Y, assetName: 'ECCP', priceDecimals: 2, quantityDecimals: 1, forward: true, feePerUnit: 10n, price: 41_200, previousPrice: null },
    ],
    trades: [
      { transactionId: '11', assetId: Y, buyer: A, seller: B, price: 40_000, qty: 60, noCnt: 60 },
      { transactionId: '12', assetId: X, buyer: A, seller: B, price: 40_000, qty: 40, noCnt: 40 },
    ],
    openingPositions: [
      { clientCode: A, assetId: X, qty: 100 },
      { clientCode: B, assetId: X, qty: -100 },
    ],
    unwinds: [{ transactionId: '10', assetId: X, buyer: B, seller: A, price: 40_000, qty: 100, noCnt: 100 }],
  };

  it('unwinds T at its price: the children carry its variation on, nothing counted twice', () => {
    const result = computeSettlement(novated);
    const [hidro, termo] = result.notes;
    // A on X: carried 100·(41000 − 40500) = 50,000; unwind sold −100·(41000 − 40000) = −100,000; split bought 40·(41000 − 40000) = 40,000 → −10,000 → −10.00 RON.
    // A on Y: transfer bought 60·(41200 − 40000) = 72,000 → 72.00 RON. Net 62.00 to receive; with D0's 50.00 (400 → 405 on 10.0) A gets 112.00 = 4.0·10.00 + 6.0·12.00.
    expect(hidro!.lines).toEqual([
      expect.objectContaining({ assetId: Y, openingQty: 0, boughtQty: 60, soldQty: 0, closingQty: 60, variationMargin: 7_200, fees: 60 }),
      expect.objectContaining({ assetId: X, openingQty: 100, boughtQty: 40, soldQty: 100, closingQty: 40, variationMargin: -1_000, fees: 40 }),
    ]);
    // The unwind's 10.0 MWh is in the quantities (opening + bought − sold = closing) but charged no fee: 0.40 + 0.60 only.
    expect(hidro).toMatchObject({ variationMargin: 6_200, fees: 100, bankCommissions: 500, toPay: 600, toReceive: 6_200 });
    expect(termo!.lines).toEqual([
      expect.objectContaining({ assetId: Y, openingQty: 0, boughtQty: 0, soldQty: 60, closingQty: -60, variationMargin: -7_200, fees: 60 }),
      expect.objectContaining({ assetId: X, openingQty: -100, boughtQty: 100, soldQty: 40, closingQty: -40, variationMargin: 1_000, fees: 40 }),
    ]);
    expect(termo).toMatchObject({ variationMargin: -6_200, fees: 100, bankCommissions: 1_000, toPay: 7_300, toReceive: 0 });
    expect(result.positions).toEqual([
      { clientCode: A, assetId: Y, qty: 60 },
      { clientCode: A, assetId: X, qty: 40 },
      { clientCode: B, assetId: Y, qty: -60 },
      { clientCode: B, assetId: X, qty: -40 },
    ]);
    // Reported to clearing: the children only, never the unwind; no obligation names a transaction.
    expect(result.batches.map((row) => [row.transactionId, row.pieces, row.piecesCnt])).toEqual([['11', 10, 6], ['12', 10, 4]]);
    expect(result.obligations.every((row) => row.transactionId === null)).toBe(true);
    // Without the unwind the opening position and the split would count T twice: 14.0 MWh and 90.00 RON on X.
    const { unwinds: _unwinds, ...withoutUnwind } = novated;
    expect(computeSettlement(withoutUnwind).notes[0]!.lines[1]).toMatchObject({ assetId: X, closingQty: 140, variationMargin: 9_000 });
    expect(computeSettlement(novated).resultHash).toBe(result.resultHash);
  });
});
