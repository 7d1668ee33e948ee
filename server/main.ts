// Composes the exchange from the environment and serves it; nothing else lives here.
import { configFromEnv } from './config.ts';
import { MarketSimulator } from './demo/market-simulator.ts';
import { startExchangeServer, type ExchangeServer } from './exchange-server.ts';
import { DataDirInUseError } from './store/data-dir-lock.ts';

const config = configFromEnv();
let server: ExchangeServer;
try {
  server = await startExchangeServer({
    port: config.port,
    host: config.host,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    clientDir: config.clientDir,
    logRequests: config.logRequests,
    trustProxy: config.trustProxy,
    conflateMs: config.conflateMs,
    tokenTtlSeconds: config.tokenTtlSeconds,
    maxConnectionsPerAddress: config.maxConnectionsPerAddress,
    maxSessionsPerUser: config.maxSessionsPerUser,
    demoSettlement: true,
    demoWorkflows: true,
  });
} catch (error) {
  // An expected refusal is a message, not a stack trace.
  if (!(error instanceof DataDirInUseError)) throw error;
  console.error(error.message);
  process.exit(1);
}

let simulator: MarketSimulator | null = config.simulator ? new MarketSimulator({ api: `${server.url}api`, log: (message) => console.warn(message) }) : null;
try {
  await simulator?.start();
} catch (error) {
  // The exchange runs without it (for example on a database made before the simulator users existed).
  console.warn(`Market simulator not started: ${(error as Error).message}`);
  simulator = null;
}

console.log(`Exchange running at ${server.url}`);
console.log(`Storage: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`}`);
console.log(`Market simulator: ${simulator ? 'on (SIMULATOR=false turns it off)' : 'off'}`);
console.log('Demo logins: fixtures/demo/users.json; a verification code: npm run demo:code -- <username>');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  simulator?.stop();
  await server.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
