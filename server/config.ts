import { resolve } from 'node:path';
import { TOKEN_MAX_AGE_SECONDS } from '../protocol/auth.ts';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  clientDir: string;
  /** Runs the market simulator that keeps demo books moving. */
  simulator: boolean;
  logRequests: boolean;
  trustProxy: boolean;
  /** Book and market-watch conflation window, ms. */
  conflateMs: number;
  /** Lifetime of a sign-in token, seconds (tests shorten it to see the expiry warning). */
  tokenTtlSeconds: number;
  /** Open sockets allowed per remote address; 0: no cap (behind a proxy every socket is the proxy's). */
  maxConnectionsPerAddress: number;
  /** STOMP sessions one user may hold at once (0: no cap). */
  maxSessionsPerUser: number;
}

function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be an integer from 0 to 65535, got "${value}"`);
  return port;
}

function parseFlag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new Error(`expected a boolean (true/false), got "${value}"`);
}

function parseConflate(value: string | undefined): number {
  if (value === undefined || value === '') return 20;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0 || ms > 1000) throw new Error(`CONFLATE_MS must be an integer from 0 to 1000, got "${value}"`);
  return ms;
}

function parseTokenTtl(value: string | undefined): number {
  if (value === undefined || value === '') return TOKEN_MAX_AGE_SECONDS;
  const seconds = Number(value);
  // Never above the maximum age the token check allows (SPEC §9).
  if (!Number.isInteger(seconds) || seconds < 10 || seconds > TOKEN_MAX_AGE_SECONDS) {
    throw new Error(`TOKEN_TTL_SECONDS must be an integer from 10 to ${TOKEN_MAX_AGE_SECONDS}, got "${value}"`);
  }
  return seconds;
}

function parseConnectionCap(value: string | undefined): number {
  if (value === undefined || value === '') return 256;
  const cap = Number(value);
  if (!Number.isInteger(cap) || cap < 0) throw new Error(`MAX_CONNECTIONS_PER_ADDRESS must be a whole number (0: no cap), got "${value}"`);
  return cap;
}

function parseSessionCap(value: string | undefined): number {
  if (value === undefined || value === '') return 100;
  const cap = Number(value);
  if (!Number.isInteger(cap) || cap < 0) throw new Error(`MAX_SESSIONS_PER_USER must be a whole number (0: no cap), got "${value}"`);
  return cap;
}

/** Reads the environment; see README "Configuration". */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    port: parsePort(env.PORT, 8080),
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    clientDir: resolve(env.CLIENT_DIR || './dist/client'),
    simulator: parseFlag(env.SIMULATOR, true),
    logRequests: parseFlag(env.LOG_REQUESTS, false),
    trustProxy: parseFlag(env.TRUST_PROXY, false),
    conflateMs: parseConflate(env.CONFLATE_MS),
    tokenTtlSeconds: parseTokenTtl(env.TOKEN_TTL_SECONDS),
    maxConnectionsPerAddress: parseConnectionCap(env.MAX_CONNECTIONS_PER_ADDRESS),
    maxSessionsPerUser: parseSessionCap(env.MAX_SESSIONS_PER_USER),
  };
}
