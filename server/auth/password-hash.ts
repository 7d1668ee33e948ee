import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptParams } from './password-hasher-pool.ts';

/** scrypt from node:crypto: memory-hard, no native addon to build. Format: scrypt$N$r$p$salt$hash (base64). */
const N = 16384;
const r = 8;
const p = 1;
const keyLength = 32;

/** Where the key is derived: the server passes its PasswordHasherPool's `derive`. */
export type DeriveKey = (password: string, salt: Buffer, params: ScryptParams) => Promise<Buffer>;

/**
 * node:crypto's async scrypt, on libuv's thread pool: only for work before the server serves (seeding
 * the demo users), never for requests, whose hashes go to the PasswordHasherPool.
 */
export const scryptOnThreadPool: DeriveKey = (password, salt, params) =>
  new Promise((resolve, reject) =>
    scrypt(password, salt, params.keyLength, { N: params.N, r: params.r, p: params.p }, (error, key) => (error ? reject(error) : resolve(key))),
  );

export async function hashPassword(password: string, derive: DeriveKey = scryptOnThreadPool): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password.normalize('NFC'), salt, { N, r, p, keyLength });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string, derive: DeriveKey = scryptOnThreadPool): Promise<boolean> {
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password.normalize('NFC'), Buffer.from(salt, 'base64'), { N: Number(n), r: Number(rr), p: Number(pp), keyLength: expected.length });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
