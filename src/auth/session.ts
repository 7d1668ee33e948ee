import { useSyncExternalStore } from 'react';
import { createActor, waitFor } from 'xstate';
import { authMachineWithApi, requestToken, tokenUsable, type AuthSnapshot } from '../../machines/auth.machine.ts';
import type { UserInfo } from '../../protocol/auth.ts';
import { createAuthApi } from '../../streams/api.ts';
import { loadingBar } from '../components/loading-bar.ts';

/**
 * The signed-in session, held by the auth machine (machines/auth.machine.ts): sign-in, the reset of an
 * expired password, the user, the token's expiry (SPEC §4: 500 ms early) and its refusal. This module
 * is the one place src/ talks to that actor; views read it through useSession/useAuth.
 *
 * The token is mirrored in sessionStorage so a reload of the tab keeps the session (the machine takes
 * it back with RESTORE if it is still valid); closing the tab drops it.
 */
export interface Session {
  token: string;
  /** Epoch milliseconds of the token's real expiry. */
  expiresAt: number;
  user: UserInfo | null;
}

const STORAGE_KEY = 'exchange.session';

/** Auth calls run under the loading bar like every other request (the fetch is looked up per call). */
const trackedFetch: typeof fetch = (input, init) => loadingBar.track(globalThis.fetch(input, init));
export const authApi = createAuthApi({ fetch: trackedFetch });
export const authActor = createActor(authMachineWithApi(authApi), { input: {} });

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

let current: Session | null = null;
const listeners = new Set<() => void>();

function sessionOf(snapshot: AuthSnapshot): Session | null {
  const { token, expiresAt, user } = snapshot.context;
  if (!snapshot.matches('signedIn') || !token || expiresAt === null) return null;
  if (current && current.token === token && current.expiresAt === expiresAt && current.user === user) return current;
  return { token, expiresAt, user };
}

function persist(session: Session | null): void {
  try {
    if (session) storage()?.setItem(STORAGE_KEY, JSON.stringify({ token: session.token, expiresAt: new Date(session.expiresAt).toISOString() }));
    else storage()?.removeItem(STORAGE_KEY);
  } catch {
    // Storage full or blocked: the session still lives in memory.
  }
}

function update(): void {
  const next = sessionOf(authActor.getSnapshot());
  if (next === current) return;
  if (next?.token !== current?.token) persist(next);
  current = next;
  for (const listener of listeners) listener();
}

authActor.subscribe(update);
authActor.start();
restore();

function restore(): void {
  try {
    const raw = storage()?.getItem(STORAGE_KEY);
    if (!raw) return;
    const saved = JSON.parse(raw) as { token?: unknown; expiresAt?: unknown };
    if (typeof saved.token !== 'string' || typeof saved.expiresAt !== 'string') return;
    authActor.send({ type: 'RESTORE', token: saved.token, expiresAt: saved.expiresAt });
  } catch {
    // A damaged entry: start signed out.
  }
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

/** 'expired' while the machine says the last session's token expired (the login page says so). */
export function peekSessionEndReason(): SessionEndReason | null {
  return authActor.getSnapshot().matches('tokenExpired') ? 'expired' : null;
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
    (snapshot) => !snapshot.matches('signingIn') && !snapshot.matches('resetting') && !snapshot.matches({ signedIn: 'loadingUser' }),
  );
}
