// Composes the exchange from the environment and serves it; nothing else lives here.
import { configFromEnv } from './config.ts';
import { startExchangeServer } from './exchange-server.ts';

const config = configFromEnv();
const server = await startExchangeServer({
  port: config.port,
  host: config.host,
  dataDir: config.dataDir,
  databaseUrl: config.databaseUrl,
  clientDir: config.clientDir,
  logRequests: config.logRequests,
  trustProxy: config.trustProxy,
  conflateMs: config.conflateMs,
});

console.log(`Exchange running at ${server.url}`);
console.log(`Storage: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`}`);
console.log('Demo logins: fixtures/demo/users.json; a verification code: npm run demo:code -- <username>');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  await server.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
