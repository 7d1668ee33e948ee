import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../../../server/store/migrations.ts';
import { ensurePgliteTemplate } from '../../../server/store/pglite-template.ts';
import { openStore } from '../../../server/store/store.ts';

describe('PGlite template for in-memory stores', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-template-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes the file once, named by the migrations, and reuses it', async () => {
    const file = await ensurePgliteTemplate(dir);
    expect(file.startsWith(join(dir, 'energy-exchange-pglite-'))).toBe(true);
    const made = statSync(file);
    expect(made.size).toBeGreaterThan(1_000_000);
    expect(await ensurePgliteTemplate(dir)).toBe(file);
    expect(statSync(file).mtimeMs).toBe(made.mtimeMs);
  });

  it("is the suite's own: the global setup hands it to every test process", () => {
    expect(process.env.PGLITE_TEMPLATE).toMatch(/energy-exchange-pglite-[0-9a-f]{16}\.tar$/);
    expect(existsSync(process.env.PGLITE_TEMPLATE!)).toBe(true);
  });

  it('gives stores with every migration applied, each its own database', async () => {
    const template = await ensurePgliteTemplate(dir);
    const [first, second] = [await openStore({ template }), await openStore({ template })];
    try {
      const versions = await first.db.query<{ version: number }>('select version from schema_migrations order by version');
      expect(versions.map((row) => Number(row.version))).toEqual(loadMigrations().map((migration) => migration.version));
      expect(await migrate(first.db)).toEqual([]);
      await first.db.query("insert into projection_watermark (name, journal_seq) values ('trading', 42)");
      expect(await first.db.query('select journal_seq from projection_watermark')).toEqual([{ journal_seq: 42 }]);
      expect(await second.db.query('select journal_seq from projection_watermark')).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('makes a new data directory from it, and opens one that holds a database as it is', async () => {
    const template = await ensurePgliteTemplate(dir);
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const made = await openStore({ dataDir, template });
    expect(await migrate(made.db)).toEqual([]);
    await made.db.query("insert into projection_watermark (name, journal_seq) values ('trading', 7)");
    await made.close();
    for (const reopenedWith of [template, '']) {
      const reopened = await openStore({ dataDir, template: reopenedWith });
      try {
        expect(await reopened.db.query('select journal_seq from projection_watermark')).toEqual([{ journal_seq: 7 }]);
      } finally {
        await reopened.close();
      }
    }
  });
});
