import { randomBytes } from 'node:crypto';
import type { Queryable } from './database.ts';

/** Returns the named secret, creating a random one on first use (so it survives restarts). */
export async function loadOrCreateSecret(db: Queryable, name: string, bytes = 32): Promise<Uint8Array> {
  const candidate = randomBytes(bytes).toString('base64');
  await db.query('insert into server_secrets (name, value) values ($1, $2) on conflict (name) do nothing', [name, candidate]);
  const rows = await db.query<{ value: string }>('select value from server_secrets where name = $1', [name]);
  return new Uint8Array(Buffer.from(rows[0]!.value, 'base64'));
}
