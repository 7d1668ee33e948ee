import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long the HTTP server waits on a client, in ms. A socket that sends nothing, or dribbles a
 * request byte by byte (slow-loris), is closed instead of holding a descriptor forever.
 */
export interface HttpTimeouts {
  /** Socket idle time (Fastify's connectionTimeout): a connection silent this long is closed. */
  connectionMs: number;
  /** The whole request line and headers must arrive within this. */
  headersMs: number;
  /** The whole request, body included, must arrive within this. */
  requestMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number;
  /** How often Node checks the header and request deadlines (it checks on a timer, not per socket). */
  checkIntervalMs: number;
}

/**
 * Defaults: a browser sends its headers at once, and the largest body (64 KiB) takes well under a
 * second even on a poor line, so 10 s for headers and 30 s for a request leave room. Node's header
 * clock starts when the socket connects, so a socket that sends nothing is answered 408
 * REQUEST_TIMEOUT and closed at the header deadline, like a slow-loris that dribbles its headers.
 * The idle timeout (30 s) ends a socket with no traffic either way, such as a response that makes no
 * progress. Keep-alive 5 s is Node's own default (long enough for a burst of API calls); behind a
 * load balancer it must exceed the balancer's idle timeout (docs/reliability.md "HTTP").
 */
export const defaultHttpTimeouts: HttpTimeouts = {
  connectionMs: 30_000,
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 1_000,
};

/**
 * Open sockets allowed from one remote address (HTTP and upgraded STOMP sockets together). A browser
 * keeps about 6 HTTP connections and one socket per tab; a trading office of 30 people behind one NAT
 * with several tabs each stays far below 256. Behind a reverse proxy every socket comes from the proxy:
 * raise the cap there (the proxy limits per client) or set 0 to switch it off.
 */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256;

/** Fastify's server options for the timeouts (the header deadline and its check go to Node's createServer). */
export function fastifyTimeoutOptions(timeouts: HttpTimeouts) {
  return {
    connectionTimeout: timeouts.connectionMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: timeouts.checkIntervalMs },
  };
}

/**
 * Counts open sockets per remote address and destroys a new one over `maxPerAddress` at once, before
 * it is parsed: one address cannot take every descriptor of the process. 0 turns the cap off.
 * An upgraded STOMP socket stays counted until it closes; the timeouts above do not reach it (ws
 * clears the socket's idle timeout and Node stops the header and request clocks at the upgrade).
 */
export function capConnectionsPerAddress(server: Server, maxPerAddress: number): { open(address: string): number; refused(): number } {
  const open = new Map<string, number>();
  let refused = 0;
  if (maxPerAddress > 0) {
    server.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? 'unknown';
      const count = open.get(address) ?? 0;
      if (count >= maxPerAddress) {
        refused += 1;
        socket.destroy();
        return;
      }
      open.set(address, count + 1);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left <= 0) open.delete(address);
        else open.set(address, left);
      });
    });
  }
  return { open: (address) => open.get(address) ?? 0, refused: () => refused };
}
