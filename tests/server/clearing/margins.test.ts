import { describe, expect, it } from 'vitest';
import { computeMargins, offsetQty, positionValue, variationLoss, type MarginInput, type PositionInput } from '../../../server/clearing/margins.ts';

// The worked example of docs/clearing.md "Collateral and margins": prices with 2 decimals, quantities with 1.
const scale = { priceDecimals: 2, quantityDecimals: 1 };
const forward: PositionInput = {
  assetId: 'F',
  scale,
  carriedQty: 300,
  stage: 'open',
  trades: [
    { way: 'bid', price: 42_000, qty: 50 },
    { way: 'ask', price: 40_550, qty: 80 },
  ],
  markPrice: 41_005,
  initialMarginBps: 1000,
  deliveryMarginBps: 2000,
  forward: true,
};
const spot: PositionInput = { assetId: 'G', scale, carriedQty: 73, stage: 'open', trades: [], markPrice: 12_345, initialMarginBps: 1250, deliveryMarginBps: 0, forward: false };
const delivering: PositionInput = { assetId: 'D', scale, carriedQty: -125, stage: 'delivery', trades: [], markPrice: 38_887, initialMarginBps: 1000, deliveryMarginBps: 1500, forward: true };
const delivered: PositionInput = { ...delivering, assetId: 'X', stage: 'delivered', carriedQty: 999 };
const example: MarginInput = {
  clearingLimit: 500_000,
  engine: { reservedMargin: 40_000, tradesMargin: 53_440, openValue: 400_000, tradedValue: 534_400, tradingLimit: 2_000_000 },
  positions: [forward, spot, delivering, delivered],
  unpaidAmount: 123_456,
};

describe('margins: the worked example', () => {
  it('values positions rounded up, as the engine values orders', () => {
    expect(positionValue(41_005, 300, scale)).toBe(1_230_150n);
    expect(positionValue(12_345, 73, scale)).toBe(90_119n);
    expect(positionValue(38_887, -125, scale)).toBe(486_088n);
  });

  it('offsets the carried long by the quantity sold since', () => {
    expect(offsetQty(forward)).toBe(80);
    expect(offsetQty({ carriedQty: -20, trades: [{ way: 'bid', price: 1, qty: 50 }] })).toBe(20);
    expect(offsetQty({ carriedQty: 20, trades: [{ way: 'bid', price: 1, qty: 50 }] })).toBe(0);
  });

  it('counts the losses of the trades since the last settlement, not the gains', () => {
    expect(variationLoss(forward)).toBe(8_615n);
    expect(variationLoss({ ...forward, trades: [{ way: 'bid', price: 40_000, qty: 50 }] })).toBe(0n);
    expect(variationLoss({ ...forward, markPrice: null })).toBe(0n);
    // An earlier unsettled sale at 409.00 loses 1.05 per MWh on 2.0 MWh: 2.10 more.
    expect(variationLoss({ ...forward, priorTrades: [{ way: 'ask', price: 40_900, qty: 20 }] })).toBe(8_615n + 210n);
  });

  it('gives the hand-computed report', () => {
    const report = computeMargins(example);
    expect(report.initialMargin).toEqual({ orderPart: 40_000, transactionPart: 187_720, unlocked: 32_804, total: 194_916 });
    expect(report.variationMargin).toEqual({ orderPart: 0, transactionPart: 8_615, unlocked: 0, total: 8_615 });
    expect(report.deliveryMargin).toEqual({ orderPart: 0, transactionPart: 72_914, unlocked: 0, total: 72_914 });
    expect(report.totalExposure).toBe(2_740_757);
    expect(report.withoutUnpaid).toEqual({ currentMarginRequirement: 276_445, creditLimit: 223_555, marginCall: 0 });
    expect(report.withUnpaid).toEqual({ currentMarginRequirement: 399_901, creditLimit: 100_099, marginCall: 0 });
    expect(report.engineFunds).toBe(193_539);
    // What the engine leaves free equals the credit limit with unpaid amounts.
    expect(report.engineFunds - example.engine.reservedMargin - example.engine.tradesMargin).toBe(report.withUnpaid.creditLimit);
    expect(report.tradingLimit).toBe(2_000_000);
  });

  it('turns a shortfall into a margin call and engine funds of 0', () => {
    const report = computeMargins({ ...example, clearingLimit: 300_000 });
    expect(report.withUnpaid).toEqual({ currentMarginRequirement: 399_901, creditLimit: 0, marginCall: 99_901 });
    expect(report.withoutUnpaid).toEqual({ currentMarginRequirement: 276_445, creditLimit: 23_555, marginCall: 0 });
    expect(report.engineFunds).toBe(0);
  });
});
