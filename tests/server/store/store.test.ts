import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDemoExchangeIfEmpty } from '../../../server/demo/demo-exchange.ts';
import { loadMigrations, migrate } from '../../../server/store/migrations.ts';
import { loadOrCreateSecret } from '../../../server/store/secrets.repository.ts';
import { openStore } from '../../../server/store/store.ts';
import { testDatabases } from '../../helpers/test-databases.ts';

describe.each(testDatabases)('store on $name', (database) => {
  it('migrates once, loads the demo exchange once, and keeps users and history', async () => {
    const target = await database.create();
    const store = await openStore(target);
    try {
      expect(await migrate(store.db)).toEqual([]);
      const versions = await store.db.query<{ version: number }>('select version from schema_migrations order by version');
      expect(versions.map((row) => Number(row.version))).toEqual(loadMigrations().map((migration) => migration.version));

      expect(await loadDemoExchangeIfEmpty(store, new Date('2026-11-22T09:00:00Z'))).toBe(true);
      expect(await loadDemoExchangeIfEmpty(store, new Date('2026-11-22T09:00:00Z'))).toBe(false);

      const markets = await store.reference.markets();
      expect(markets.filter((market) => market.commodity === 'gas').map((market) => market.kind).sort()).toEqual(['balancingGroup', 'ccp', 'forward', 'spot']);
      expect(markets.filter((market) => market.commodity === 'electricity').map((market) => market.kind).sort()).toEqual(['ccp', 'forward', 'pmc', 'spot']);
      const clients = await store.reference.clients();
      expect(clients.find((client) => client.code === 'RO-HIDRO')).toMatchObject({ acerCode: 'A0001234X.RO', active: true });

      const user = await store.users.findByUsername('BROKER1');
      expect(user?.username).toBe('broker1');
      expect(await store.users.passwordHistory(user!.id, 5)).toHaveLength(1);

      // A TOTP step is taken once, even by concurrent sign-ins.
      const results = await Promise.all([store.users.consumeTotpStep(user!.id, 100), store.users.consumeTotpStep(user!.id, 100)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.users.consumeTotpStep(user!.id, 99)).toBe(false);

      await store.users.recordLogin(user!.id, '10.0.0.7', new Date('2026-11-22T08:00:00Z'));
      await store.users.recordLogin(user!.id, '10.0.0.8', new Date('2026-11-22T08:05:00Z'));
      const history = await store.users.loginHistory(user!.id, 10);
      expect(history.map((entry) => entry.ip)).toEqual(['10.0.0.8', '10.0.0.7']);
      expect(history[0]!.timestamp).toBe('2026-11-22T08:05:00.000Z');

      const key = await loadOrCreateSecret(store.db, 'k');
      expect(await loadOrCreateSecret(store.db, 'k')).toEqual(key);
    } finally {
      await store.close();
      await target.drop();
    }
  });

  it('rolls a failed transaction back', async () => {
    const target = await database.create();
    const store = await openStore(target);
    try {
      await expect(
        store.db.transaction(async (tx) => {
          await tx.query("insert into agencies (id, name) values ('X', 'x')");
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await store.db.query("select * from agencies where id = 'X'")).toEqual([]);
    } finally {
      await store.close();
      await target.drop();
    }
  });
});

describe('PGlite data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exchange-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is locked against a second process and survives a reopen', async () => {
    const first = await openStore({ dataDir: dir });
    await expect(openStore({ dataDir: dir })).rejects.toThrow(/in use by another exchange process/);
    await first.reference.insertAgency({ id: 'AG-TEST', name: 'Kept' });
    await first.close();

    const second = await openStore({ dataDir: dir });
    try {
      expect(await second.reference.agency('AG-TEST')).toEqual({ id: 'AG-TEST', name: 'Kept' });
    } finally {
      await second.close();
    }
  });
});
