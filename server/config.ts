import { resolve } from 'node:path';

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
  };
}
