/**
 * The last client a user placed an order for, per asset: the ticket starts with it (issue 11).
 * Kept in localStorage under one key per user, so two traders sharing a browser keep their own.
 */

export interface ClientMemory {
  recall(assetId: string): string | null;
  remember(assetId: string, clientCode: string): void;
}

const KEY_PREFIX = 'exchange.ticket.lastClient.';

export function clientMemoryKey(username: string): string {
  return KEY_PREFIX + username;
}

function defaultStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** A user's memory in `storage` (localStorage by default); without storage it remembers for the page only. */
export function storedClientMemory(username: string, storage: Pick<Storage, 'getItem' | 'setItem'> | null = defaultStorage()): ClientMemory {
  const key = clientMemoryKey(username);
  let fallback: Record<string, string> | null = storage ? null : {};
  const read = (): Record<string, string> => {
    if (!storage || fallback) return fallback ?? {};
    try {
      const parsed: unknown = JSON.parse(storage.getItem(key) ?? '{}');
      return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
    } catch {
      // A damaged entry is forgotten rather than failing the ticket.
      return {};
    }
  };
  return {
    recall(assetId) {
      const value = read()[assetId];
      return typeof value === 'string' && value !== '' ? value : null;
    },
    remember(assetId, clientCode) {
      const next = { ...read(), [assetId]: clientCode };
      if (!storage) {
        fallback = next;
        return;
      }
      try {
        storage.setItem(key, JSON.stringify(next));
      } catch {
        fallback = next; // storage full or blocked: not worth failing an accepted order over
      }
    },
  };
}
