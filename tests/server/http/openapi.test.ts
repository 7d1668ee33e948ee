import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes } from '../../../protocol/error-codes.ts';
import { API_PREFIX, routeTableOf } from '../../../server/http/app.ts';
import { buildOpenApiDocument, OPENAPI_PREFIX, openApiPath, undescribedRoutes } from '../../../server/http/openapi.ts';
import { routeCatalogue } from '../../../server/http/route-catalogue.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is walked as plain JSON
type Json = any;

/** Every `$ref` in a JSON value. */
function refsIn(value: Json, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

/** Resolves a local JSON pointer (`#/components/schemas/OrderUpdate`) in the document; undefined when it does not. */
function resolvePointer(document: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<Json>((node, part) => (node && typeof node === 'object' ? node[part] : undefined), document);
}

let t: TestServer;
let document: Json;
let response: Response;

beforeAll(async () => {
  t = await startTestServer();
  // No token: the document is public.
  response = await fetch(`${t.api}/openapi.json`);
  document = await response.clone().json();
});
afterAll(async () => {
  await t?.server.close();
});

describe('GET /session/api/openapi.json', () => {
  it('answers without a token, as JSON a cache may keep', () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('has every route the app registered under the API prefix, each described in the route catalogue', () => {
    expect(OPENAPI_PREFIX).toBe(API_PREFIX);
    const routes = routeTableOf(t.server.app).filter((route) => route.url.startsWith(`${API_PREFIX}/`));
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes.filter((route) => !document.paths[openApiPath(route.url.slice(API_PREFIX.length))]?.[route.method.toLowerCase()]).map((route) => `${route.method} ${route.url}`);
    expect(missing).toEqual([]);
    expect(undescribedRoutes(routes)).toEqual([]);
    // And nothing described that the app does not serve (a stale catalogue entry).
    const registered = new Set(routes.map((route) => `${route.method} ${route.url.slice(API_PREFIX.length)}`));
    expect(Object.keys(routeCatalogue).filter((key) => !registered.has(key))).toEqual([]);
  });

  it('a route the catalogue lacks still appears, marked undescribed', () => {
    const built = buildOpenApiDocument([{ method: 'GET', url: `${API_PREFIX}/nowhere/:id` }]);
    expect((built.paths as Json)['/nowhere/{id}'].get['x-undescribed']).toBe(true);
    expect(undescribedRoutes([{ method: 'GET', url: `${API_PREFIX}/nowhere/:id` }])).toEqual(['GET /nowhere/:id']);
  });

  it('is OpenAPI 3.1 and every $ref resolves', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBeTruthy();
    expect(document.servers).toEqual([{ url: API_PREFIX }]);
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(50);
    const dangling = [...new Set(refs)].filter((ref) => resolvePointer(document, ref) === undefined);
    expect(dangling).toEqual([]);
    for (const [path, operations] of Object.entries<Json>(document.paths)) {
      expect(path).not.toMatch(/:/);
      for (const [method, operation] of Object.entries<Json>(operations)) {
        expect(operation.responses, `${method} ${path}`).toBeTruthy();
        expect(operation.summary, `${method} ${path}`).toBeTruthy();
        // Every path parameter is declared.
        const named = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
        const declared = (operation.parameters ?? []).filter((parameter: Json) => parameter.in === 'path').map((parameter: Json) => parameter.name);
        expect(declared.sort(), `${method} ${path}`).toEqual(named.sort());
      }
    }
  });

  it('describes a route with its body, parameters, answer and refusal codes from the zod schemas', () => {
    const place = document.paths['/orders'].post;
    expect(place.security).toEqual([{ bearer: [] }]);
    expect(place.requestBody.content['application/json'].schema.properties).toHaveProperty('idempotencyKey');
    expect(place.requestBody.content['application/json'].schema.properties).toHaveProperty('price');
    expect(place.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OrderUpdate' });
    expect(document.components.schemas.OrderUpdate.properties.order).toEqual({ $ref: '#/components/schemas/Order' });
    const codes = Object.values<Json>(place.responses).flatMap((answer) => answer.content?.['application/json']?.schema?.allOf?.[1].properties.error.properties.code.enum ?? []);
    expect(codes).toEqual(expect.arrayContaining(['REQUEST_MALFORMED_JSON', 'AUTH_TOKEN_MISSING', 'ORDER_PRICE_MISSING']));
    for (const code of codes) expect(errorCodes).toContain(code);
    expect(place.responses['401'].content['application/json'].schema.allOf[1].properties.error.properties.code.enum).toContain('AUTH_TOKEN_MISSING');

    const history = document.paths['/orders/history'].get;
    expect(history.parameters.every((parameter: Json) => parameter.in === 'query')).toBe(true);
    expect(history.parameters.length).toBeGreaterThan(0);
    const login = document.paths['/login'].post;
    expect(login.security).toEqual([]);
    // Public: no token codes, but its own sign-in ones.
    const loginUnauthorized = login.responses['401'].content['application/json'].schema.allOf[1].properties.error.properties.code.enum;
    expect(loginUnauthorized).toContain('AUTH_CODE_INVALID');
    expect(loginUnauthorized).not.toContain('AUTH_TOKEN_MISSING');
    expect(document.paths['/workflows/otc'].post.parameters.map((parameter: Json) => parameter.name)).toContain('Idempotency-Key');
    expect(document.paths['/clearing/daily-notes/{noteId}/pdf'].get.responses['200'].content).toHaveProperty('application/pdf');
    expect(document.components.schemas.ErrorCode.enum).toEqual(errorCodes);
  });

  it('declares read-your-writes on the lagging reads: the minSeq parameter, the X-Exchange-Seq header and READ_NOT_CAUGHT_UP', () => {
    for (const path of ['/books/{assetId}', '/transactions', '/orders/mine']) {
      const read = document.paths[path].get;
      expect(read.parameters.find((parameter: Json) => parameter.name === 'minSeq'), path).toMatchObject({ in: 'query', required: false });
      expect(read.responses['200'].headers['X-Exchange-Seq'].schema, path).toEqual({ type: 'integer', minimum: 0 });
      expect(read.responses['503'].content['application/json'].schema.allOf[1].properties.error.properties.code.enum, path).toContain('READ_NOT_CAUGHT_UP');
    }
    expect(document.paths['/orders'].post.responses['503'].content['application/json'].schema.allOf[1].properties.error.properties.code.enum).not.toContain('READ_NOT_CAUGHT_UP');
  });

  it('the answers the server sends match the response schemas the document declares (GET routes without parameters, as the administrator)', async () => {
    const token = await t.login('admin');
    // The routes whose query has a required field.
    const broker1 = (await t.get('/user/info', await t.login('broker1'))).body.userId as string;
    const requiredQuery: Record<string, string> = { 'GET /chat/messages': `?with=${broker1}` };
    const checked: string[] = [];
    const mismatches: string[] = [];
    for (const [key, description] of Object.entries(routeCatalogue)) {
      const [method, path] = key.split(' ') as [string, string];
      if (method !== 'GET' || path.includes(':') || !description.response) continue;
      const answer = await t.get(path + (requiredQuery[key] ?? ''), token);
      expect(answer.status, key).toBe(200);
      const parsed = description.response.safeParse(answer.body);
      if (!parsed.success) mismatches.push(`${key}: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`);
      checked.push(key);
    }
    expect(checked.length).toBeGreaterThan(20);
    expect(mismatches).toEqual([]);
  });
});
