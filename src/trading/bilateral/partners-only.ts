/**
 * The "Only partners' orders" choice of the bilateral books, kept per user in localStorage (as the
 * ticket's last client is, machines/client-memory.ts), so two traders sharing a browser keep their own.
 */
import { useCallback, useState } from 'react';

const KEY_PREFIX = 'exchange.book.partnersOnly.';

export function partnersOnlyKey(username: string): string {
  return KEY_PREFIX + username;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readPartnersOnly(username: string | null): boolean {
  if (username === null) return false;
  try {
    return storage()?.getItem(partnersOnlyKey(username)) === 'true';
  } catch {
    return false;
  }
}

export function writePartnersOnly(username: string | null, on: boolean): void {
  if (username === null) return;
  try {
    storage()?.setItem(partnersOnlyKey(username), on ? 'true' : 'false');
  } catch {
    // Storage full or blocked: the choice holds for this page only.
  }
}

/** The user's choice and its setter (which also keeps it). */
export function usePartnersOnly(username: string | null): [boolean, (on: boolean) => void] {
  const [state, setState] = useState(() => ({ username, on: readPartnersOnly(username) }));
  // Another user signed in on the same page: read theirs.
  const current = state.username === username ? state : { username, on: readPartnersOnly(username) };
  if (current !== state) setState(current);
  const set = useCallback(
    (on: boolean) => {
      writePartnersOnly(username, on);
      setState({ username, on });
    },
    [username],
  );
  return [current.on, set];
}
