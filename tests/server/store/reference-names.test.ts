import { describe, expect, it } from 'vitest';
import { fillDemoNames, fillDemoRolling, loadDemoExchangeIfEmpty, readDemoExchange } from '../../../server/demo/demo-exchange.ts';
import { openPostgres, type Database } from '../../../server/store/database.ts';
import { loadMigrations, migrate } from '../../../server/store/migrations.ts';
import { openPgliteThread } from '../../../server/store/pglite-thread.ts';
import { ReferenceRepository } from '../../../server/store/reference.repository.ts';
import { openStore, type Store } from '../../../server/store/store.ts';
import { testDatabases } from '../../helpers/test-databases.ts';

describe.each(testDatabases)('reference names on $name', (database) => {
  it('a new database gets the demo names in Romanian and English, and serves them', async () => {
    const target = await database.create();
    const store = await openStore(target);
    try {
      await loadDemoExchangeIfEmpty(store, new Date('2026-11-22T09:00:00Z'));
      const markets = await store.reference.markets();
      expect(markets.find((market) => market.id === 'GAS-SPOT')).toMatchObject({ name: 'Gas spot', names: { ro: 'Gaze naturale spot', en: 'Gas spot' } });
      const rings = await store.reference.rings();
      expect(rings.find((ring) => ring.id === 'R-EL-DAY')?.names).toEqual({ ro: 'Ziua următoare', en: 'Day-ahead' });
      const assets = await store.reference.assets();
      expect(assets.find((asset) => asset.id === 'GSPOT-DA')?.names).toEqual({ ro: 'Gaze naturale ziua următoare', en: 'Gas day-ahead' });
      // Names live in their column, not in the specification.
      expect(Object.keys(assets[0]!.spec)).not.toContain('names');
    } finally {
      await store.close();
      await target.drop();
    }
  });

  it('migrates rows made before names existed, and gives the demo rows among them their names and rolling periods', async () => {
    const target = await database.create();
    const db: Database = target.databaseUrl ? await openPostgres(target.databaseUrl) : await openPgliteThread(undefined);
    try {
      const migrations = loadMigrations();
      const names = migrations.find((migration) => migration.name === 'reference_names')!;
      await migrate(db, migrations.filter((migration) => migration.version < names.version));
      await db.query("insert into markets (id, name, commodity, kind, workspace_type, currency) values ('GAS-SPOT', 'Gas spot', 'gas', 'spot', 'gas', 'RON'), ('X-MKT', 'Other market', 'gas', 'spot', 'gas', 'RON')");
      await db.query("insert into rings (id, market_id, name) values ('R-GAS-DAY', 'GAS-SPOT', 'Day-ahead and within-day')");
      await db.query(`insert into assets (id, market_id, ring_id, code, name, spec) values ('GSPOT-DA', 'GAS-SPOT', 'R-GAS-DAY', 'GSPOT-DA', 'Gas day-ahead', '{"type":"day","config":{}}'), ('X-ASSET', 'X-MKT', null, 'X-ASSET', 'Renamed by the operator', '{"type":"day","config":{}}')`);
      expect(await migrate(db)).toContain(names.version);

      const reference = new ReferenceRepository(db);
      expect((await reference.markets()).map((market) => [market.id, market.names])).toEqual([
        ['GAS-SPOT', { ro: 'Gas spot', en: 'Gas spot' }],
        ['X-MKT', { ro: 'Other market', en: 'Other market' }],
      ]);

      const store = { db, reference } as unknown as Store;
      expect(await fillDemoNames(store)).toBe(3);
      const demo = readDemoExchange();
      expect((await reference.markets()).map((market) => [market.id, market.names])).toEqual([
        ['GAS-SPOT', demo.markets.find((market) => market.id === 'GAS-SPOT')!.names],
        ['X-MKT', { ro: 'Other market', en: 'Other market' }],
      ]);
      expect((await reference.rings())[0]!.names.ro).toBe('Ziua următoare și intrazilnic');
      expect((await reference.assets()).map((asset) => asset.names.ro)).toEqual(['Gaze naturale ziua următoare', 'Renamed by the operator']);
      // Once named, a row is left alone.
      expect(await fillDemoNames(store)).toBe(0);

      // The demo's rolling assets get their rolling periods; another asset keeps its fixed ones.
      expect(await fillDemoRolling(store)).toBe(1);
      expect((await reference.assets()).map((asset) => [asset.id, asset.spec.config.rolling ?? null])).toEqual([
        ['GSPOT-DA', { deliveryOffsetDays: 1 }],
        ['X-ASSET', null],
      ]);
      expect(await fillDemoRolling(store)).toBe(0);
    } finally {
      await db.close();
      await target.drop();
    }
  });
});
