import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyText } from '../../../server/store/copy-text.ts';
import type { Database } from '../../../server/store/database.ts';
import { openPgliteThread } from '../../../server/store/pglite-thread.ts';

describe('copyText', () => {
  it('writes the four characters COPY reads as escapes, null as \\N, and leaves the rest as it is', () => {
    expect(copyText('a\\b\tc\nd\re')).toBe('a\\\\b\\tc\\nd\\re');
    expect(copyText(null)).toBe('\\N');
    expect(copyText('\\N')).toBe('\\\\N');
    expect(copyText(12_345)).toBe('12345');
    expect(copyText('RO-ȚĂRANU "quoted" 🚀')).toBe('RO-ȚĂRANU "quoted" 🚀');
    expect(copyText(JSON.stringify({ note: 'tab\there \\ done' }))).toBe('{"note":"tab\\\\there \\\\\\\\ done"}');
  });

  describe('through PGlite COPY', () => {
    let db: Database;
    beforeAll(async () => {
      db = await openPgliteThread(undefined);
      await db.exec('create table copied (id int primary key, note text, doc json, docb jsonb)');
    });
    afterAll(() => db.close());

    it('reads back every string and JSON document exactly as written', async () => {
      // Postgres text cannot hold NUL; everything else must survive COPY's text format.
      const text = fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => !s.includes('\u0000'));
      const row = fc.record({ note: fc.option(text, { nil: null }), doc: fc.dictionary(text, fc.oneof(text, fc.integer(), fc.constant(null)), { maxKeys: 4 }) });
      let id = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 20 }), async (rows) => {
          const first = id;
          const lines = rows.map((r) => `${id++}\t${copyText(r.note)}\t${copyText(JSON.stringify(r.doc))}\t${copyText(JSON.stringify(r.doc))}\n`).join('');
          await db.copyThenRun!([{ table: 'copied', columns: 'id, note, doc, docb', text: lines }], []);
          const back = await db.query<{ note: string | null; doc: unknown; docb: unknown; raw: string }>('select note, doc, docb, doc::text as raw from copied where id >= $1 order by id', [first]);
          expect(back.map((r) => r.note)).toEqual(rows.map((r) => r.note));
          expect(back.map((r) => r.doc)).toEqual(rows.map((r) => r.doc));
          expect(back.map((r) => r.docb)).toEqual(rows.map((r) => r.doc));
          // json keeps the text as written.
          expect(back.map((r) => r.raw)).toEqual(rows.map((r) => JSON.stringify(r.doc)));
        }),
        { numRuns: 60 },
      );
    });

    it('runs the loads and statements in one transaction: a failing statement leaves nothing', async () => {
      await expect(
        db.copyThenRun!([{ table: 'copied', columns: 'id, note', text: `${1_000_000}\tkept?\n` }], [{ sql: 'insert into copied (id) values ($1)', params: [1_000_000] }]),
      ).rejects.toMatchObject({ code: '23505' });
      expect(await db.query('select id from copied where id = 1000000')).toEqual([]);
      await expect(db.copyThenRun!([{ table: 'copied', columns: 'id, note', text: 'not-a-number\tx\n' }], [])).rejects.toMatchObject({ code: '22P02' });
      // The thread goes on.
      await db.copyThenRun!([{ table: 'copied', columns: 'id, note', text: '1000001\tafter\n' }], [{ sql: 'update copied set note = $1 where id = $2', params: ['updated', 1_000_001] }]);
      expect(await db.query('select note from copied where id = 1000001')).toEqual([{ note: 'updated' }]);
    });
  });
});
