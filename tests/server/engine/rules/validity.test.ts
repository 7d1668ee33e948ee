import { describe, expect, it } from 'vitest';
import { expiryRefusal, hasExpiry, isValidityType, newValidityTypeRefusal, validityTypeRefusal } from '../../../../server/engine/rules/validity.ts';
import { T0 } from '../helpers.ts';

describe('rules/validity', () => {
  it('day, GTC, GTD and GTSV are the validity types; GTD and GTSV carry an expiry', () => {
    expect(['day', 'GTC', 'GTD', 'GTSV'].every(isValidityType)).toBe(true);
    expect(isValidityType('GTX')).toBe(false);
    expect(['GTD', 'GTSV'].every((v) => hasExpiry(v as 'GTD'))).toBe(true);
    expect(hasExpiry('GTC') || hasExpiry('day')).toBe(false);
  });

  it('a new order without a validity type is refused as missing, with an unknown one as invalid', () => {
    expect(newValidityTypeRefusal(undefined)?.result).toBe('ORDER_VALIDITY_TYPE_MISSING');
    expect(newValidityTypeRefusal('GTX')).toMatchObject({ result: 'ORDER_VALIDITY_TYPE_INVALID', params: { validityType: 'GTX' } });
    expect(newValidityTypeRefusal('GTC')).toBeNull();
    expect(validityTypeRefusal('')).toMatchObject({ result: 'ORDER_VALIDITY_TYPE_INVALID', params: { validityType: '' } });
  });

  it('the expiry is present, a number and after the command', () => {
    expect(expiryRefusal(undefined, T0)?.result).toBe('ORDER_VALIDITY_TIMESTAMP_MISSING');
    expect(expiryRefusal('tomorrow', T0)).toMatchObject({ result: 'REQUEST_INVALID', params: { field: 'validity', issue: 'notANumber' } });
    expect(expiryRefusal(T0, T0)).toMatchObject({ result: 'ORDER_VALIDITY_IN_PAST', params: { validity: new Date(T0).toISOString() } });
    expect(expiryRefusal(T0 + 1, T0)).toBeNull();
  });
});
