import { describe, expect, it } from 'vitest';
import { currentCode, matchingStep } from '../../../server/auth/totp.ts';

const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // RFC 6238 test key "12345678901234567890"

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC test vector', () => {
    // RFC 6238 appendix B: T = 59 s -> 94287082 (8 digits); the 6-digit code is its last six digits.
    expect(currentCode(secret, 59_000)).toBe('287082');
  });

  it('accepts one step of drift either way and names the step', () => {
    const now = 1_000_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(matchingStep(secret, currentCode(secret, now), now)).toBe(step);
    expect(matchingStep(secret, currentCode(secret, now - 30_000), now)).toBe(step - 1);
    expect(matchingStep(secret, currentCode(secret, now + 30_000), now)).toBe(step + 1);
    expect(matchingStep(secret, currentCode(secret, now - 90_000), now)).toBeNull();
    expect(matchingStep(secret, 'abcdef', now)).toBeNull();
  });
});
