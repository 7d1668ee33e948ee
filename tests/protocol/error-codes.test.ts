import { describe, expect, it } from 'vitest';
import { apiError, errorCatalogue, errorCodes, ExchangeError, httpStatusOf, isErrorCode } from '../../protocol/error-codes.ts';

describe('error catalogue', () => {
  it('gives every code an HTTP error status and distinct parameter names', () => {
    for (const code of errorCodes) {
      const entry = errorCatalogue[code];
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
      expect(new Set(entry.params).size, code).toBe(entry.params.length);
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
    }
  });

  it('covers the SPEC §8 groups', () => {
    const prefixes = ['AUTH_', 'ORDER_', 'SESSION_', 'CLEARING_', 'WHITELIST_', 'TRANSFER_', 'OTC_', 'WORKSPACE_', 'CONTRACT_'];
    for (const prefix of prefixes) expect(errorCodes.some((code) => code.startsWith(prefix)), prefix).toBe(true);
    // Every transfer error carries the transaction id (SPEC §8).
    for (const code of errorCodes.filter((candidate) => candidate.startsWith('TRANSFER_'))) {
      expect(errorCatalogue[code].params as readonly string[], code).toContain('transactionId');
    }
    expect(errorCatalogue.ORDER_INSUFFICIENT_FUNDS.params).toContain('amountToDeposit');
    expect(errorCatalogue.ORDER_SESSION_MIN_PRICE.params).toContain('bound');
    // Step and bound refusals state the rule whole: with the currency or the unit (issue 11).
    for (const code of ['ORDER_PRICE_STEP', 'ORDER_PRICE_OUTSIDE_LIMITS', 'ORDER_SESSION_MIN_PRICE', 'ORDER_SESSION_MAX_PRICE', 'ORDER_REGULATOR_MAX_PRICE', 'ORDER_DELTA_T_PRICE_STEP'] as const) {
      expect(errorCatalogue[code].params as readonly string[], code).toContain('currency');
    }
    for (const code of ['ORDER_QUANTITY_STEP', 'ORDER_QUANTITY_BELOW_MINIMUM', 'ORDER_QUANTITY_TOO_LARGE', 'ORDER_QUANTITY_INVALID'] as const) {
      expect(errorCatalogue[code].params as readonly string[], code).toContain('unit');
    }
    expect(errorCatalogue.ORDER_QUANTITY_INVALID.params).toEqual(['step', 'min', 'max', 'unit']);
    expect(errorCatalogue.ORDER_TRADEABLE_QUANTITY_INSUFFICIENT.params).toEqual(['excess', 'limit']);
  });

  it('builds refusals that serialise to code and params', () => {
    const error = new ExchangeError(apiError('ORDER_SESSION_MAX_PRICE', { bound: '450.00', currency: 'RON' }));
    expect(error.status).toBe(httpStatusOf('ORDER_SESSION_MAX_PRICE'));
    expect(JSON.parse(JSON.stringify(error))).toEqual({ code: 'ORDER_SESSION_MAX_PRICE', params: { bound: '450.00', currency: 'RON' } });
    expect(isErrorCode('AUTH_CODE_INVALID')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
  });
});
