import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { destinations } from '../../protocol/destinations.ts';
import { API_PREFIX } from '../../server/http/app.ts';
import { connectCollector } from './stomp-test-client.ts';
import { apiRoutes, seedObjects, type SeededObjects } from './rest-fuzzer.ts';
import { demoUser, type TestServer } from './test-server.ts';

/**
 * The authorisation matrix (issue 13, Build 4): every REST route × every role of the demo users, each
 * cell with the answer the rules give (computed from the user's roles, scopes, clients, agency and
 * markets in fixtures/demo/users.json, not recorded from the server), and a look into list answers
 * for anything of another user. The objects aimed at belong to broker2 (client RO-TERMO, agency
 * AG-CARP); nobody else acts for that client but the administrator.
 */

export const principalNames = ['anonymous', 'admin', 'broker1', 'broker2', 'agency1', 'client1', 'terminal1', 'owner1'] as const;
export type PrincipalName = (typeof principalNames)[number];

const OWNER: PrincipalName = 'broker2';
const OWNER_CLIENT = 'RO-TERMO';
/** The simulator's client: the other side of the seeded trade, so broker1, agency1 and client1 are no party to it. */
const COUNTERPARTY = 'sim-nord';
const COUNTERPARTY_CLIENT = 'SIM-NORD-1';
const ASSET = 'ESPOT-DA-H01';
const ASSET_MARKET = 'EL-SPOT';
const WORKSPACE_MARKET = 'GAS-SPOT';

const clientAgency = new Map(
  (JSON.parse(readFileSync(new URL('../../fixtures/demo/exchange.json', import.meta.url), 'utf8')) as { clients: Array<{ code: string; agencyId: string }> }).clients.map((client) => [client.code, client.agencyId]),
);

interface Principal {
  name: PrincipalName;
  roles: string[];
  scopes: string[];
  clientCodes: string[];
  agencyId: string | null;
  marketIds: string[];
}

function principalOf(name: PrincipalName): Principal {
  if (name === 'anonymous') return { name, roles: [], scopes: [], clientCodes: [], agencyId: null, marketIds: [] };
  const user = demoUser(name) as unknown as Omit<Principal, 'name'>;
  return { name, roles: user.roles, scopes: user.scopes, clientCodes: user.clientCodes, agencyId: user.agencyId, marketIds: user.marketIds };
}

const isAdmin = (p: Principal) => p.roles.includes('administrator');
const sees = (p: Principal, marketId: string) => p.marketIds.includes(marketId);
const canWrite = (p: Principal) => p.scopes.includes('trading:write') || isAdmin(p);
/** Acts on an order of the client: its own client, the administrator, or the client's agency. */
const actsFor = (p: Principal, clientCode: string) => isAdmin(p) || p.clientCodes.includes(clientCode) || (p.roles.includes('agency') && p.agencyId === clientAgency.get(clientCode));
/** Sees a client in the account views (the same rule without the administrator's write power). */
const seesClient = actsFor;

/** What a cell must answer: a status (or one of several), optionally a code, and what its body must not show. */
interface Expected {
  status: number | number[];
  code?: string;
  /** Returns what leaked, or null. */
  leak?: (body: unknown) => string | null;
}

interface CellRequest {
  method: string;
  path: string;
  body?: unknown;
}

interface RouteCase {
  /** `METHOD /path` under the API prefix, as the route table names it. */
  route: string;
  /** The request; `fresh` objects are made for each cell when the request changes the object. */
  request(objects: SeededObjects): CellRequest;
  /** Needs fresh objects of the owner per cell (the request changes or deletes them). */
  mutates?: boolean;
  expect(p: Principal): Expected;
}

const unauthenticated: Expected = { status: 401, code: 'AUTH_TOKEN_MISSING' };
/** Signed-in only; anonymous gets 401. */
const signedIn = (rule: (p: Principal) => Expected) => (p: Principal) => (p.name === 'anonymous' ? unauthenticated : rule(p));

/** Items of a list whose client the principal may not see. */
function foreignItems(p: Principal, items: unknown, field = 'clientCode'): string | null {
  if (isAdmin(p) || !Array.isArray(items)) return null;
  const foreign = items.filter((item) => !p.clientCodes.includes((item as Record<string, string>)[field]!));
  return foreign.length > 0 ? `${foreign.length} item(s) of clients ${[...new Set(foreign.map((item) => (item as Record<string, string>)[field]))].join(',')}` : null;
}

let matrixWarrantySeq = 0;

/** An OTC deal of the owner's client with broker1's: only the owner's broker registers it. */
const matrixOtcDraft = {
  clientCode: OWNER_CLIENT, partnerClientCode: 'RO-HIDRO', assetId: 'GFWD-M-2027-01', way: 'bid', qty: 100, price: 15000,
  firstDeliveryDate: '2027-01-01', lastDeliveryDate: '2027-01-31', noDeliveryDays: 31,
};

export const routeCases: RouteCase[] = [
  { route: 'GET /health', request: () => ({ method: 'GET', path: '/health' }), expect: () => ({ status: 200 }) },
  // The API's own documents: public, the same for everyone.
  { route: 'GET /openapi.json', request: () => ({ method: 'GET', path: '/openapi.json' }), expect: () => ({ status: 200 }) },
  { route: 'GET /asyncapi.json', request: () => ({ method: 'GET', path: '/asyncapi.json' }), expect: () => ({ status: 200 }) },
  // Public: the token is ignored, the answer is the same for everyone.
  { route: 'POST /login', request: () => ({ method: 'POST', path: '/login', body: { username: 'nobody', password: 'x' } }), expect: () => ({ status: 400, code: 'AUTH_CODE_MISSING' }) },
  {
    route: 'POST /password/reset-expired',
    request: () => ({ method: 'POST', path: '/password/reset-expired', body: { username: 'nobody', currentPassword: 'x', code: '000000', newPassword: 'Aa#45678', confirmPassword: 'Bb#45678' } }),
    expect: () => ({ status: 422, code: 'AUTH_PASSWORDS_NOT_MATCHING' }),
  },
  {
    route: 'GET /assets/:assetId/documents/:fileName',
    request: () => ({ method: 'GET', path: '/assets/GSPOT-DA/documents/GSPOT-DA-specification.pdf' }),
    expect: () => ({ status: 200 }),
  },
  {
    route: 'GET /user/info',
    request: () => ({ method: 'GET', path: '/user/info' }),
    expect: signedIn((p) => ({ status: 200, leak: (body) => ((body as { username?: string }).username === p.name ? null : `user ${(body as { username?: string }).username}`) })),
  },
  // A wrong current password: each user's own password is checked, never another's.
  {
    route: 'POST /user/password',
    request: () => ({ method: 'POST', path: '/user/password', body: { currentPassword: 'Wrong#2026x', newPassword: 'N3w#Passw0rd!', confirmPassword: 'N3w#Passw0rd!' } }),
    expect: signedIn(() => ({ status: 401, code: 'AUTH_CREDENTIALS_INVALID' })),
  },
  {
    route: 'PUT /user/preferences',
    request: () => ({ method: 'PUT', path: '/user/preferences', body: { language: 'en', theme: 'dark', notifications: true, soundNotifications: false } }),
    expect: signedIn(() => ({ status: 200 })),
  },
  { route: 'GET /user/login-history', request: () => ({ method: 'GET', path: '/user/login-history' }), expect: signedIn(() => ({ status: 200 })) },
  {
    route: 'GET /markets',
    request: () => ({ method: 'GET', path: '/markets' }),
    expect: signedIn((p) => ({
      status: 200,
      leak: (body) => {
        const hidden = ((body as { markets: Array<{ id: string }> }).markets ?? []).filter((market) => !sees(p, market.id));
        return hidden.length > 0 ? `markets ${hidden.map((market) => market.id).join(',')}` : null;
      },
    })),
  },
  {
    route: 'GET /assets',
    request: () => ({ method: 'GET', path: '/assets' }),
    expect: signedIn((p) => ({
      status: 200,
      leak: (body) => {
        const hidden = ((body as { assets: Array<{ marketId: string }> }).assets ?? []).filter((asset) => !sees(p, asset.marketId));
        return hidden.length > 0 ? `${hidden.length} assets of unseen markets` : null;
      },
    })),
  },
  ...(['/assets/:assetId', '/books/:assetId', '/assets/:assetId/stats'] as const).map(
    (route): RouteCase => ({
      route: `GET ${route}`,
      request: () => ({ method: 'GET', path: route.replace(':assetId', ASSET) }),
      expect: signedIn((p) => (sees(p, ASSET_MARKET) ? { status: 200 } : { status: 422, code: 'ORDER_ASSET_ID_INVALID' })),
    }),
  ),
  // The bilateral demo asset: what the user's clients may trade with; an unseen market's asset is unknown.
  {
    route: 'GET /assets/:assetId/tradeable-levels',
    request: () => ({ method: 'GET', path: '/assets/GBIL-M-2027-01/tradeable-levels' }),
    expect: signedIn((p) => (sees(p, 'GAS-FWD') ? { status: 200 } : { status: 404, code: 'ASSET_NOT_FOUND' })),
  },
  {
    route: 'POST /orders',
    // An order for broker2's client: only broker2 (and the operator, who may act for any client) may place it.
    request: () => ({ method: 'POST', path: '/orders', body: { idempotencyKey: `matrix-${Math.random().toString(36).slice(2, 12)}`, assetId: ASSET, way: 'bid', price: 9_000, qty: 10, validityType: 'GTC', clientCode: OWNER_CLIENT } }),
    expect: signedIn((p) => {
      if (!canWrite(p)) return { status: 403, code: 'FORBIDDEN' };
      if (!sees(p, ASSET_MARKET)) return { status: 422, code: 'ORDER_ASSET_ID_INVALID' };
      if (p.name === OWNER) return { status: 201 };
      if (isAdmin(p)) return { status: [201, 403, 422] };
      return { status: 403 };
    }),
  },
  ...(
    [
      ['PATCH', '/orders/:orderId', { qty: 20 }],
      ['POST', '/orders/:orderId/suspend', undefined],
      ['POST', '/orders/:orderId/cancel', undefined],
    ] as const
  ).map(
    ([method, route, body]): RouteCase => ({
      route: `${method} ${route}`,
      mutates: true,
      request: (objects) => ({ method, path: route.replace(':orderId', objects.orderId), body }),
      expect: signedIn((p) => {
        if (!canWrite(p)) return { status: 403, code: 'FORBIDDEN' };
        // Another user's order is not found, the same as one that does not exist.
        return actsFor(p, OWNER_CLIENT) ? { status: 200 } : { status: 404, code: 'ORDER_NOT_FOUND' };
      }),
    }),
  ),
  {
    route: 'POST /orders/cancel-all',
    mutates: true,
    // The kill switch narrowed to broker2's client: only broker2 acts for it; the operator's tool is another.
    request: () => ({ method: 'POST', path: '/orders/cancel-all', body: { clientCode: OWNER_CLIENT } }),
    expect: signedIn((p) => {
      if (isAdmin(p) || !canWrite(p)) return { status: 403, code: 'FORBIDDEN' };
      return p.clientCodes.includes(OWNER_CLIENT) ? { status: 200 } : { status: 403, code: 'ACCOUNT_CLIENT_FORBIDDEN' };
    }),
  },
  {
    route: 'POST /orders/:orderId/activate',
    mutates: true,
    // A live order that is not suspended: the owner reaches it and is told its state.
    request: (objects) => ({ method: 'POST', path: `/orders/${objects.orderId}/activate` }),
    expect: signedIn((p) => {
      if (!canWrite(p)) return { status: 403, code: 'FORBIDDEN' };
      return actsFor(p, OWNER_CLIENT) ? { status: [200, 409, 422] } : { status: 404, code: 'ORDER_NOT_FOUND' };
    }),
  },
  {
    route: 'GET /orders/:orderId/events',
    request: (objects) => ({ method: 'GET', path: `/orders/${objects.orderId}/events` }),
    expect: signedIn((p) => ((isAdmin(p) || p.clientCodes.includes(OWNER_CLIENT)) && sees(p, ASSET_MARKET) ? { status: 200 } : { status: 404, code: 'ORDER_NOT_FOUND' })),
  },
  {
    // The timeline follows the history's visibility: anyone else is told the order does not exist.
    route: 'GET /orders/:orderId/timeline',
    request: (objects) => ({ method: 'GET', path: `/orders/${objects.orderId}/timeline` }),
    expect: signedIn((p) => ((isAdmin(p) || p.clientCodes.includes(OWNER_CLIENT)) && sees(p, ASSET_MARKET) ? { status: 200 } : { status: 404, code: 'ORDER_NOT_FOUND' })),
  },
  {
    route: 'GET /orders/mine',
    request: () => ({ method: 'GET', path: '/orders/mine?history=true' }),
    expect: signedIn((p) => ({ status: 200, leak: (body) => foreignItems(p, (body as { items: unknown }).items) })),
  },
  {
    route: 'GET /orders/history',
    request: () => ({ method: 'GET', path: `/orders/history?clientCode=${OWNER_CLIENT}` }),
    expect: signedIn((p) =>
      isAdmin(p) || p.clientCodes.includes(OWNER_CLIENT) ? { status: 200, leak: (body) => foreignItems(p, (body as { items: unknown }).items) } : { status: 400, code: 'REQUEST_INVALID' },
    ),
  },
  {
    route: 'GET /transactions',
    request: () => ({ method: 'GET', path: '/transactions?scope=all' }),
    expect: signedIn((p) => ({
      status: 200,
      // A party sees its counterparty (the SPEC's transaction names both, for the contract); in a
      // trade of others the parties are blank.
      leak: (body) => {
        const items = (body as { items: Array<{ buyer: string; seller: string }> }).items ?? [];
        // The control: the owner sees its own trade with the counterparty named.
        if (p.name === OWNER && !items.some((trade) => trade.buyer === OWNER_CLIENT && trade.seller === COUNTERPARTY_CLIENT)) return 'control failed: own trade not shown';
        if (isAdmin(p)) return null;
        const others = items.filter((trade) => !p.clientCodes.includes(trade.buyer) && !p.clientCodes.includes(trade.seller));
        const shown = others.flatMap((trade) => [trade.buyer, trade.seller]).filter((party) => party !== '');
        return shown.length > 0 ? `parties ${[...new Set(shown)].join(',')}` : null;
      },
    })),
  },
  {
    route: 'POST /admin/markets/:marketId/phase',
    request: () => ({ method: 'POST', path: '/admin/markets/GAS-BG/phase', body: { phase: 'suspend' } }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 204 } : { status: 403, code: 'FORBIDDEN' })),
  },
  // Participant suspension (issue 16): administrators only; an unknown participant, so no cell suspends anyone.
  {
    route: 'GET /admin/participants',
    request: () => ({ method: 'GET', path: '/admin/participants' }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 200 } : { status: 403, code: 'FORBIDDEN' })),
  },
  {
    route: 'POST /admin/participants/:kind/:id/suspend',
    request: () => ({ method: 'POST', path: '/admin/participants/client/RO-NOBODY/suspend', body: { reason: 'matrix' } }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 404, code: 'PARTICIPANT_NOT_FOUND' } : { status: 403, code: 'FORBIDDEN' })),
  },
  {
    route: 'POST /admin/participants/:kind/:id/reinstate',
    request: () => ({ method: 'POST', path: '/admin/participants/broker/u-nobody/reinstate' }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 404, code: 'PARTICIPANT_NOT_FOUND' } : { status: 403, code: 'FORBIDDEN' })),
  },
  // The phase case above left GAS-BG suspended: resume, then suspend again (the cases run in this order).
  {
    route: 'POST /admin/markets/:marketId/resume',
    request: () => ({ method: 'POST', path: '/admin/markets/GAS-BG/resume' }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 204 } : { status: 403, code: 'FORBIDDEN' })),
  },
  {
    route: 'POST /admin/markets/:marketId/suspend',
    request: () => ({ method: 'POST', path: '/admin/markets/GAS-BG/suspend' }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 204 } : { status: 403, code: 'FORBIDDEN' })),
  },
  {
    route: 'GET /admin/operator',
    request: () => ({ method: 'GET', path: '/admin/operator' }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 200 } : { status: 403, code: 'FORBIDDEN' })),
  },
  {
    route: 'GET /workspaces',
    request: () => ({ method: 'GET', path: '/workspaces' }),
    expect: signedIn((p) => ({
      status: 200,
      leak: (body) => (p.name !== OWNER && ((body as { workspaces: Array<{ name: string }> }).workspaces ?? []).some((workspace) => workspace.name.startsWith('Seed ')) ? `${OWNER}'s workspace` : null),
    })),
  },
  {
    route: 'POST /workspaces',
    request: () => ({ method: 'POST', path: '/workspaces', body: { name: 'Matrix desk', type: 'gas', marketId: WORKSPACE_MARKET, assetIds: [], ringIds: [] } }),
    expect: signedIn((p) => (sees(p, WORKSPACE_MARKET) ? { status: 201 } : { status: 400, code: 'WORKSPACE_INVALID' })),
  },
  {
    route: 'PUT /workspaces/:id',
    mutates: true,
    request: (objects) => ({ method: 'PUT', path: `/workspaces/${objects.workspaceId}`, body: { name: 'Taken over', type: 'gas', marketId: WORKSPACE_MARKET, assetIds: [], ringIds: [] } }),
    // Workspaces are personal: the operator does not see them either.
    expect: signedIn((p) => (!sees(p, WORKSPACE_MARKET) ? { status: 400, code: 'WORKSPACE_INVALID' } : p.name === OWNER ? { status: 200 } : { status: 404, code: 'WORKSPACE_NOT_FOUND' })),
  },
  {
    route: 'DELETE /workspaces/:id',
    mutates: true,
    request: (objects) => ({ method: 'DELETE', path: `/workspaces/${objects.workspaceId}` }),
    expect: signedIn((p) => (p.name === OWNER ? { status: 204 } : { status: 404, code: 'WORKSPACE_NOT_FOUND' })),
  },
  {
    route: 'GET /account/positions',
    request: () => ({ method: 'GET', path: `/account/positions?clientCode=${OWNER_CLIENT}` }),
    expect: signedIn((p) => (seesClient(p, OWNER_CLIENT) ? { status: 200 } : { status: 403, code: 'ACCOUNT_CLIENT_FORBIDDEN' })),
  },
  {
    route: 'GET /account/limits',
    request: () => ({ method: 'GET', path: `/account/limits?clientCode=${OWNER_CLIENT}` }),
    expect: signedIn((p) => (seesClient(p, OWNER_CLIENT) ? { status: 200 } : { status: 403, code: 'ACCOUNT_CLIENT_FORBIDDEN' })),
  },
  { route: 'GET /chat/contacts', request: () => ({ method: 'GET', path: '/chat/contacts' }), expect: signedIn(() => ({ status: 200 })) },
  { route: 'GET /chat/conversations', request: () => ({ method: 'GET', path: '/chat/conversations' }), expect: signedIn(() => ({ status: 200 })) },
  {
    route: 'GET /chat/messages',
    // Asking for the owner's conversation with broker1: only the two of them are parties to it.
    request: () => ({ method: 'GET', path: '/chat/messages?with=USER_OF_broker1' }),
    expect: signedIn((p) => ({
      status: p.name === 'broker1' ? [404, 422] : [200, 404, 422],
      leak: (body) => {
        const messages = (body as { messages?: Array<{ from: string; to: string; text: string }> }).messages ?? [];
        const secret = messages.some((message) => message.text === SECRET_CHAT);
        // The control: the owner reads its own conversation.
        if (p.name === OWNER) return secret ? null : 'control failed: own message not shown';
        return secret ? 'a message between broker2 and broker1' : null;
      },
    })),
  },
  {
    route: 'POST /chat/read',
    request: () => ({ method: 'POST', path: '/chat/read', body: { with: 'USER_OF_broker2' } }),
    expect: signedIn((p) => ({ status: p.name === OWNER ? [404, 422] : [200, 404, 422] })),
  },
  // Clearing, collateral side: someone else's client answers 404, as an unknown one does.
  {
    route: 'GET /clearing/warranties',
    request: () => ({ method: 'GET', path: '/clearing/warranties' }),
    expect: signedIn((p) => ({ status: 200, leak: (body) => foreignItems(p, (body as { items: unknown }).items) })),
  },
  {
    route: 'POST /admin/clearing/warranties',
    request: () => ({
      method: 'POST',
      path: '/admin/clearing/warranties',
      body: { clientCode: OWNER_CLIENT, warrantyNumber: `MATRIX-${++matrixWarrantySeq}`, warrantyName: 'Matrix', kind: 'cash_deposit', depositDate: '2026-01-01', validityDate: '2026-02-01', value: 1, currency: 'RON' },
    }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 201 } : { status: 403, code: 'FORBIDDEN' })),
  },
  {
    route: 'PUT /admin/clearing/warranties/:id',
    request: () => ({
      method: 'PUT',
      path: '/admin/clearing/warranties/W-MATRIX-NONE',
      body: { clientCode: OWNER_CLIENT, warrantyNumber: 'MATRIX-X', warrantyName: 'Matrix', kind: 'cash_deposit', depositDate: '2026-01-01', validityDate: '2026-02-01', value: 1, currency: 'RON' },
    }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 404, code: 'CLEARING_WARRANTY_NOT_FOUND' } : { status: 403, code: 'FORBIDDEN' })),
  },
  {
    route: 'POST /admin/clearing/warranties/:id/release',
    request: () => ({ method: 'POST', path: '/admin/clearing/warranties/W-MATRIX-NONE/release', body: {} }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 404, code: 'CLEARING_WARRANTY_NOT_FOUND' } : { status: 403, code: 'FORBIDDEN' })),
  },
  {
    route: 'GET /clearing/financial-report',
    request: () => ({ method: 'GET', path: `/clearing/financial-report?clientCode=${OWNER_CLIENT}` }),
    expect: signedIn((p) => (seesClient(p, OWNER_CLIENT) ? { status: 200 } : { status: 404, code: 'CLEARING_CLIENT_NOT_FOUND' })),
  },
  {
    route: 'GET /clearing/financial-info',
    request: () => ({ method: 'GET', path: `/clearing/financial-info?clientCode=${OWNER_CLIENT}` }),
    expect: signedIn((p) => (seesClient(p, OWNER_CLIENT) ? { status: 200 } : { status: 404, code: 'CLEARING_CLIENT_NOT_FOUND' })),
  },
  {
    route: 'PUT /admin/clearing/financial-info/:clientCode',
    request: () => ({ method: 'PUT', path: `/admin/clearing/financial-info/${OWNER_CLIENT}`, body: { imbalance: [], tradeableQuantity: [] } }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 200 } : { status: 403, code: 'FORBIDDEN' })),
  },
  {
    route: 'GET /clearing/nominations',
    request: () => ({ method: 'GET', path: '/clearing/nominations' }),
    expect: signedIn((p) => ({ status: 200, leak: (body) => foreignItems(p, (body as { items: unknown }).items) })),
  },
  {
    route: 'PUT /clearing/nominations/:id',
    request: () => ({ method: 'PUT', path: '/clearing/nominations/N-MATRIX-NONE', body: { nominatedQty: 1 } }),
    expect: signedIn(() => ({ status: 404, code: 'CLEARING_NOMINATION_NOT_FOUND' })),
  },
  // Settlement (issue 14): prices and runs are the markets'; the rest is the client's, someone else's client is not found.
  ...['/clearing/daily-settlement-prices', '/clearing/final-settlement-prices', '/clearing/settlement-runs'].map((path): RouteCase => ({
    route: `GET ${path}`,
    request: () => ({ method: 'GET', path }),
    expect: signedIn(() => ({ status: 200 })),
  })),
  ...(
    [
      ['/clearing/obligations', 'clientCode'],
      ['/clearing/unpaid-transactions', 'clientCode'],
      ['/clearing/bank-commissions', 'clientId'],
      ['/clearing/batches', null],
      ['/clearing/daily-notes', 'clientCode'],
      ['/clearing/monthly-summaries', 'clientCode'],
      ['/clearing/transaction-reports', 'clientCode'],
    ] as const
  ).map(([path, field]): RouteCase => ({
    route: `GET ${path}`,
    request: () => ({ method: 'GET', path: `${path}?clientCode=${OWNER_CLIENT}` }),
    expect: signedIn((p) =>
      seesClient(p, OWNER_CLIENT)
        ? { status: 200, ...(field === null ? {} : { leak: (body: unknown) => foreignItems(p, (body as { items?: unknown }).items, field) }) }
        : { status: 404, code: 'CLEARING_CLIENT_NOT_FOUND' },
    ),
  })),
  { route: 'GET /clearing/daily-notes/:id', request: () => ({ method: 'GET', path: '/clearing/daily-notes/DN-NONE' }), expect: signedIn(() => ({ status: 404, code: 'CLEARING_NOTE_NOT_FOUND' })) },
  {
    route: 'GET /clearing/monthly-summaries/:clientCode/:month',
    request: () => ({ method: 'GET', path: `/clearing/monthly-summaries/${OWNER_CLIENT}/2020-01` }),
    expect: signedIn(() => ({ status: 404, code: 'CLEARING_CLIENT_NOT_FOUND' })),
  },
  { route: 'GET /clearing/daily-notes/:noteId/pdf', request: () => ({ method: 'GET', path: '/clearing/daily-notes/DN-NONE/pdf' }), expect: signedIn(() => ({ status: 404, code: 'CLEARING_NOTE_NOT_FOUND' })) },
  {
    route: 'GET /clearing/monthly-summaries/:clientCode/:month/pdf',
    request: () => ({ method: 'GET', path: `/clearing/monthly-summaries/${OWNER_CLIENT}/2020-01/pdf` }),
    expect: signedIn(() => ({ status: 404, code: 'CLEARING_NOTE_NOT_FOUND' })),
  },
  { route: 'GET /clearing/transaction-reports/:reportId/pdf', request: () => ({ method: 'GET', path: '/clearing/transaction-reports/TR-NONE/pdf' }), expect: signedIn(() => ({ status: 404, code: 'CLEARING_REPORT_NOT_FOUND' })) },
  { route: 'GET /clearing/transaction-reports/:id', request: () => ({ method: 'GET', path: '/clearing/transaction-reports/TR-NONE' }), expect: signedIn(() => ({ status: 404, code: 'CLEARING_REPORT_NOT_FOUND' })) },
  {
    route: 'POST /admin/clearing/settlement-runs',
    request: () => ({ method: 'POST', path: '/admin/clearing/settlement-runs', body: { marketId: ASSET_MARKET, sessionDate: '2099-01-01' } }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 409, code: 'CLEARING_SESSION_NOT_CLOSED' } : { status: 403, code: 'FORBIDDEN' })),
  },
  {
    route: 'POST /admin/clearing/daily-settlement-prices/:id/override',
    request: () => ({ method: 'POST', path: '/admin/clearing/daily-settlement-prices/DSP-NONE/override', body: { price: 100, reason: 'matrix' } }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 404, code: 'CLEARING_SETTLEMENT_PRICE_NOT_FOUND' } : { status: 403, code: 'FORBIDDEN' })),
  },
  {
    route: 'POST /admin/clearing/obligations/:id/settle',
    request: () => ({ method: 'POST', path: '/admin/clearing/obligations/OB-NONE/settle', body: { reference: 'matrix' } }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 404, code: 'CLEARING_OBLIGATION_NOT_FOUND' } : { status: 403, code: 'FORBIDDEN' })),
  },
  // The audit trail (issue 16): the administrator's alone.
  { route: 'GET /admin/audit', request: () => ({ method: 'GET', path: '/admin/audit' }), expect: signedIn((p) => (isAdmin(p) ? { status: 200 } : { status: 403, code: 'FORBIDDEN' })) },
  { route: 'GET /admin/audit.csv', request: () => ({ method: 'GET', path: '/admin/audit.csv' }), expect: signedIn((p) => (isAdmin(p) ? { status: 200 } : { status: 403, code: 'FORBIDDEN' })) },
  // Workflows (issue 15): an instance or transaction one is no party to answers as an unknown one.
  {
    route: 'GET /workflows',
    request: () => ({ method: 'GET', path: '/workflows' }),
    expect: signedIn((p) => ({
      status: 200,
      leak: (body) => {
        if (isAdmin(p)) return null;
        const foreign = ((body as { instances?: Array<{ initiatorClient: string; partnerClient: string }> }).instances ?? []).filter(
          (instance) => !p.clientCodes.includes(instance.initiatorClient) && !p.clientCodes.includes(instance.partnerClient),
        );
        return foreign.length > 0 ? `${foreign.length} instance(s) of other clients` : null;
      },
    })),
  },
  {
    route: 'GET /workflows/:instanceId',
    request: () => ({ method: 'GET', path: '/workflows/wf-matrix-none' }),
    expect: signedIn(() => ({ status: 404, code: 'WORKFLOW_NOT_FOUND' })),
  },
  {
    route: 'POST /workflows/:instanceId/actions',
    request: () => ({ method: 'POST', path: '/workflows/wf-matrix-none/actions', body: { action: 'approve' } }),
    expect: signedIn(() => ({ status: 404, code: 'WORKFLOW_NOT_FOUND' })),
  },
  {
    route: 'POST /workflows/otc',
    request: () => ({ method: 'POST', path: '/workflows/otc', body: matrixOtcDraft }),
    expect: signedIn((p) => (p.name === OWNER ? { status: 201 } : { status: 403, code: 'ACCOUNT_CLIENT_FORBIDDEN' })),
  },
  {
    route: 'POST /workflows/otc/simulation',
    request: () => ({ method: 'POST', path: '/workflows/otc/simulation', body: matrixOtcDraft }),
    expect: signedIn((p) => (p.name === OWNER ? { status: 200 } : { status: 403, code: 'ACCOUNT_CLIENT_FORBIDDEN' })),
  },
  {
    route: 'POST /workflows/transfer',
    request: () => ({ method: 'POST', path: '/workflows/transfer', body: { transactionId: '987654321' } }),
    expect: signedIn(() => ({ status: 403, code: 'TRANSFER_NOT_PARTICIPANT' })),
  },
  {
    route: 'POST /workflows/margin-activation',
    request: () => ({ method: 'POST', path: '/workflows/margin-activation', body: { transactionId: '987654321' } }),
    expect: signedIn(() => ({ status: 403, code: 'FORBIDDEN' })),
  },
  // Contracts and whitelist (issue 15; their own role matrices are tests/server/workflows/*.roles.test.ts and whitelist.routes.test.ts).
  {
    route: 'POST /workflows/contract',
    // Not a form: refused from the header, before the body and before any transaction is looked at.
    request: () => ({ method: 'POST', path: '/workflows/contract', body: { transactionId: '1' } }),
    expect: signedIn(() => ({ status: 415, code: 'CONTRACT_NOT_MULTIPART' })),
  },
  {
    route: 'GET /workflows/:instanceId/contract.pdf',
    request: () => ({ method: 'GET', path: '/workflows/wf-none/contract.pdf' }),
    expect: signedIn(() => ({ status: 404, code: 'WORKFLOW_NOT_FOUND' })),
  },
  {
    route: 'POST /workflows/whitelist',
    // Only a user acting for the client may ask (the owner, broker2); RO-TERMO was never SIM-NORD-1's partner.
    request: () => ({ method: 'POST', path: '/workflows/whitelist', body: { clientCode: OWNER_CLIENT, partnerClientCode: COUNTERPARTY_CLIENT, type: 'DENY_TRADING' } }),
    expect: signedIn((p) => (p.name === OWNER ? { status: 409, code: 'WHITELIST_NOT_PARTNER' } : { status: 403, code: 'ACCOUNT_CLIENT_FORBIDDEN' })),
  },
  {
    route: 'GET /whitelist/partners',
    request: () => ({ method: 'GET', path: `/whitelist/partners?clientCode=${OWNER_CLIENT}` }),
    expect: signedIn((p) => (p.name === OWNER || isAdmin(p) ? { status: 200 } : { status: 403, code: 'ACCOUNT_CLIENT_FORBIDDEN' })),
  },
  // The QA player's recordings (issue 16): the qa role and the administrator only.
  { route: 'GET /qa/recordings', request: () => ({ method: 'GET', path: '/qa/recordings' }), expect: signedIn((p) => (isAdmin(p) ? { status: 200 } : { status: 403, code: 'FORBIDDEN' })) },
  {
    route: 'GET /qa/recordings/:name',
    request: () => ({ method: 'GET', path: '/qa/recordings/ordinary-trading' }),
    expect: signedIn((p) => (isAdmin(p) ? { status: 200 } : { status: 403, code: 'FORBIDDEN' })),
  },
];

/** Text of a chat message between broker2 and broker1 that nobody else may read. */
export const SECRET_CHAT = 'matrix: between broker2 and broker1 only';

export interface MatrixCell {
  route: string;
  principal: PrincipalName;
  expected: string;
  actual: string;
  ok: boolean;
}

function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

const describeExpected = (expected: Expected) => `${[expected.status].flat().join('|')}${expected.code ? ` ${expected.code}` : ''}`;

/** The routes of the app that the matrix has no case for (a new route must get one). */
export function uncoveredRoutes(t: TestServer): string[] {
  const covered = new Set(routeCases.map((routeCase) => routeCase.route));
  return apiRoutes(t)
    .map((route) => `${route.method} ${route.url.slice(API_PREFIX.length)}`)
    .filter((key) => !covered.has(key));
}

/** Runs every route case for every principal against a fresh server; returns one row per cell. */
export async function runAuthorizationMatrix(t: TestServer): Promise<MatrixCell[]> {
  const tokens = new Map<PrincipalName, string>();
  for (const name of principalNames) if (name !== 'anonymous') tokens.set(name, await t.login(name));
  const userIds = new Map<string, string>();
  for (const [name, token] of tokens) userIds.set(name, (await t.get('/user/info', token)).body.userId as string);
  const ownerToken = tokens.get(OWNER)!;
  // The owner's standing objects, a trade with the simulator's client, and a chat message to broker1.
  const trade = { assetId: ASSET, price: 8_500, qty: 10, validityType: 'GTC' };
  const ask = await t.post('/orders', { idempotencyKey: 'matrix-trade-ask', way: 'ask', clientCode: COUNTERPARTY_CLIENT, ...trade }, await t.login(COUNTERPARTY));
  const bid = await t.post('/orders', { idempotencyKey: 'matrix-trade-bid', way: 'bid', clientCode: OWNER_CLIENT, ...trade }, ownerToken);
  if (ask.status !== 201 || bid.body?.order?.status !== 'traded') throw new Error(`matrix trade not made: ${JSON.stringify(bid.body)}`);
  // After the trade: the standing bid must not meet the counterparty's ask.
  const standing = await seedObjects(t, ownerToken, OWNER_CLIENT);
  const chat = await connectCollector(t.server.port, ownerToken);
  await chat.subscribe('/user/queue/chat');
  chat.client.publish({ destination: '/app/chat', body: JSON.stringify({ to: userIds.get('broker1'), text: SECRET_CHAT, clientId: 'matrix-secret' }) });
  await chat.waitFor<{ type: string }>('/user/queue/chat', (events) => events.some((event) => event.type === 'message'));
  await chat.close();

  const cells: MatrixCell[] = [];
  for (const routeCase of routeCases) {
    // The owner last: a cell that changes the object must find it unchanged for everyone else.
    const order = [...principalNames.filter((name) => name !== OWNER), OWNER];
    for (const name of order) {
      const p = principalOf(name);
      const objects = routeCase.mutates ? await seedObjects(t, ownerToken, OWNER_CLIENT) : standing;
      const request = routeCase.request(objects);
      const path = request.path.replace(/USER_OF_([a-z0-9]+)/, (_match, user: string) => userIds.get(user) ?? user);
      const headers: Record<string, string> = {};
      const token = tokens.get(name);
      if (token) headers.authorization = `Bearer ${token}`;
      if (request.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${t.api}${path}`, { method: request.method, headers, body: request.body === undefined ? undefined : JSON.stringify(request.body) });
      const text = await response.text();
      const body = parseBody(text);
      const code = (body as { error?: { code?: string } } | null)?.error?.code;
      const expected = routeCase.expect(p);
      const statusOk = [expected.status].flat().includes(response.status);
      const codeOk = expected.code === undefined || code === expected.code;
      const leak = statusOk && response.status < 300 && expected.leak ? expected.leak(body) : null;
      cells.push({
        route: routeCase.route,
        principal: name,
        expected: describeExpected(expected),
        actual: `${response.status}${code ? ` ${code}` : ''}${leak ? ` LEAK ${leak}` : ''}`,
        ok: statusOk && codeOk && leak === null,
      });
    }
  }
  return cells;
}

/** Assets (with their markets) the destination matrix aims at: a gas, an electricity and a balancing-group one. */
const destinationTargets = [
  { assetId: 'GSPOT-DA', marketId: 'GAS-SPOT' },
  { assetId: 'ESPOT-DA-H01', marketId: 'EL-SPOT' },
  { assetId: 'GBG-D', marketId: 'GAS-BG' },
];

/** Every STOMP destination of protocol/destinations.ts for the targets, with the market that decides who may see it. */
export function destinationCases(): Array<{ destination: string; marketId: string | null }> {
  const cases: Array<{ destination: string; marketId: string | null }> = [];
  for (const { assetId, marketId } of destinationTargets) {
    for (const topic of [destinations.book, destinations.trades, destinations.stats, destinations.activity]) cases.push({ destination: topic(assetId), marketId });
    for (const topic of [destinations.marketWatch, destinations.phase]) cases.push({ destination: topic(marketId), marketId });
  }
  for (const queue of [destinations.myOrders, destinations.myTrades, destinations.myMarketWatch, destinations.notifications, destinations.chat]) cases.push({ destination: queue, marketId: null });
  return cases;
}

/** One STOMP session: CONNECT with the token, SUBSCRIBE with a receipt; the answer is RECEIPT or the ERROR's code. */
async function subscribeOnce(port: number, token: string, destination: string): Promise<string> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/session/ws`, ['v12.stomp']);
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to SUBSCRIBE ${destination}`)), 5_000);
      ws.on('error', reject);
      ws.on('open', () => ws.send(`CONNECT\naccept-version:1.2\nhost:exchange\nAuthorization:Bearer ${token}\nheart-beat:0,0\n\n\0`));
      ws.on('message', (data) => {
        const text = String(data);
        for (const frame of text.split('\0')) {
          const command = frame.replace(/^\n+/, '').split('\n')[0];
          if (command === 'CONNECTED') ws.send(`SUBSCRIBE\nid:m1\ndestination:${destination}\nreceipt:r1\n\n\0`);
          else if (command === 'RECEIPT') {
            clearTimeout(timer);
            resolve('RECEIPT');
          } else if (command === 'ERROR') {
            clearTimeout(timer);
            resolve(/\ncode:([A-Z_]+)/.exec(frame)?.[1] ?? 'ERROR');
          }
        }
      });
    });
  } finally {
    ws.close();
  }
}

/**
 * Every destination × every signed-in principal: a topic is open to the users of its market, a
 * private queue to everyone (the gateway routes it to the subscriber's own messages); anything else
 * is ERROR STOMP_DESTINATION_FORBIDDEN.
 */
export async function runDestinationMatrix(t: TestServer): Promise<MatrixCell[]> {
  const cells: MatrixCell[] = [];
  for (const name of principalNames) {
    if (name === 'anonymous') continue;
    const p = principalOf(name);
    const token = await t.login(name);
    for (const { destination, marketId } of destinationCases()) {
      const expected = marketId === null || sees(p, marketId) ? 'RECEIPT' : 'STOMP_DESTINATION_FORBIDDEN';
      const actual = await subscribeOnce(t.server.port, token, destination);
      cells.push({ route: `SUBSCRIBE ${destination}`, principal: name, expected, actual, ok: actual === expected });
    }
  }
  return cells;
}
