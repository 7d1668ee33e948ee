import { z } from 'zod';
import * as health from '../../protocol/health.ts';
import * as protocol from '../../protocol/index.ts';
import { errorCodes, httpStatusOf, type ErrorCode } from '../../protocol/index.ts';
import * as orderHistory from '../../protocol/order-history.ts';
import { errorFamiliesOf, routeCatalogue, routeTags, type RouteDescription } from './route-catalogue.ts';

/** One registered route (app.ts's RegisteredRoute; restated so this module does not import the app). */
export interface RegisteredRoute {
  method: string;
  url: string;
}

/** Where the API is mounted: app.ts's API_PREFIX, restated so app.ts → this file stays one-way (a test checks they agree). */
export const OPENAPI_PREFIX = '/session/api';

/** A JSON Schema object as z.toJSONSchema writes it. */
export type JsonSchema = Record<string, unknown>;

export const componentRef = (name: string) => `#/components/schemas/${name}`;

/**
 * Every `...Schema` zod export of protocol/, by component name (`orderUpdateSchema` → `OrderUpdate`):
 * registered once so a nested schema becomes a `$ref` to its own component, named as in the code.
 */
export function protocolSchemaNames(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  for (const module of [protocol, health, orderHistory] as Array<Record<string, unknown>>) {
    for (const [exportName, value] of Object.entries(module)) {
      if (!exportName.endsWith('Schema') || !(value instanceof z.ZodType) || names.has(value)) continue;
      const base = exportName.slice(0, -'Schema'.length);
      names.set(value, base.charAt(0).toUpperCase() + base.slice(1));
    }
  }
  return names;
}

/**
 * Converts schemas to components in one pass: each registered schema becomes `components.schemas[name]`
 * and every use of it inside another a `$ref`. `io`: 'output' for answers (what the server sends),
 * 'input' for bodies (defaults make fields optional).
 */
export function componentsOf(named: Map<z.ZodType, string>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, unrepresentable: 'any', uri: componentRef }) as { schemas: Record<string, JsonSchema> };
  // Components carry no $schema/$id of their own: the document's dialect is 3.1's, and refs are local.
  return Object.fromEntries(Object.entries(schemas).map(([name, { $schema: _schema, $id: _id, ...rest }]) => [name, rest]));
}

/** A schema inlined (a request body or a parameter object): no refs, input view. */
function inline(schema: z.ZodType): JsonSchema {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any', reused: 'inline', cycles: 'ref' }) as JsonSchema;
  return rest;
}

/** `/orders/:orderId` → `/orders/{orderId}`. */
export const openApiPath = (fastifyPath: string) => fastifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The catalogue key of a registered route: `METHOD /path` under the API prefix. */
export const routeKeyOf = (route: RegisteredRoute) => `${route.method} ${route.url.slice(OPENAPI_PREFIX.length) || '/'}`;

const isApiRoute = (route: RegisteredRoute) => route.url === OPENAPI_PREFIX || route.url.startsWith(`${OPENAPI_PREFIX}/`);

/** The routes registered under the API prefix that the catalogue does not describe. */
export function undescribedRoutes(routes: readonly RegisteredRoute[]): string[] {
  return routes.filter(isApiRoute).map(routeKeyOf).filter((key) => !(key in routeCatalogue));
}

const genericCodes: ErrorCode[] = ['REQUEST_INVALID', 'REQUEST_TIMEOUT', 'NOT_FOUND', 'UNKNOWN_ERROR', 'SERVICE_UNAVAILABLE'];
const bodyCodes: ErrorCode[] = ['REQUEST_MALFORMED_JSON', 'REQUEST_BODY_TOO_LARGE', 'REQUEST_UNSUPPORTED_MEDIA_TYPE'];
const signedInCodes: ErrorCode[] = ['AUTH_TOKEN_MISSING', 'AUTH_TOKEN_EXPIRED', 'AUTH_TOKEN_INVALID', 'AUTH_TOKEN_REVOKED', 'FORBIDDEN'];

/**
 * The codes a route can raise: the generic ones, the token ones when it needs a token, and the families
 * of its tag (ORDER_* for orders…). An over-approximation by domain, not traced through the services.
 */
export function errorCodesOf(description: RouteDescription, method: string): ErrorCode[] {
  const codes = new Set<ErrorCode>(genericCodes);
  if (method !== 'GET' && method !== 'DELETE') for (const code of bodyCodes) codes.add(code);
  if (!description.public) for (const code of signedInCodes) codes.add(code);
  if (description.readsAtSeq) codes.add('READ_NOT_CAUGHT_UP');
  const families = errorFamiliesOf[description.tag];
  for (const code of errorCodes) {
    // A public route reads no token, so none of the token codes.
    if (description.public && code.startsWith('AUTH_TOKEN_')) continue;
    if (families.some((family) => code.startsWith(family))) codes.add(code);
  }
  return [...codes];
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = inline(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }));
}

function errorResponses(codes: ErrorCode[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(httpStatusOf(code), [...(byStatus.get(httpStatusOf(code)) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, statusCodes]) => [
      String(status),
      {
        description: `Refused: ${statusCodes.length} code(s) of the catalogue`,
        content: {
          'application/json': {
            schema: { allOf: [{ $ref: componentRef('ErrorEnvelope') }, { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: statusCodes } } } } }] },
          },
        },
      },
    ]),
  );
}

/** `PATCH /orders/:orderId` → `patchOrdersOrderId`. */
function operationIdOf(key: string): string {
  const [method = '', path = ''] = key.split(' ');
  return method.toLowerCase() + path.replace(/[^A-Za-z0-9]+(.)?/g, (_match, next: string | undefined) => (next ? next.toUpperCase() : ''));
}

function operationOf(key: string, description: RouteDescription, responseNames: Map<z.ZodType, string>): JsonSchema {
  const method = key.split(' ')[0]!;
  const status = String(description.status ?? 200);
  const success: JsonSchema = { description: description.status === 204 ? 'No content' : 'OK' };
  if (description.file) success.content = { [description.file]: { schema: { type: 'string', format: 'binary' } } };
  else if (description.response) success.content = { 'application/json': { schema: { $ref: componentRef(responseNames.get(description.response)!) } } };
  else if (description.status !== 204) success.content = { 'application/json': { schema: { type: 'object' } } };
  if (description.readsAtSeq) {
    success.headers = {
      'X-Exchange-Seq': { description: 'The journal seq the answer stands at: it holds every record up to it (compare with an order reply\'s `seq`).', schema: { type: 'integer', minimum: 0 } },
    };
  }
  const operation: JsonSchema = {
    operationId: operationIdOf(key),
    tags: [description.tag],
    summary: description.summary,
    security: description.public ? [] : [{ bearer: [] }],
    parameters: [
      ...parametersOf(description.params, 'path'),
      ...parametersOf(description.query, 'query'),
      ...(description.idempotencyKey
        ? [{ name: 'Idempotency-Key', in: 'header', required: false, description: 'A retry with the same key and body answers the first result.', schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,100}$' } }]
        : []),
    ],
    responses: { [status]: success, ...errorResponses(errorCodesOf(description, method)) },
  };
  if (description.body) operation.requestBody = { required: true, content: { 'application/json': { schema: inline(description.body) } } };
  else if (description.bodyMediaType) operation.requestBody = { required: true, content: { [description.bodyMediaType]: { schema: { type: 'object' } } } };
  return operation;
}

/**
 * The OpenAPI 3.1 document of every route registered under the API prefix, described from the route
 * catalogue's zod schemas. A registered route the catalogue lacks still appears, marked
 * `x-undescribed` (and the test fails on it), so the document never hides a route.
 */
export function buildOpenApiDocument(routes: readonly RegisteredRoute[]): JsonSchema {
  const apiRoutes = routes.filter(isApiRoute);
  const responseNames = protocolSchemaNames();
  for (const route of apiRoutes) {
    const response = routeCatalogue[routeKeyOf(route)]?.response;
    if (response && !responseNames.has(response)) responseNames.set(response, `${operationIdOf(routeKeyOf(route)).replace(/^./, (first) => first.toUpperCase())}Response`);
  }
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of apiRoutes) {
    const key = routeKeyOf(route);
    const path = openApiPath(route.url.slice(OPENAPI_PREFIX.length) || '/');
    const description = routeCatalogue[key];
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = description
      ? operationOf(key, description, responseNames)
      : { summary: 'Not described in server/http/route-catalogue.ts.', 'x-undescribed': true, responses: { default: { description: 'Unknown' } } };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Exchange trading API',
      version: '1',
      description:
        'REST API of the exchange. Prices and quantities are integers in the minor units of the asset (see protocol/decimal.ts); their steps come from the asset specification (GET /assets/{assetId}). Every refusal is `{ error: { code, params } }` with a code of the catalogue (protocol/error-codes.ts).',
    },
    servers: [{ url: OPENAPI_PREFIX }],
    tags: routeTags.map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token POST /login answers.' } },
      schemas: {
        ...componentsOf(responseNames, 'output'),
        ErrorCode: { type: 'string', enum: errorCodes },
        ErrorParams: { type: 'object', additionalProperties: { type: ['string', 'number'] } },
        ErrorEnvelope: {
          type: 'object',
          required: ['error'],
          properties: { error: { type: 'object', required: ['code', 'params'], properties: { code: { $ref: componentRef('ErrorCode') }, params: { $ref: componentRef('ErrorParams') } } } },
        },
      },
    },
  };
}
