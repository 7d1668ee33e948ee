import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoUser, startTestServer } from '../../helpers/test-server.ts';

describe('a changed password survives a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'exchange-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses the old password and the reuse after restart', async () => {
    const first = await startTestServer({ dataDir });
    const oldPassword = demoUser('broker2').password;
    const token = await first.login('broker2');
    const changed = await first.post('/user/password', { currentPassword: oldPassword, newPassword: 'Restart#2026', confirmPassword: 'Restart#2026' }, token);
    expect(changed.status).toBe(200);
    // The changing session's fresh token; the one it signed in with is revoked by the change.
    const stillValidToken = changed.body.token as string;
    await first.server.close();

    const second = await startTestServer({ dataDir });
    second.clock.advance(first.clock.now() - second.clock.now() + 1000);
    try {
      // The signing key and the credentials version are kept: a token issued before the restart still
      // works, and one revoked before it stays revoked.
      expect((await second.get('/user/info', stillValidToken)).status).toBe(200);
      expect((await second.get('/user/info', token)).body.error.code).toBe('AUTH_TOKEN_REVOKED');
      await expect(second.login('broker2')).rejects.toThrow(/AUTH_CREDENTIALS_INVALID/);
      const fresh = await second.login('broker2', 'Restart#2026');
      const reuse = await second.post('/user/password', { currentPassword: 'Restart#2026', newPassword: oldPassword, confirmPassword: oldPassword }, fresh);
      expect(reuse.body.error.code).toBe('AUTH_PASSWORD_USED_BEFORE');
    } finally {
      await second.server.close();
    }
  });
});
