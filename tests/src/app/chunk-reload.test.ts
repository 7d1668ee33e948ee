import { describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_GUARD_MS, loadChunk, type ChunkReloadEnvironment } from '../../../src/app/chunk-reload.ts';
import { RouteError } from '../../../src/app/middleware.ts';

function environment(start: number) {
  let now = start;
  let last: number | null = null;
  const env: ChunkReloadEnvironment & { advance(ms: number): void } = {
    now: () => now,
    readLast: () => last,
    writeLast: (at) => {
      last = at;
    },
    reload: vi.fn(),
    advance: (ms) => {
      now += ms;
    },
  };
  return env;
}

const failing = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));

describe('chunk load failure (SPEC §2: reload, at most once per 60 s)', () => {
  it('loads a chunk that is there', async () => {
    const env = environment(1_000_000);
    await expect(loadChunk(() => Promise.resolve({ Page: 1 }), env)).resolves.toEqual({ Page: 1 });
    expect(env.reload).not.toHaveBeenCalled();
  });

  it('reloads the page on the first failure and never settles meanwhile', async () => {
    const env = environment(1_000_000);
    const settled = vi.fn();
    void loadChunk(failing, env).then(settled, settled);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(env.reload).toHaveBeenCalledTimes(1);
    expect(settled).not.toHaveBeenCalled();
  });

  it('shows the error page instead of reloading again within 60 s, and reloads again after', async () => {
    const env = environment(1_000_000);
    void loadChunk(failing, env);
    await new Promise((resolve) => setTimeout(resolve, 0));
    env.advance(CHUNK_RELOAD_GUARD_MS - 1);
    const error = await loadChunk(failing, env).catch((cause: unknown) => cause);
    expect(error).toBeInstanceOf(RouteError);
    expect((error as RouteError).status).toBe(500);
    expect((error as RouteError).messageKey).toBe('page.error.chunkLoad');
    expect(env.reload).toHaveBeenCalledTimes(1);

    env.advance(1);
    void loadChunk(failing, env);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(env.reload).toHaveBeenCalledTimes(2);
  });
});
