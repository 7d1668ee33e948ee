import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AuthService } from './auth/auth-service.ts';
import { LoginLimiter, type LoginLimiterOptions } from './auth/login-limiter.ts';
import { TokenService } from './auth/tokens.ts';
import { loadDemoExchangeIfEmpty } from './demo/demo-exchange.ts';
import { attachGateway } from './gateway-wiring.ts';
import type { StompGateway } from './gateway/stomp-gateway.ts';
import { createHttpApp } from './http/app.ts';
import { loadOrCreateSecret } from './store/secrets.repository.ts';
import { openStore, type Store } from './store/store.ts';

export interface ExchangeServerOptions {
  port: number;
  host: string;
  /** PGlite data directory; undefined with no databaseUrl means an in-memory database (tests). */
  dataDir: string | undefined;
  databaseUrl: string | undefined;
  clientDir: string;
  logRequests?: boolean;
  trustProxy?: boolean;
  /** The clock; tests move it to pass TOTP steps and token expiry. */
  now?: () => number;
  loginLimits?: LoginLimiterOptions;
}

export interface ExchangeServer {
  url: string;
  port: number;
  app: FastifyInstance;
  store: Store;
  auth: AuthService;
  gateway: StompGateway;
  close(): Promise<void>;
}

/** Composes store, auth, HTTP and the STOMP gateway on one port. */
export async function startExchangeServer(options: ExchangeServerOptions): Promise<ExchangeServer> {
  const now = options.now ?? Date.now;
  const store = await openStore({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
  try {
    await loadDemoExchangeIfEmpty(store, new Date(now()));
    const tokens = new TokenService(await loadOrCreateSecret(store.db, 'jwt-signing-key'), now);
    const auth = new AuthService({ store, tokens, now, limiter: new LoginLimiter(options.loginLimits) });
    const app = await createHttpApp({ store, auth, clientDir: options.clientDir, logger: options.logRequests ?? false, trustProxy: options.trustProxy ?? false });
    const gateway = await attachGateway(app.server, auth, store);
    await app.listen({ port: options.port, host: options.host });
    const port = (app.server.address() as AddressInfo).port;
    return {
      url: `http://${options.host}:${port}/session/`,
      port,
      app,
      store,
      auth,
      gateway,
      async close() {
        await gateway.close();
        await app.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
