/** SPEC §2/§9: when a code chunk fails to load, reload the page, at most once per 60 s. */
export const CHUNK_RELOAD_GUARD_MS = 60_000;
const STORAGE_KEY = 'exchange.chunkReloadAt';

export function shouldReloadAfterChunkError(now: number, lastReloadAt: number | null): boolean {
  return lastReloadAt === null || now - lastReloadAt >= CHUNK_RELOAD_GUARD_MS;
}

export function installChunkReload(win: Window = window): void {
  win.addEventListener('vite:preloadError', (event) => {
    const last = Number(win.sessionStorage.getItem(STORAGE_KEY));
    const now = Date.now();
    if (!shouldReloadAfterChunkError(now, Number.isFinite(last) && last > 0 ? last : null)) return;
    event.preventDefault();
    win.sessionStorage.setItem(STORAGE_KEY, String(now));
    win.location.reload();
  });
}
