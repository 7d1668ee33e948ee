import { scryptSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, scryptOnThreadPool, verifyPassword, type DeriveKey } from '../../../server/auth/password-hash.ts';
import { PasswordHasherPool } from '../../../server/auth/password-hasher-pool.ts';

const params = { N: 16384, r: 8, p: 1, keyLength: 32 };
const pools: PasswordHasherPool[] = [];
function pool(options?: ConstructorParameters<typeof PasswordHasherPool>[0]): PasswordHasherPool {
  const made = new PasswordHasherPool(options);
  pools.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((made) => made.close()));
});

describe('PasswordHasherPool', () => {
  it('derives the same key as scrypt, and hashes made on either side verify on the other', async () => {
    const hasher = pool({ workers: 2 });
    const derive: DeriveKey = (password, salt, options) => hasher.derive(password, salt, options);
    const salt = Buffer.from('0123456789abcdef');
    expect((await hasher.derive('Parolă#1', salt, params)).equals(scryptSync('Parolă#1', salt, 32, params))).toBe(true);
    const stored = await hashPassword('Secret#2026', derive);
    expect(await verifyPassword('Secret#2026', stored)).toBe(true);
    expect(await verifyPassword('Secret#2027', stored, derive)).toBe(false);
    expect(await verifyPassword('Secret#2026', await hashPassword('Secret#2026'), derive)).toBe(true);
    expect(hasher.completed).toBe(4);
  });

  it('is bounded: beyond its threads and queue a hash is refused with AUTH_BUSY, and the rest complete', async () => {
    const hasher = pool({ workers: 1, maxQueued: 2 });
    const salt = Buffer.alloc(16, 1);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => hasher.derive('x', salt, params)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
    for (const result of results.slice(3)) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'AUTH_BUSY', status: 503, params: { retryAfterSeconds: 1 } });
    }
    // Once the queue drains, hashes are accepted again.
    await expect(hasher.derive('x', salt, params)).resolves.toHaveLength(32);
  });

  it('refuses waiting and new hashes with SERVICE_UNAVAILABLE once closed', async () => {
    const hasher = new PasswordHasherPool({ workers: 1, maxQueued: 4 });
    const pending = Promise.allSettled(Array.from({ length: 3 }, () => hasher.derive('x', Buffer.alloc(16), params)));
    await hasher.close();
    for (const result of await pending) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    }
    await expect(hasher.derive('x', Buffer.alloc(16), params)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it("leaves libuv's thread pool to file writes: an fdatasync waits behind scrypt there, not behind the pool", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hasher-fsync-'));
    const file = await open(join(dir, 'journal'), 'w');
    try {
      /** Latency of one write + fdatasync while 8 hashes run through `derive`. */
      const fsyncDuring = async (derive: DeriveKey): Promise<number> => {
        const hashes = Array.from({ length: 8 }, (_, index) => derive(`burst-${index}`, Buffer.alloc(16, index), params));
        await new Promise((resolve) => setTimeout(resolve, 10)); // the hashes have started
        const started = performance.now();
        await file.write(Buffer.alloc(512, 7));
        await file.datasync();
        const took = performance.now() - started;
        await Promise.all(hashes);
        return took;
      };
      const hasher = pool({ workers: 2, maxQueued: 8 });
      const onPool = await fsyncDuring((password, salt, options) => hasher.derive(password, salt, options));
      const onThreadPool = await fsyncDuring(scryptOnThreadPool);
      console.log(`write+fdatasync during 8 hashes: ${onPool.toFixed(1)} ms with the hasher pool, ${onThreadPool.toFixed(1)} ms with scrypt on libuv's pool`);
      expect(onPool).toBeLessThan(onThreadPool / 2);
    } finally {
      await file.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
