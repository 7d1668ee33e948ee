import { useSyncExternalStore } from 'react';
import { TOKEN_EXPIRY_MARGIN_MS, TOKEN_MAX_AGE_SECONDS, type UserInfo } from '../../protocol/auth.ts';

/**
 * The signed-in session: the bearer token in memory, mirrored in sessionStorage so a reload of the
 * tab keeps it (and closing the tab drops it). SPEC §4: a token counts as expired 500 ms early.
 * The auth machine of machines/ will take this over; the API here is what the views need today.
 */
export interface Session {
  token: string;
  /** Epoch milliseconds of the token's real expiry. */
  expiresAt: number;
  user: UserInfo | null;
}

const STORAGE_KEY = 'exchange.session';
const listeners = new Set<() => void>();
let current: Session | null = restore();

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

function restore(): Session | null {
  try {
    const raw = storage()?.getItem(STORAGE_KEY);
    if (!raw) return null;
    const saved = JSON.parse(raw) as { token?: unknown; expiresAt?: unknown };
    if (typeof saved.token !== 'string' || typeof saved.expiresAt !== 'number') return null;
    return { token: saved.token, expiresAt: saved.expiresAt, user: null };
  } catch {
    return null;
  }
}

function publish(next: Session | null): void {
  current = next;
  try {
    if (next) storage()?.setItem(STORAGE_KEY, JSON.stringify({ token: next.token, expiresAt: next.expiresAt }));
    else storage()?.removeItem(STORAGE_KEY);
  } catch {
    // Storage full or blocked: the session still lives in memory.
  }
  for (const listener of listeners) listener();
}

export function isExpired(session: Pick<Session, 'expiresAt'>, now = Date.now()): boolean {
  return now >= session.expiresAt - TOKEN_EXPIRY_MARGIN_MS;
}

export function getSession(): Session | null {
  return current;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Starts a session from the login answer; an unreadable expiry falls back to the maximum age. */
export function startSession(token: string, expiresAt: string, now = Date.now()): void {
  const parsed = Date.parse(expiresAt);
  publish({ token, expiresAt: Number.isNaN(parsed) ? now + TOKEN_MAX_AGE_SECONDS * 1000 : parsed, user: null });
}

export function setSessionUser(user: UserInfo): void {
  if (current) publish({ ...current, user });
}

export function endSession(): void {
  if (current) publish(null);
}

/** The token if it is still usable; an expired session is ended here. */
export function activeToken(now = Date.now()): string | null {
  if (!current) return null;
  if (isExpired(current, now)) {
    endSession();
    return null;
  }
  return current.token;
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
