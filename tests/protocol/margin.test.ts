import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDecimal } from '../../protocol/decimal.ts';
import { AMOUNT_DECIMALS, orderMargin, orderValue } from '../../protocol/margin.ts';
import { ASSET, harness } from '../server/engine/helpers.ts';

describe('order value and margin', () => {
  it('round up, exactly', () => {
    const asset = { priceDecimals: 2, quantityDecimals: 1 };
    expect(orderValue(15100, 120, asset)).toBe(181200); // 151.00 × 12.0 = 1,812.00
    expect(orderValue(1, 1, { priceDecimals: 2, quantityDecimals: 3 })).toBe(1); // 0.00001 rounds up to 0.01
    expect(orderMargin(181200, 1000)).toBe(18120);
    expect(orderMargin(1, 1)).toBe(1);
    expect(orderMargin(181200, 0)).toBe(0);
  });

  // The dialog shows what the engine will block: the refusals carry the engine's own figures.
  it('match the engine: exposure is the value, the deposit asked is the margin', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 50_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (priceDecimals, quantityDecimals, marginBps, price, qty) => {
          const asset = { priceDecimals, quantityDecimals, priceStep: 1, quantityStep: 1, minQuantity: 1, maxQuantity: 10_000_000, minPrice: 1, maxPrice: 100_000_000, marginBps };
          const value = orderValue(price, qty, asset);
          const limited = harness({ asset, clients: { C5: { clearing: { tradingLimit: 0 } } } });
          const byLimit = limited.add({ assetId: ASSET, clientCode: 'C5', way: 'bid', price, qty });
          expect(byLimit.result).toBe('CLEARING_FINANCIAL_LIMIT');
          expect(byLimit.params).toMatchObject({ exposure: formatDecimal(value, AMOUNT_DECIMALS) });
          const broke = harness({ asset, clients: { C5: { clearing: { funds: 0 } } } });
          const byFunds = broke.add({ assetId: ASSET, clientCode: 'C5', way: 'bid', price, qty });
          expect(byFunds.result).toBe('ORDER_INSUFFICIENT_FUNDS');
          expect(byFunds.params).toMatchObject({ amountToDeposit: formatDecimal(orderMargin(value, marginBps), AMOUNT_DECIMALS) });
        },
      ),
      { numRuns: 300 },
    );
  });
});
