import { describe, expect, it } from 'vitest';
import { contractsMismatchRefusal, isPositiveInt, quantityInputRefusal, quantityInvalid, quantityOk, quantityRefusal } from '../../../../server/engine/rules/quantity.ts';
import { asset } from '../state-builders.ts';

describe('rules/quantity', () => {
  it('qty and noCnt sent together must name one quantity, on either kind of asset', () => {
    const byQty = asset({ contractQty: 24 });
    expect(contractsMismatchRefusal(byQty, 48, 48, 2)).toBeNull();
    expect(contractsMismatchRefusal(byQty, 50, 50, 3)).toBeNull(); // a part contract counts as one
    expect(contractsMismatchRefusal(byQty, 48, 48, 1e15)).toMatchObject({ result: 'ORDER_CONTRACTS_MISMATCH', params: { noCnt: '1000000000000000', expected: '2' } });
    const byContracts = asset({ quantityInput: 'noCnt', contractQty: 24 });
    expect(contractsMismatchRefusal(byContracts, 48, undefined, 2)).toBeNull();
    expect(contractsMismatchRefusal(byContracts, 48, 48, 2)).toBeNull();
    expect(contractsMismatchRefusal(byContracts, 48, 72, 2)).toMatchObject({ result: 'ORDER_CONTRACTS_MISMATCH', params: { noCnt: '2', expected: '3' } });
  });

  it('a positive safe integer only', () => {
    expect([1, 500].every(isPositiveInt)).toBe(true);
    expect([0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, '5', null, undefined].some(isPositiveInt)).toBe(false);
  });

  it('a missing quantity names the field the asset takes: qty or noCnt', () => {
    expect(quantityInputRefusal(asset(), undefined).result).toBe('ORDER_QUANTITY_MISSING');
    expect(quantityInputRefusal(asset({ quantityInput: 'noCnt', contractQty: 24 }), null).result).toBe('ORDER_CONTRACT_COUNT_MISSING');
  });

  it('an invalid quantity states the step, the bounds and the unit', () => {
    const a = asset({ unit: 'MWh', quantityStep: 5, minQuantity: 5 });
    expect(quantityInputRefusal(a, 0)).toEqual(quantityInvalid(a));
    expect(quantityInvalid(a)).toMatchObject({ result: 'ORDER_QUANTITY_INVALID', params: { step: '5', min: '5', max: '10000', unit: 'MWh' } });
  });

  it('the fast check passes a quantity on the step within the bounds', () => {
    const a = asset({ quantityStep: 5, minQuantity: 10, maxQuantity: 100 });
    expect(quantityOk(a, 50)).toBe(true);
    expect(quantityRefusal(a, 50)).toBeNull();
    expect([51, 5, 105].some((q) => quantityOk(a, q))).toBe(false);
  });

  it('refuses in order: step, minimum, maximum', () => {
    const a = asset({ quantityStep: 5, minQuantity: 10, maxQuantity: 100, unit: 'MWh' });
    expect(quantityRefusal(a, 7)).toMatchObject({ result: 'ORDER_QUANTITY_STEP', params: { step: '5', unit: 'MWh' } });
    expect(quantityRefusal(a, 5)).toMatchObject({ result: 'ORDER_QUANTITY_BELOW_MINIMUM', params: { min: '10', unit: 'MWh' } });
    expect(quantityRefusal(a, 105)).toMatchObject({ result: 'ORDER_QUANTITY_TOO_LARGE', params: { max: '100', unit: 'MWh' } });
  });
});
