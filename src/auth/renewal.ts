import { useSyncExternalStore } from 'react';
import type { TokenPhase } from '../../machines/auth.machine.ts';
import { getSession, subscribeSession } from './session.ts';

/**
 * Whether this window shows the dialog to sign in again. It opens by itself when the warning starts
 * and again when the token expires (in every window at once: each runs the same timers on the same
 * expiry), closes when the token is valid again (renewed here or in another window), and "Later"
 * closes it in this window only; the header's countdown opens it again.
 */
let open = false;
let lastPhase: TokenPhase | null = getSession()?.phase ?? null;
const listeners = new Set<() => void>();

function set(next: boolean): void {
  if (next === open) return;
  open = next;
  for (const listener of listeners) listener();
}

subscribeSession(() => {
  const phase = getSession()?.phase ?? null;
  if (phase === lastPhase) return;
  const before = lastPhase;
  lastPhase = phase;
  if ((phase === 'expiring' && before === 'valid') || (phase === 'expired' && before !== 'renewing')) set(true);
  else if (phase === 'valid' || phase === null) set(false);
});
if (lastPhase === 'expiring' || lastPhase === 'expired') open = true;

export function openRenewal(): void {
  set(true);
}

export function closeRenewal(): void {
  set(false);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRenewalOpen(): boolean {
  return useSyncExternalStore(subscribe, () => open, () => open);
}

/** m:ss of a remaining time (never negative). */
export function formatRemaining(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
