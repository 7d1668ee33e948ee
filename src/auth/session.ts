import { useSyncExternalStore } from 'react';
import { createActor, waitFor } from 'xstate';
import { authMachineWithApi, requestToken, tokenPhase, tokenUsable, type AuthSnapshot, type TokenPhase } from '../../machines/auth.machine.ts';
import type { UserInfo } from '../../protocol/auth.ts';
import { createAuthApi, type ClientError } from '../../streams/api.ts';
import { loadingBar } from '../components/loading-bar.ts';

/**
 * The signed-in session, held by the auth machine (machines/auth.machine.ts): sign-in, the reset of an
 * expired password, the user, the token's expiry (SPEC §4: 500 ms early) and its refusal. This module
 * is the one place src/ talks to that actor; views read it through useSession/useAuth.
 *
 * One sign-in serves every tab and window of the browser: the token is kept in localStorage, and the
 * `storage` event tells the other windows when it changes. A window that sees a new token takes it
 * (RESTORE when signed out, TOKEN_RENEWED when signed in as the same user: the page, its connection
 * and its subscriptions stay); a window that sees it removed signs out. Only signing out removes it:
 * an expired token stays (every window expires at the same moment by itself) and is refused on the
 * next load by RESTORE's own check.
 */
export interface Session {
  /** Null once the token expired: the session stays on screen, requests are blocked. */
  token: string | null;
  /** Epoch milliseconds of the token's real expiry. */
  expiresAt: number;
  user: UserInfo | null;
  /** Where the token is in its life: valid, expiring (the warning), renewing, expired (no actions). */
  phase: TokenPhase;
  /** The machine's last error (a refused renewal, or AUTH_TOKEN_EXPIRED). */
  error: ClientError | null;
}

const STORAGE_KEY = 'exchange.session';

/** Auth calls run under the loading bar like every other request (the fetch is looked up per call). */
const trackedFetch: typeof fetch = (input, init) => loadingBar.track(globalThis.fetch(input, init));
export const authApi = createAuthApi({ fetch: trackedFetch });
export const authActor = createActor(authMachineWithApi(authApi), { input: {} });

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

let current: Session | null = null;
const listeners = new Set<() => void>();

function sessionOf(snapshot: AuthSnapshot): Session | null {
  const { token, expiresAt, user, error } = snapshot.context;
  const phase = tokenPhase(snapshot);
  if (phase === null || expiresAt === null || (token === null && phase !== 'expired')) return null;
  if (current && current.token === token && current.expiresAt === expiresAt && current.user === user && current.phase === phase && current.error === error) return current;
  return { token, expiresAt, user, phase, error };
}

interface StoredSession {
  token: string;
  expiresAt: string;
}

function readStored(raw: string | null | undefined): StoredSession | null {
  if (!raw) return null;
  try {
    const saved = JSON.parse(raw) as { token?: unknown; expiresAt?: unknown };
    return typeof saved.token === 'string' && typeof saved.expiresAt === 'string' ? { token: saved.token, expiresAt: saved.expiresAt } : null;
  } catch {
    return null; // a damaged entry counts as none
  }
}

function writeStored(value: StoredSession | null): void {
  try {
    const store = storage();
    if (!store) return;
    if (value === null) store.removeItem(STORAGE_KEY);
    else if (readStored(store.getItem(STORAGE_KEY))?.token !== value.token) store.setItem(STORAGE_KEY, JSON.stringify(value));
  } catch {
    // Storage full or blocked: the session still lives in this window.
  }
}

/** The `sub` claim of a token (who it signs in), read without checking it: the server checks. */
export function tokenSubject(token: string): string | null {
  try {
    const payload = token.split('.')[1];
    if (!payload) return null;
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown };
    return typeof json.sub === 'string' ? json.sub : null;
  } catch {
    return null;
  }
}

let previous: AuthSnapshot = authActor.getSnapshot();

/** Keeps the stored token in step with this window's machine: a new token is shared, signing out removes it. */
function share(snapshot: AuthSnapshot): void {
  const before = previous;
  previous = snapshot;
  const { token, expiresAt } = snapshot.context;
  if (snapshot.matches('signedIn') && token && expiresAt !== null && token !== before.context.token) {
    writeStored({ token, expiresAt: new Date(expiresAt).toISOString() });
  } else if (snapshot.matches('signedOut') && !before.matches('signedOut') && !applyingRemote) {
    writeStored(null);
  }
}

function update(): void {
  const snapshot = authActor.getSnapshot();
  share(snapshot);
  const next = sessionOf(snapshot);
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener();
}

/** True while this window applies another window's change (it must not echo it back). */
let applyingRemote = false;
const remoteListeners = new Set<() => void>();

/** Another window signed in, renewed or signed out: this window follows. */
export function applyStoredSession(raw: string | null): void {
  const stored = readStored(raw);
  const snapshot = authActor.getSnapshot();
  if (stored && stored.token === snapshot.context.token) return;
  applyingRemote = true;
  try {
    if (!stored) {
      if (snapshot.matches('signedOut')) return;
      authActor.send({ type: 'SIGN_OUT' });
    } else if (snapshot.matches('signedIn') && sameSubject(snapshot, stored.token)) {
      authActor.send({ type: 'TOKEN_RENEWED', token: stored.token, expiresAt: stored.expiresAt });
      return; // the page stays as it is
    } else {
      if (!snapshot.matches('signedOut') && !snapshot.matches('tokenExpired')) authActor.send({ type: 'SIGN_OUT' });
      authActor.send({ type: 'RESTORE', token: stored.token, expiresAt: stored.expiresAt });
    }
  } finally {
    applyingRemote = false;
  }
  for (const listener of remoteListeners) listener();
}

function sameSubject(snapshot: AuthSnapshot, token: string): boolean {
  const subject = tokenSubject(token);
  const mine = snapshot.context.user?.userId ?? (snapshot.context.token ? tokenSubject(snapshot.context.token) : null);
  return subject !== null && subject === mine;
}

/** Called after this window followed another window's sign-in or sign-out (the router runs its middleware again). */
export function subscribeRemoteSessionChange(listener: () => void): () => void {
  remoteListeners.add(listener);
  return () => remoteListeners.delete(listener);
}

authActor.subscribe(update);
authActor.start();
restore();
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEY || event.key === null) applyStoredSession(event.newValue);
  });
}

function restore(): void {
  const saved = readStored(storage()?.getItem(STORAGE_KEY));
  if (saved) authActor.send({ type: 'RESTORE', token: saved.token, expiresAt: saved.expiresAt });
}

export function isExpired(session: Pick<Session, 'expiresAt'>, now = Date.now()): boolean {
  return !tokenUsable(session.expiresAt, now);
}

export function getSession(): Session | null {
  return current;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Signs in again as the same user (password and a new verification code) while the page stays:
 * resolves once the machine has the new token, or rejects with the refusal.
 */
export async function renewSession(password: string, code: string): Promise<void> {
  authActor.send({ type: 'RENEW', password, code });
  const snapshot = await waitFor(authActor, (s) => !s.matches({ signedIn: { token: 'renewing' } }));
  if (tokenPhase(snapshot) === 'valid') return;
  throw snapshot.context.error ?? { code: 'UNKNOWN_ERROR', params: {} };
}

/** The same user's fresh token from the server (after a password change): the page and its connection stay. */
export function adoptRenewedToken(token: string, expiresAt: string): void {
  authActor.send({ type: 'TOKEN_RENEWED', token, expiresAt });
}

/** Starts a session from a token obtained elsewhere (RESTORE); an expired one is ignored. */
export function startSession(token: string, expiresAt: string): void {
  if (!authActor.getSnapshot().matches('signedOut')) authActor.send({ type: 'SIGN_OUT' });
  authActor.send({ type: 'RESTORE', token, expiresAt });
}

/** Replaces the signed-in user's data (after a preferences save or a password change). */
export function setSessionUser(user: UserInfo): void {
  authActor.send({ type: 'USER_UPDATED', user });
}

/** Why a session ends: the user signed out, or the token expired or was refused. */
export type SessionEndReason = 'signOut' | 'expired';

export function endSession(reason: SessionEndReason = 'signOut'): void {
  const snapshot = authActor.getSnapshot();
  if (reason === 'expired' && snapshot.matches('signedIn')) {
    authActor.send({ type: 'TOKEN_REJECTED', code: 'AUTH_TOKEN_EXPIRED' });
  } else if (!snapshot.matches('signedOut')) {
    authActor.send({ type: 'SIGN_OUT' });
  }
}

/**
 * This window leaves its expired session for the sign-in page (the user went to another page):
 * signed out here only; other windows keep their pages and their dialog.
 */
export function leaveExpiredSession(): void {
  if (tokenPhase(authActor.getSnapshot()) !== 'expired') return;
  applyingRemote = true;
  try {
    authActor.send({ type: 'SIGN_OUT' });
  } finally {
    applyingRemote = false;
  }
}

/** 'expired' while the machine says the session's token expired (the login page says so). */
export function peekSessionEndReason(): SessionEndReason | null {
  const snapshot = authActor.getSnapshot();
  return snapshot.matches('tokenExpired') || tokenPhase(snapshot) === 'expired' ? 'expired' : null;
}

/** The token if requests may use it (SPEC §7: never an expired one); an expired session is ended here. */
export function activeToken(now = Date.now()): string | null {
  const snapshot = authActor.getSnapshot();
  const token = requestToken(snapshot, now);
  if (!token && snapshot.matches('signedIn') && snapshot.context.token) endSession('expired');
  return token;
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

/** Resolves once the machine has left its transient states (a call in flight). */
export function settledAuth(): Promise<AuthSnapshot> {
  return waitFor(
    authActor,
    (snapshot) => !snapshot.matches('signingIn') && !snapshot.matches('resetting') && !snapshot.matches({ signedIn: { user: 'loadingUser' } }),
  );
}
