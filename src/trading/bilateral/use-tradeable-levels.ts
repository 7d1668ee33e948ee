import { useEffect, useRef, useState } from 'react';
import type { Observable } from 'rxjs';
import { storedClientMemory } from '../../../machines/client-memory.ts';
import { fetchTradeableLevels } from '../../api/bilateral.ts';
import { createTradeableFeed, type TradeableFeed } from './tradeable-feed.ts';
import { tradeableBookOf, type TradeableBook } from './tradeable-levels.ts';

export interface TradeableLevelsInput {
  assetId: string;
  /** Only a bilateral asset is asked about (the server refuses the others). */
  bilateral: boolean;
  /** The book's seq: each change of it asks again (debounced). */
  bookSeq: number | null;
  username: string | null;
  /** The user's clients: none, nothing to ask. */
  clientCodes: readonly string[];
  /** Changes of the user's whitelist relations: each asks again. */
  whitelistChanges$?: Observable<unknown> | undefined;
}

export interface TradeableLevelsState {
  tradeable: TradeableBook | null;
  /** The last request failed (the marks are gone until one succeeds). */
  failed: boolean;
}

/**
 * The client the book shows tradeable quantities for: the one the order ticket starts with on this
 * asset (the last one the user placed an order for, machines/client-memory.ts), else the user's only
 * client, else null (all of them). Read at every request, so it follows the ticket.
 */
export function bookClient(username: string, assetId: string, clientCodes: readonly string[]): string | null {
  const last = storedClientMemory(username).recall(assetId);
  if (last !== null && clientCodes.includes(last)) return last;
  return clientCodes.length === 1 ? clientCodes[0]! : null;
}

const none: TradeableLevelsState = { tradeable: null, failed: false };

function isAbort(error: unknown): boolean {
  return error !== null && typeof error === 'object' && (error as { name?: unknown }).name === 'AbortError';
}

/** What the user's clients may trade with on a bilateral asset's book, kept up with the book and the whitelist. */
export function useTradeableLevels({ assetId, bilateral, bookSeq, username, clientCodes, whitelistChanges$ }: TradeableLevelsInput): TradeableLevelsState {
  const [state, setState] = useState<TradeableLevelsState & { assetId: string | null }>({ ...none, assetId: null });
  const feed = useRef<TradeableFeed | null>(null);
  const clients = clientCodes.join('\n');
  const enabled = bilateral && username !== null && clients !== '';
  useEffect(() => {
    if (!enabled) return undefined;
    const codes = clients.split('\n');
    const current = createTradeableFeed({
      load: async (signal) => {
        const clientCode = bookClient(username, assetId, codes);
        return tradeableBookOf(await fetchTradeableLevels(assetId, clientCode, signal), clientCode);
      },
      onLoaded: (tradeable) => setState({ tradeable, failed: false, assetId }),
      onFailed: (error) => {
        if (!isAbort(error)) setState({ tradeable: null, failed: true, assetId });
      },
    });
    feed.current = current;
    current.changed();
    const subscription = whitelistChanges$?.subscribe(() => current.changed());
    return () => {
      subscription?.unsubscribe();
      current.dispose();
      if (feed.current === current) feed.current = null;
    };
  }, [enabled, assetId, username, clients, whitelistChanges$]);
  useEffect(() => {
    feed.current?.changed();
  }, [bookSeq]);
  // Another asset's answer (or one from before the asset stopped being asked about) is not this book's.
  return enabled && state.assetId === assetId ? state : none;
}
