import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/store/database.ts';
import { BYTES_FROM_CHARS, openPgliteThread } from '../../../server/store/pglite-thread.ts';

describe('PGlite on its own thread', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openPgliteThread(undefined);
    await db.exec('create table account (id int primary key, balance bigint not null, note jsonb)');
  });
  afterAll(() => db.close());

  it('answers queries with parameters and typed rows', async () => {
    await db.query('insert into account (id, balance, note) values ($1, $2, $3)', [1, 500, { owner: 'RO-HIDRO' }]);
    const rows = await db.query<{ id: number; balance: number; note: { owner: string } }>('select id, balance, note from account where id = $1', [1]);
    expect(rows).toEqual([{ id: 1, balance: 500, note: { owner: 'RO-HIDRO' } }]);
  });

  it('passes long text parameters (sent as UTF-8 bytes) whole, beside short ones, in and out of transactions', async () => {
    const rows = Array.from({ length: 400 }, (_, index) => ({ index, client: `RO-ȚĂRANU-${index}`, note: 'ünïcödé 🚀 "quoted" \\ back' }));
    const long = JSON.stringify(rows);
    expect(long.length).toBeGreaterThan(BYTES_FROM_CHARS);
    const [echo] = await db.query<{ text: string; n: number; tag: string }>('select $1::text as text, jsonb_array_length($1::jsonb) as n, $2::text as tag', [long, 'short']);
    expect(echo).toEqual({ text: long, n: 400, tag: 'short' });
    const inTransaction = await db.transaction(async (tx) => (await tx.query<{ last: string }>("select ($1::jsonb -> 399 ->> 'client') as last", [long]))[0]!.last);
    expect(inTransaction).toBe('RO-ȚĂRANU-399');
    // The caller's array is left as it was (the bytes went in a copy of it).
    const params: unknown[] = [long];
    await db.query('select $1::text', params);
    expect(params[0]).toBe(long);
  });

  it('keeps the database error fields across the thread', async () => {
    const error = await db.query('insert into account (id, balance) values (1, 0)').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'account_pkey' });
    expect((error as Error).message).toMatch(/duplicate key/);
  });

  it('commits a transaction and rolls back a failed one', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.query('insert into account (id, balance) values (2, 100)');
      return (await tx.query<{ n: number }>('select count(*)::int as n from account'))[0]!.n;
    });
    expect(result).toBe(2);

    await expect(
      db.transaction(async (tx) => {
        await tx.query('update account set balance = 0 where id = 2');
        throw new Error('clearing refused');
      }),
    ).rejects.toThrow('clearing refused');
    // A failing statement inside the transaction rolls it back as well.
    await expect(
      db.transaction(async (tx) => {
        await tx.query('update account set balance = 1 where id = 2');
        await tx.query('insert into account (id, balance) values (2, 0)');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.query('select balance from account where id = 2')).toEqual([{ balance: 100 }]);
  });

  it('runs concurrent transactions one after the other, and holds other queries until they end', async () => {
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstMayEnd = new Promise<void>((resolve) => (releaseFirst = resolve));
    const first = db.transaction(async (tx) => {
      await tx.query('update account set balance = balance + 10 where id = 1');
      order.push('first updated');
      await firstMayEnd;
      order.push('first ends');
    });
    const second = db.transaction(async (tx) => {
      order.push('second begins');
      await tx.query('update account set balance = balance * 2 where id = 1');
    });
    const outside = db.query<{ balance: number }>('select balance from account where id = 1').then((rows) => {
      order.push('outside read');
      return rows[0]!.balance;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual(['first updated']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(order.slice(0, 2)).toEqual(['first updated', 'first ends']);
    // The second transaction saw the first's commit: (500 + 10) * 2, unless the read came in between.
    expect(await db.query('select balance from account where id = 1')).toEqual([{ balance: 1020 }]);
    expect([510, 1020]).toContain(await outside);
  });

  it('refuses every request once closed, and a bad statement or parameter never kills the thread', async () => {
    await expect(db.query('select * from no_such_table')).rejects.toMatchObject({ code: '42P01' });
    await expect(db.query('select $1::text as x', [() => 'not data'])).rejects.toMatchObject({ name: 'DataCloneError' });
    expect(await db.query('select 1 as one')).toEqual([{ one: 1 }]);
    const other = await openPgliteThread(undefined);
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow('database closed');
    await expect(other.transaction(async () => 1)).rejects.toThrow('database closed');
  });
});
