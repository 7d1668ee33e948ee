import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildAsyncApiDocument } from './asyncapi.ts';
import { buildOpenApiDocument, type RegisteredRoute } from './openapi.ts';

/** Public and the same for everyone: caches may keep them a while (the API answers are no-store). */
const DOCUMENT_CACHE_CONTROL = 'public, max-age=300';

/**
 * GET /openapi.json and /asyncapi.json: built on the first request, when every route is registered
 * (the trading routes come after createHttpApp), then kept as text.
 */
export function apiDocumentsRoutes(routes: () => readonly RegisteredRoute[]) {
  let openApi: string | undefined;
  let asyncApi: string | undefined;
  // Runs after the API-wide onSend hook that sets no-store (route hooks come after the app's).
  const cacheable = (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    void reply.header('cache-control', DOCUMENT_CACHE_CONTROL);
    done(null, payload);
  };
  return async function register(app: FastifyInstance): Promise<void> {
    app.get('/openapi.json', { onSend: cacheable }, async (_request, reply) =>
      reply.type('application/json; charset=utf-8').send((openApi ??= JSON.stringify(buildOpenApiDocument(routes())))),
    );
    app.get('/asyncapi.json', { onSend: cacheable }, async (_request, reply) =>
      reply.type('application/json; charset=utf-8').send((asyncApi ??= JSON.stringify(buildAsyncApiDocument()))),
    );
  };
}
