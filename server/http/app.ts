import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { ServerHealth } from '../../protocol/health.ts';
import { apiError } from '../../protocol/index.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { Store } from '../store/store.ts';
import { apiDocumentsRoutes } from './api-documents.routes.ts';
import { authRoutes } from './auth.routes.ts';
import { capConnectionsPerAddress, DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, defaultHttpTimeouts, fastifyTimeoutOptions, type HttpTimeouts } from './connection-guard.ts';
import { BODY_LIMIT_BYTES, clientErrorHandlerFor, frameworkErrorHandler, installErrorHandler, type RefusalListener } from './errors.ts';
import { referenceRoutes, type SessionDateOf } from './reference.routes.ts';
import { installSecurityHeaders } from './security-headers.ts';

export const BASE_PATH = '/session/';
export const API_PREFIX = '/session/api';

/** The app's static files in the repository (Vite copies them into the build). */
const publicDir = fileURLToPath(new URL('../../public/', import.meta.url));
const brandIcons = { 'favicon.ico': 'image/x-icon', 'favicon.svg': 'image/svg+xml' } as const;

export interface HttpAppOptions {
  store: Store;
  auth: AuthService;
  /** The built client (vite build output); when missing, /session/ answers with a hint to build it. */
  clientDir: string;
  logger?: boolean;
  /** Behind a proxy, the client address comes from X-Forwarded-For. */
  trustProxy?: boolean;
  /** The market's session date, for the periods of rolling assets (default: today in Bucharest). */
  sessionDateOf?: SessionDateOf;
  /** GET /health's answer (default: ok); the exchange reports its read models and journal (protocol/health.ts). */
  health?: () => ServerHealth;
  /** Header, request, keep-alive and idle timeouts (default `defaultHttpTimeouts`; tests shorten them). */
  timeouts?: Partial<HttpTimeouts>;
  /** Open sockets allowed per remote address (default 256; 0: no cap). */
  maxConnectionsPerAddress?: number;
  /** Told of every refusal a route throws, with the request (the audit trail keeps the 403 ones). */
  onRefusal?: RefusalListener;
}

/** One route as registered: its method and full URL pattern (`/session/api/orders/:orderId`). */
export interface RouteEntry {
  method: string;
  url: string;
}

const routeTables = new WeakMap<FastifyInstance, RouteEntry[]>();

/**
 * Every route of an app made by createHttpApp, including those registered later (exchange-server.ts
 * adds the trading routes): the route fuzzer and the authorisation matrix are generated from it, so
 * a new route is fuzzed and checked without anyone listing it by hand. HEAD twins are left out.
 */
export function routeTableOf(app: FastifyInstance): readonly RouteEntry[] {
  return routeTables.get(app) ?? [];
}

/**
 * A body-less POST (cancel, suspend, activate) sent with `Content-Type: application/json` and no body
 * is what common HTTP clients send: it counts as no body. A non-empty malformed body stays
 * REQUEST_MALFORMED_JSON through Fastify's own parser (prototype poisoning refused as before).
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}

export async function createHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const timeouts = { ...defaultHttpTimeouts, ...options.timeouts };
  const app = Fastify({
    logger: options.logger ? { level: 'info' } : false,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: options.trustProxy ?? false,
    // Unknown query keys and wrong types are refused by our zod schemas, not coerced away.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // A timed-out request names the header deadline: the one a slow-loris runs into.
    clientErrorHandler: clientErrorHandlerFor(timeouts.headersMs),
    frameworkErrors: frameworkErrorHandler,
    ...fastifyTimeoutOptions(timeouts),
  });
  const routes: RouteEntry[] = [];
  routeTables.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url });
  });
  capConnectionsPerAddress(app.server, options.maxConnectionsPerAddress ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS);
  installErrorHandler(app, options.onRefusal);
  installSecurityHeaders(app, API_PREFIX);
  acceptEmptyJsonBodies(app);

  await app.register(
    async (api) => {
      api.get('/health', async () => options.health?.() ?? { status: 'ok' });
      await api.register(authRoutes(options.auth));
      await api.register(referenceRoutes(options.store, options.auth, options.sessionDateOf));
      await api.register(apiDocumentsRoutes(() => routeTableOf(app)));
    },
    { prefix: API_PREFIX },
  );

  const clientDir = resolve(options.clientDir);
  const indexPath = `${clientDir}/index.html`;
  const clientBuilt = existsSync(indexPath);
  if (clientBuilt) {
    await app.register(fastifyStatic, { root: clientDir, prefix: BASE_PATH, wildcard: false, index: false });
  }
  const indexHtml = clientBuilt ? readFileSync(indexPath, 'utf8') : null;

  // The brand icons: the built client's when it has them (served above), else public/'s, so every
  // server has an icon; /favicon.ico too, which browsers ask for at the root.
  for (const [file, type] of Object.entries(brandIcons)) {
    const built = clientBuilt && existsSync(`${clientDir}/${file}`);
    const path = built ? `${clientDir}/${file}` : `${publicDir}${file}`;
    if (!existsSync(path)) continue;
    const body = readFileSync(path);
    const send = async (_request: unknown, reply: FastifyReply) => reply.type(type).header('cache-control', 'public, max-age=86400').send(body);
    if (!built) app.get(`${BASE_PATH}${file}`, send);
    if (file === 'favicon.ico') app.get('/favicon.ico', send);
  }

  app.get('/', async (_request, reply) => reply.redirect(BASE_PATH));
  // History fallback: any /session/... path that is not a file or an API call gets the app, which shows its own 404.
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // Not a route of its own: with ignoreTrailingSlash a '/session' route would also catch '/session/'.
    if (path === '/session') return reply.redirect(BASE_PATH);
    const isApi = path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
    // HEAD too (monitors and link checkers ask with it): the same answer, which Node sends without its body.
    if (!isApi && (request.method === 'GET' || request.method === 'HEAD') && path.startsWith(BASE_PATH)) {
      if (indexHtml) return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
      return reply.status(503).type('text/plain; charset=utf-8').send('The web client is not built yet: run `npm run build`.');
    }
    return reply.status(404).send({ error: apiError('NOT_FOUND', { path: path.slice(0, 200) }) });
  });
  return app;
}
