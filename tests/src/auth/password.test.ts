import { describe, expect, it } from 'vitest';
import { checkNewPassword, handOffExpiredPassword, passwordExpiry, takeExpiredPassword } from '../../../src/auth/password.ts';

describe('new password checks (SPEC §5)', () => {
  it("says 'Invalid password!' for a password outside the policy", () => {
    for (const weak of ['Short#1', 'alllower#123', 'ALLUPPER#123', 'NoDigits#abc', 'NoSymbol123a']) {
      expect(checkNewPassword(weak, weak).newPassword, weak).toBe('validation.passwordInvalid');
    }
    expect(checkNewPassword('Good#Pass1', 'Good#Pass1')).toEqual({});
  });

  it("says 'The passwords are not matching!' when the confirmation differs", () => {
    expect(checkNewPassword('Good#Pass1', 'Good#Pass2')).toEqual({ confirmPassword: 'validation.passwordsNotMatching' });
  });

  it('asks for both fields', () => {
    expect(checkNewPassword('', '')).toEqual({ newPassword: 'validation.fieldRequired', confirmPassword: 'validation.fieldRequired' });
  });
});

describe('password-expires-soon indicator', () => {
  const now = Date.UTC(2026, 10, 22, 9, 0, 0);
  const inDays = (days: number) => new Date(now + days * 24 * 3600 * 1000).toISOString();

  it('shows from 14 days before the expiry', () => {
    expect(passwordExpiry(inDays(15), now)).toEqual({ daysLeft: 15, soon: false });
    expect(passwordExpiry(inDays(14), now)).toEqual({ daysLeft: 14, soon: true });
    expect(passwordExpiry(inDays(0.5), now)).toEqual({ daysLeft: 1, soon: true });
    expect(passwordExpiry(inDays(-1), now)).toEqual({ daysLeft: 0, soon: true });
    expect(passwordExpiry('not a date', now)).toBeNull();
  });
});

describe('hand-off of an expired password to the reset page', () => {
  it('is read once, and only for the same user', () => {
    handOffExpiredPassword('expired1', 'Old#Pass1');
    expect(takeExpiredPassword('someone-else')).toBeNull();
    handOffExpiredPassword('expired1', 'Old#Pass1');
    expect(takeExpiredPassword('expired1')).toBe('Old#Pass1');
    expect(takeExpiredPassword('expired1')).toBeNull();
  });
});
