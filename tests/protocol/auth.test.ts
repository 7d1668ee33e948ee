import { describe, expect, it } from 'vitest';
import { loginRequestSchema, passwordMeetsPolicy } from '../../protocol/auth.ts';

describe('password policy (SPEC §5)', () => {
  it('needs 8 characters with upper, lower, digit and symbol', () => {
    expect(passwordMeetsPolicy('Abcdef1!')).toBe(true);
    expect(passwordMeetsPolicy('Abcde1!')).toBe(false);
    expect(passwordMeetsPolicy('abcdefg1!')).toBe(false);
    expect(passwordMeetsPolicy('ABCDEFG1!')).toBe(false);
    expect(passwordMeetsPolicy('Abcdefgh!')).toBe(false);
    expect(passwordMeetsPolicy('Abcdefgh1')).toBe(false);
  });
});

describe('login schema', () => {
  it('refuses unknown fields and wrong types', () => {
    expect(loginRequestSchema.safeParse({ username: 'a', password: 'b', code: '123456' }).success).toBe(true);
    expect(loginRequestSchema.safeParse({ username: 'a', password: 'b', code: '1', admin: true }).success).toBe(false);
    expect(loginRequestSchema.safeParse({ username: 1, password: 'b' }).success).toBe(false);
  });
});
