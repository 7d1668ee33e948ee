import { describe, expect, it } from 'vitest';
import { loadDemoExchangeIfEmpty } from '../../../server/demo/demo-exchange.ts';
import { openStore } from '../../../server/store/store.ts';
import { testDatabases } from '../../helpers/test-databases.ts';

describe.each(testDatabases)('users on $name', (database) => {
  it('raises the credentials version with each password change, atomically with the new hash', async () => {
    const target = await database.create();
    const store = await openStore(target);
    try {
      await loadDemoExchangeIfEmpty(store, new Date('2026-11-22T09:00:00Z'));
      const user = (await store.users.findByUsername('broker1'))!;
      expect(user.credentialsVersion).toBe(0);
      const at = new Date('2026-11-23T10:00:00Z');
      // Two changes at once: each gets its own version, none is lost.
      const versions = await Promise.all([store.users.setPassword(user.id, 'scrypt$a', at), store.users.setPassword(user.id, 'scrypt$b', at)]);
      expect(versions.sort()).toEqual([1, 2]);
      const after = (await store.users.findById(user.id))!;
      expect(after).toMatchObject({ credentialsVersion: 2, passwordChangedAt: at });
      expect(await store.users.passwordHistory(user.id, 5)).toHaveLength(3);
    } finally {
      await store.close();
      await target.drop();
    }
  });
});
