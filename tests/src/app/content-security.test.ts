import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('the web app under its CSP', () => {
  it('turns zod jitless, so no eval probe runs in the browser', async () => {
    expect(z.config().jitless ?? false).toBe(false);
    await import('../../../src/app/content-security.ts');
    expect(z.config().jitless).toBe(true);
    // Parsing still works without the compiled fast path.
    expect(z.strictObject({ a: z.number() }).safeParse({ a: 1 }).success).toBe(true);
  });
});
