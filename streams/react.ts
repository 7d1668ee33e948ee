/**
 * React binding for the connection hub. Under StrictMode React mounts, unmounts and mounts again
 * every component in development: the effect acquires a lease, the cleanup releases it, and the
 * hub waits `releaseDelayMs` (a macrotask by default) before disconnecting a connection nobody
 * holds, so the second mount takes the same connection. Exactly one stompjs Client and one socket.
 */
import { useEffect, useState } from 'react';
import { connectionHub, type Connection, type ConnectionHub } from './connection.ts';

/**
 * The connection for `key` while the component is mounted; null on the first render. `create` is
 * called once per key for the whole app (the first component that needs it).
 */
export function useConnection(key: string, create: () => Connection, hub: ConnectionHub = connectionHub): Connection | null {
  const [connection, setConnection] = useState<Connection | null>(() => hub.peek(key) ?? null);
  useEffect(() => {
    const lease = hub.acquire(key, create);
    setConnection(lease.connection);
    return () => lease.release();
    // `create` is deliberately not a dependency: a new closure per render must not reconnect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, hub]);
  return connection;
}
