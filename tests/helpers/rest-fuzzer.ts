import fc from 'fast-check';
import { auditQuerySchema } from '../../protocol/audit.ts';
import { recordingParamsSchema } from '../../server/http/qa.routes.ts';
import { z } from 'zod';
import {
  addOrderRequestSchema,
  changePasswordRequestSchema,
  isErrorCode,
  limitsQuerySchema,
  loginRequestSchema,
  modifyOrderRequestSchema,
  orderIdParamsSchema,
  cancelAllRequestSchema,
  positionsQuerySchema,
  preferencesSchema,
  resetExpiredPasswordRequestSchema,
  sessionPhases,
} from '../../protocol/index.ts';
import { chatMessagesQuerySchema, chatReadSchema } from '../../protocol/chat.ts';
import {
  clearingListQuerySchema,
  financialRestrictionsInputSchema,
  nominationUpdateSchema,
  obligationListQuerySchema,
  obligationSettleSchema,
  settlementPriceOverrideSchema,
  settlementRunRequestSchema,
  warrantyInputSchema,
} from '../../protocol/clearing.ts';
import { orderHistoryQuerySchema } from '../../protocol/order-history.ts';
import { participantKinds, participantSuspendSchema } from '../../protocol/participants.ts';
import { workspaceInputSchema } from '../../protocol/workspaces.ts';
import { marginActivationRequestSchema, otcDealDraftSchema, transferRequestSchema, whitelistRequestSchema, workflowActionRequestSchema, workflowListQuerySchema } from '../../protocol/workflows.ts';
import { API_PREFIX, routeTableOf, type RouteEntry } from '../../server/http/app.ts';
import type { TestServer } from './test-server.ts';

/**
 * REST fuzzing from the route table (issue 13, Build 3): every route the app registered gets random
 * and mutated path parameters, query strings and bodies derived from the zod schema its handler
 * parses with, signed in as a broker and not signed in. A request passes when the server answers
 * below 500 and every 4xx carries `error.code` from the catalogue.
 */

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const pdfQuery = z.strictObject({ lang: z.enum(['ro', 'en']).optional() });
const fileName = z.string().regex(/^[A-Za-z0-9_.-]{1,120}$/);

interface RouteSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

/**
 * The schema each route validates with, by `METHOD /path` under the API prefix. The schemas that
 * protocol/ exports are imported; the few a route file keeps to itself are restated here in the same
 * shape. A route missing from this table fails the fuzz test: add its schemas when you add a route.
 */
export const routeSchemas: Record<string, RouteSchemas> = {
  'GET /health': {},
  'GET /openapi.json': {},
  'GET /asyncapi.json': {},
  'POST /login': { body: loginRequestSchema },
  'POST /password/reset-expired': { body: resetExpiredPasswordRequestSchema },
  'GET /user/info': {},
  'POST /user/password': { body: changePasswordRequestSchema },
  'PUT /user/preferences': { body: preferencesSchema },
  'GET /user/login-history': {},
  'GET /markets': {},
  'GET /assets': {},
  'GET /assets/:assetId': { params: z.strictObject({ assetId: id }) },
  'GET /assets/:assetId/documents/:fileName': { params: z.strictObject({ assetId: id, fileName }) },
  'POST /orders': { body: addOrderRequestSchema },
  'PATCH /orders/:orderId': { params: orderIdParamsSchema, body: modifyOrderRequestSchema },
  'POST /orders/cancel-all': { body: cancelAllRequestSchema },
  'POST /orders/:orderId/cancel': { params: orderIdParamsSchema },
  'POST /orders/:orderId/suspend': { params: orderIdParamsSchema },
  'POST /orders/:orderId/activate': { params: orderIdParamsSchema },
  'GET /orders/mine': { query: z.strictObject({ assetId: id.optional(), history: z.enum(['true', 'false']).optional() }) },
  'GET /transactions': { query: z.strictObject({ scope: z.enum(['all', 'mine']).optional(), assetId: id.optional(), limit: z.int().min(1).max(1000).optional() }) },
  'GET /books/:assetId': { params: z.strictObject({ assetId: id }) },
  'GET /assets/:assetId/stats': { params: z.strictObject({ assetId: id }) },
  'GET /assets/:assetId/tradeable-levels': { params: z.strictObject({ assetId: id }), query: z.strictObject({ clientCode: id.optional() }) },
  'POST /admin/markets/:marketId/phase': {
    params: z.strictObject({ marketId: id }),
    body: z.strictObject({ phase: z.enum([...sessionPhases, 'suspend', 'resume']), assetId: id.nullable().optional() }),
  },
  'POST /admin/markets/:marketId/suspend': { params: z.strictObject({ marketId: id }) },
  'POST /admin/markets/:marketId/resume': { params: z.strictObject({ marketId: id }) },
  'GET /admin/operator': {},
  'GET /qa/recordings': {},
  'GET /qa/recordings/:name': { params: recordingParamsSchema },
  'GET /admin/audit': { query: auditQuerySchema },
  'GET /admin/audit.csv': { query: auditQuerySchema },
  'GET /orders/:orderId/timeline': { params: orderIdParamsSchema },
  'GET /admin/participants': {},
  'POST /admin/participants/:kind/:id/suspend': { params: z.strictObject({ kind: z.enum(participantKinds), id }), body: participantSuspendSchema },
  'POST /admin/participants/:kind/:id/reinstate': { params: z.strictObject({ kind: z.enum(participantKinds), id }) },
  'GET /orders/history': { query: orderHistoryQuerySchema },
  'GET /orders/:orderId/events': { params: orderIdParamsSchema },
  'GET /workspaces': {},
  'POST /workspaces': { body: workspaceInputSchema },
  'PUT /workspaces/:id': { params: z.strictObject({ id }), body: workspaceInputSchema },
  'DELETE /workspaces/:id': { params: z.strictObject({ id }) },
  'GET /account/positions': { query: positionsQuerySchema },
  'GET /account/limits': { query: limitsQuerySchema },
  'GET /chat/contacts': {},
  'GET /chat/conversations': {},
  'GET /chat/messages': { query: chatMessagesQuerySchema },
  'POST /chat/read': { body: chatReadSchema },
  'GET /clearing/warranties': { query: clearingListQuerySchema },
  'POST /admin/clearing/warranties': { body: warrantyInputSchema },
  'PUT /admin/clearing/warranties/:id': { params: z.strictObject({ id }), body: warrantyInputSchema },
  'POST /admin/clearing/warranties/:id/release': { params: z.strictObject({ id }) },
  'GET /clearing/financial-report': { query: clearingListQuerySchema },
  'GET /clearing/financial-info': { query: clearingListQuerySchema },
  'PUT /admin/clearing/financial-info/:clientCode': { params: z.strictObject({ clientCode: id }), body: financialRestrictionsInputSchema },
  'GET /clearing/nominations': { query: clearingListQuerySchema },
  'PUT /clearing/nominations/:id': { params: z.strictObject({ id }), body: nominationUpdateSchema },
  'GET /clearing/daily-settlement-prices': { query: clearingListQuerySchema },
  'GET /clearing/final-settlement-prices': { query: clearingListQuerySchema },
  'GET /clearing/settlement-runs': { query: clearingListQuerySchema },
  'GET /clearing/obligations': { query: obligationListQuerySchema },
  'GET /clearing/unpaid-transactions': { query: clearingListQuerySchema },
  'GET /clearing/bank-commissions': { query: clearingListQuerySchema },
  'GET /clearing/batches': { query: clearingListQuerySchema },
  'GET /clearing/daily-notes': { query: clearingListQuerySchema },
  'GET /clearing/daily-notes/:id': { params: z.strictObject({ id }) },
  'GET /clearing/monthly-summaries': { query: clearingListQuerySchema },
  'GET /clearing/monthly-summaries/:clientCode/:month': { params: z.strictObject({ clientCode: id, month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/) }) },
  'GET /clearing/transaction-reports': { query: clearingListQuerySchema },
  'GET /clearing/transaction-reports/:id': { params: z.strictObject({ id }) },
  'GET /clearing/daily-notes/:noteId/pdf': { params: z.strictObject({ noteId: id }), query: pdfQuery },
  'GET /clearing/monthly-summaries/:clientCode/:month/pdf': { params: z.strictObject({ clientCode: id, month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/) }), query: pdfQuery },
  'GET /clearing/transaction-reports/:reportId/pdf': { params: z.strictObject({ reportId: id }), query: pdfQuery },
  'POST /admin/clearing/settlement-runs': { body: settlementRunRequestSchema },
  'POST /admin/clearing/daily-settlement-prices/:id/override': { params: z.strictObject({ id }), body: settlementPriceOverrideSchema },
  'POST /admin/clearing/obligations/:id/settle': { params: z.strictObject({ id }), body: obligationSettleSchema },
  'GET /workflows': { query: workflowListQuerySchema },
  'GET /workflows/:instanceId': { params: z.strictObject({ instanceId: id }) },
  'POST /workflows/:instanceId/actions': { params: z.strictObject({ instanceId: id }), body: workflowActionRequestSchema },
  'POST /workflows/otc': { body: otcDealDraftSchema },
  'POST /workflows/otc/simulation': { body: otcDealDraftSchema },
  'POST /workflows/transfer': { body: transferRequestSchema },
  'POST /workflows/margin-activation': { body: marginActivationRequestSchema },
  // Contracts and whitelist (issue 15). The upload is multipart: a generated JSON body is CONTRACT_NOT_MULTIPART.
  'POST /workflows/contract': {},
  'GET /workflows/:instanceId/contract.pdf': { params: z.strictObject({ instanceId: id }) },
  'POST /workflows/whitelist': { body: whitelistRequestSchema },
  'GET /whitelist/partners': { query: z.strictObject({ clientCode: id.optional() }) },
};

/** Real ids of the demo exchange, so generated requests also reach past the "unknown id" checks. */
const knownValues: Record<string, string[]> = {
  orderId: ['O1', '1'],
  id: ['ws-1'],
  assetId: ['GSPOT-DA', 'GFWD-M-2027-01', 'ESPOT-DA-H01', 'PMC-BASE-W49', 'GBG-D'],
  marketId: ['GAS-SPOT', 'GAS-FWD', 'EL-SPOT', 'EL-PMC', 'GAS-BG'],
  clientCode: ['RO-HIDRO', 'RO-GAZEST', 'RO-TERMO', 'SIM-NORD-1'],
  with: ['broker2', 'agency1', 'admin', 'nobody'],
  way: ['bid', 'ask'],
  validityType: ['GTC', 'GTD', 'DAY', 'GTSV'],
  fileName: ['GSPOT-DA-specification.pdf', 'trading-rules.pdf'],
  username: ['broker1', 'broker2', 'admin'],
};

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  maxItems?: number;
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
};

/** Hostile scalars: what a parser, a database or a number check may not expect. */
const nastyScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    'NaN',
    'null',
    'true',
    '../../etc/passwd',
    '%00',
    '\u0000',
    "'; drop table users; --",
    '<script>alert(1)</script>',
    '\uD800',
    '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
    '2026-13-45',
    '275760-09-13T00:00:00Z',
    '__proto__',
    'constructor',
  ),
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 53), 9e15, 1e308, -1e308, Number.MIN_VALUE),
  fc.constantFrom(null, true, false, [], {}, [[[[[]]]]], { __proto__: { admin: true } }),
  fc.string({ maxLength: 300, unit: 'binary' }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Any JSON value, nested a little. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(nastyScalar, fc.jsonValue({ maxDepth: 3 }));

/** Values that satisfy a JSON Schema (what zod's toJSONSchema gives), with known ids mixed in by property name. */
function fromJsonSchema(schema: JsonSchema, propertyName?: string): fc.Arbitrary<unknown> {
  const known = propertyName ? knownValues[propertyName] : undefined;
  const base = baseFromJsonSchema(schema);
  return known ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 2 }, { arbitrary: base, weight: 1 }) : base;
}

function baseFromJsonSchema(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((member) => fromJsonSchema(member)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      if (schema.pattern) {
        try {
          const matching = fc.stringMatching(new RegExp(schema.pattern));
          return schema.maxLength === undefined ? matching : matching.filter((text) => text.length <= schema.maxLength!);
        } catch {
          // A pattern fast-check cannot generate from: plain strings below.
        }
      }
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 80, 200) });
    }
    case 'integer':
      return fc.oneof(fc.integer({ min: Math.max(schema.minimum ?? -1e9, -1e9), max: Math.min(schema.maximum ?? 1e9, 1e9) }), fc.constantFrom(schema.minimum ?? 0, schema.maximum ?? 0));
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? fromJsonSchema(schema.items) : anyJson, { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 8) });
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) record[name] = fromJsonSchema(property, name);
      // Optional keys are left out at random by fast-check.
      return fc.record(record, { requiredKeys: [...required].filter((name) => name in properties) });
    }
    default:
      return anyJson;
  }
}

function arbitraryOf(schema: z.ZodType | undefined): fc.Arbitrary<Record<string, unknown>> {
  if (!schema) return fc.constant({});
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return fromJsonSchema(json) as fc.Arbitrary<Record<string, unknown>>;
}

/** A valid object, or one mutated the ways clients get things wrong. */
function mutated(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  const edit = (object: Record<string, unknown>, how: 'drop' | 'add' | 'replace', key: string, value: unknown) => {
    const copy: Record<string, unknown> = { ...object };
    const keys = Object.keys(copy);
    if (how === 'drop' && keys.length > 0) delete copy[keys[key.length % keys.length]!];
    else if (how === 'replace' && keys.length > 0) copy[keys[key.length % keys.length]!] = value;
    else copy[key] = value;
    return copy;
  };
  return fc.oneof(
    { arbitrary: valid, weight: 3 },
    { arbitrary: fc.tuple(valid, fc.constantFrom('drop', 'add', 'replace') as fc.Arbitrary<'drop' | 'add' | 'replace'>, fc.string({ maxLength: 12 }), anyJson).map(([object, how, key, value]) => edit(object, how, key, value)), weight: 4 },
    { arbitrary: anyJson, weight: 1 },
  );
}

type Body = { kind: 'none' } | { kind: 'json'; text: string } | { kind: 'raw'; text: string; contentType: string };

function bodyOf(schema: z.ZodType | undefined): fc.Arbitrary<Body> {
  const json = mutated(arbitraryOf(schema)).map((value): Body => ({ kind: 'json', text: JSON.stringify(value) ?? 'null' }));
  const raw = fc.oneof(
    fc.constantFrom('{', '{"a":', '[1,2', '"\\u00zz"', '{"__proto__":{"x":1}}', 'null', '', '\u0000', '{"a":1,"a":2}', 'x'.repeat(70 * 1024)),
    fc.string({ maxLength: 200, unit: 'binary' }),
  );
  return fc.oneof(
    { arbitrary: json, weight: 6 },
    { arbitrary: raw.map((text): Body => ({ kind: 'raw', text, contentType: 'application/json' })), weight: 2 },
    { arbitrary: fc.tuple(raw, fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'nonsense')).map(([text, contentType]): Body => ({ kind: 'raw', text, contentType })), weight: 1 },
    { arbitrary: fc.constant<Body>({ kind: 'none' }), weight: 1 },
  );
}

/** Percent-encodes; a lone surrogate becomes the invalid UTF-8 bytes of one (a hostile input of its own). */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return `${encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, ''))}%ED%A0%80`;
  }
}

/** Query values as a browser would send them: strings, arrays as repeated keys; and raw junk. */
function queryOf(schema: z.ZodType | undefined): fc.Arbitrary<string> {
  const encodeQuery = (value: unknown): string => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      const pairs: string[] = [];
      if (value !== undefined) pairs.push(`q=${encode(String(value))}`);
      return pairs.join('&');
    }
    const pairs: string[] = [];
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      for (const one of Array.isArray(item) ? item : [item]) pairs.push(`${encode(key)}=${encode(typeof one === 'object' ? JSON.stringify(one) : String(one))}`);
    }
    return pairs.join('&');
  };
  return fc.oneof(
    { arbitrary: mutated(arbitraryOf(schema)).map(encodeQuery), weight: 6 },
    { arbitrary: fc.constantFrom('a[b]=1', 'limit=1&limit=2', '%zz', 'assetId=%00', 'from=2026-13-45', 'limit=1e309', '&&&=', 'history=TRUE', `x=${'a'.repeat(5000)}`), weight: 2 },
    { arbitrary: fc.constant(''), weight: 2 },
  );
}

/** Path parameter values: from the schema, known ids, or hostile strings (traversal, encodings, long). */
function paramsOf(schema: z.ZodType | undefined, names: string[]): fc.Arbitrary<Record<string, string>> {
  const hostile = fc.oneof(
    fc.constantFrom('..', '%2e%2e', '..%2f..%2fetc%2fpasswd', '%252e%252e', '..%5c..%5c', 'a%00b', '%', '%ff', ' ', '-', 'x'.repeat(300), '0', 'null', '%2F'),
    fc.string({ minLength: 1, maxLength: 80, unit: 'binary' }).map(encode),
  );
  const valid = arbitraryOf(schema).map((value) => Object.fromEntries(names.map((name) => [name, encode(String((value as Record<string, unknown>)[name] ?? 'x'))])));
  const mixed = fc.record(Object.fromEntries(names.map((name) => [name, fc.oneof(fc.constantFrom(...(knownValues[name] ?? ['x'])), hostile)])) as Record<string, fc.Arbitrary<string>>);
  return fc.oneof({ arbitrary: valid, weight: 2 }, { arbitrary: mixed, weight: 2 });
}

/** Objects one user owns, made through the API: their ids are what another user must not reach. */
export interface SeededObjects {
  orderId: string;
  workspaceId: string;
}

let seedSeq = 0;

/** A resting order (ESPOT-DA-H01, 2 price and 1 quantity decimals) and a workspace of the token's user. */
export async function seedObjects(t: TestServer, token: string, clientCode: string): Promise<SeededObjects> {
  seedSeq += 1;
  const order = await t.post(
    '/orders',
    { idempotencyKey: `seed-order-${String(seedSeq).padStart(4, '0')}`, assetId: 'ESPOT-DA-H01', way: 'bid', price: 10_000 + seedSeq, qty: 10, validityType: 'GTC', clientCode },
    token,
  );
  if (order.status !== 201) throw new Error(`seed order refused: ${JSON.stringify(order.body)}`);
  const workspace = await t.post('/workspaces', { name: `Seed ${seedSeq}`, type: 'gas', marketId: 'GAS-SPOT', assetIds: ['GSPOT-DA'], ringIds: [] }, token);
  if (workspace.status !== 201) throw new Error(`seed workspace refused: ${JSON.stringify(workspace.body)}`);
  return { orderId: order.body.order.orderId, workspaceId: workspace.body.workspace.id };
}

/** Makes the fuzzer pick these real ids for path parameters and fields of the same name. */
export function addKnownValues(objects: SeededObjects): void {
  knownValues.orderId!.push(objects.orderId);
  knownValues.id!.push(objects.workspaceId);
}

export interface FuzzRequest {
  method: string;
  path: string;
  auth: 'broker' | 'none' | 'garbage';
  body: Body;
}

export function requestsFor(route: RouteEntry): fc.Arbitrary<FuzzRequest> {
  const key = `${route.method} ${route.url.slice(API_PREFIX.length)}`;
  const schemas = routeSchemas[key] ?? {};
  const names = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);
  const hasBody = !['GET', 'DELETE'].includes(route.method);
  return fc
    .record({
      params: paramsOf(schemas.params, names),
      query: queryOf(schemas.query),
      body: hasBody ? bodyOf(schemas.body) : fc.constant<Body>({ kind: 'none' }),
      auth: fc.constantFrom('broker', 'broker', 'none', 'garbage') as fc.Arbitrary<FuzzRequest['auth']>,
    })
    .map(({ params, query, body, auth }) => {
      const path = route.url.replace(/:([A-Za-z]+)/g, (_match, name: string) => params[name] ?? 'x');
      return { method: route.method, path: query ? `${path}?${query}` : path, auth, body };
    });
}

export interface FuzzFailure {
  request: FuzzRequest;
  status: number;
  body: string;
}

export interface FuzzReport {
  routes: number;
  requests: number;
  fiveXX: number;
  uncoded: number;
  /** Routes of the app that the schema table does not cover (fuzzed with generic values). */
  unlisted: string[];
  failures: FuzzFailure[];
  /** Answers by status and route (`201 POST /orders`), to see how deep the inputs reached. */
  byStatus: Map<string, number>;
}

/** The routes under the API prefix, from the app's own route table. */
export function apiRoutes(t: TestServer): RouteEntry[] {
  return routeTableOf(t.server.app).filter((route) => route.url.startsWith(`${API_PREFIX}/`));
}

/** Sends `runsPerRoute` generated requests to every API route; a broker token signs the signed-in ones. */
export async function fuzzRoutes(t: TestServer, options: { runsPerRoute: number; seed: number; brokerToken: string; concurrency?: number }): Promise<FuzzReport> {
  const routes = apiRoutes(t);
  const origin = `http://127.0.0.1:${t.server.port}`;
  const report: FuzzReport = { routes: routes.length, requests: 0, fiveXX: 0, uncoded: 0, unlisted: [], failures: [], byStatus: new Map() };
  for (const route of routes) {
    const key = `${route.method} ${route.url.slice(API_PREFIX.length)}`;
    if (!routeSchemas[key]) report.unlisted.push(key);
    const samples = fc.sample(requestsFor(route), { numRuns: options.runsPerRoute, seed: options.seed });
    const concurrency = options.concurrency ?? 4;
    for (let start = 0; start < samples.length; start += concurrency) {
      await Promise.all(samples.slice(start, start + concurrency).map((request) => send(origin, request, options.brokerToken, report, key)));
    }
  }
  return report;
}

async function send(origin: string, request: FuzzRequest, brokerToken: string, report: FuzzReport, routeKey: string): Promise<void> {
  const headers: Record<string, string> = {};
  if (request.auth === 'broker') headers.authorization = `Bearer ${brokerToken}`;
  if (request.auth === 'garbage') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.e30.';
  let body: string | undefined;
  if (request.body.kind === 'json') {
    headers['content-type'] = 'application/json';
    body = request.body.text;
  } else if (request.body.kind === 'raw') {
    headers['content-type'] = request.body.contentType;
    body = request.body.text;
  }
  report.requests += 1;
  let status: number;
  let text: string;
  try {
    const response = await fetch(origin + request.path, { method: request.method, headers, body });
    status = response.status;
    text = await response.text();
  } catch (error) {
    // A URL fetch itself refuses to send (it never reached the server) is not a server failure.
    if (error instanceof TypeError && /URL|Invalid/i.test(String(error.message)) && !/fetch failed/.test(String(error.message))) {
      report.requests -= 1;
      return;
    }
    status = 599;
    text = String((error as Error).cause ?? error);
  }
  const statusKey = `${status} ${routeKey}`;
  report.byStatus.set(statusKey, (report.byStatus.get(statusKey) ?? 0) + 1);
  if (status >= 500) {
    report.fiveXX += 1;
    report.failures.push({ request, status, body: text.slice(0, 300) });
    return;
  }
  if (status >= 400) {
    let code: unknown;
    try {
      code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
    } catch {
      code = undefined;
    }
    if (!isErrorCode(code)) {
      report.uncoded += 1;
      report.failures.push({ request, status, body: text.slice(0, 300) });
    }
  }
}
