import { RouteError } from './middleware.ts';

/** SPEC §2/§9: when a code chunk fails to load, reload the page, at most once per 60 s. */
export const CHUNK_RELOAD_GUARD_MS = 60_000;
const STORAGE_KEY = 'exchange.chunkReloadAt';

export function shouldReloadAfterChunkError(now: number, lastReloadAt: number | null): boolean {
  return lastReloadAt === null || now - lastReloadAt >= CHUNK_RELOAD_GUARD_MS;
}

export interface ChunkReloadEnvironment {
  now(): number;
  readLast(): number | null;
  writeLast(at: number): void;
  reload(): void;
}

function browserEnvironment(): ChunkReloadEnvironment {
  return {
    now: () => Date.now(),
    readLast: () => {
      try {
        const value = Number(window.sessionStorage.getItem(STORAGE_KEY));
        return Number.isFinite(value) && value > 0 ? value : null;
      } catch {
        return null;
      }
    },
    writeLast: (at) => {
      try {
        window.sessionStorage.setItem(STORAGE_KEY, String(at));
      } catch {
        // Without storage the guard cannot hold: better no reload than a loop.
      }
    },
    reload: () => window.location.reload(),
  };
}

/**
 * Wraps a route's dynamic import (code split per route). When the chunk fails to load (typically a
 * new deployment removed it), the page reloads to get the new one, unless it already did so within
 * the last 60 s; then the error page says the page could not be loaded.
 */
export function loadChunk<T>(importer: () => Promise<T>, env: ChunkReloadEnvironment = browserEnvironment()): Promise<T> {
  return importer().catch((error: unknown) => {
    const now = env.now();
    if (shouldReloadAfterChunkError(now, env.readLast())) {
      env.writeLast(now);
      env.reload();
      // The page is going away; never settle so nothing renders an error meanwhile.
      return new Promise<T>(() => {});
    }
    console.error('chunk failed to load', error);
    throw new RouteError(500, 'page.error.chunkLoad');
  });
}
