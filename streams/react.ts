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
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the lease is taken in the effect (StrictMode-safe), so its connection reaches render from here
    setConnection(lease.connection);
    return () => lease.release();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- not `create`: a new closure per render must not reconnect
  }, [key, hub]);
  return connection;
}
