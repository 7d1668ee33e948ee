import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { TOKEN_MAX_AGE_SECONDS } from '../../protocol/auth.ts';
import { usePageTitle } from '../app/use-page-title.ts';
import { routeSummariesRo } from '../i18n/messages/api-docs.ts';
import type { MessageKey } from '../i18n/messages/index.ts';

const API_BASE = '/session/api';
export const OPENAPI_URL = `${API_BASE}/openapi.json`;
export const ASYNCAPI_URL = `${API_BASE}/asyncapi.json`;

/** One row of the route tables, read from the OpenAPI document the server generates. */
export interface ApiRoute {
  operationId: string;
  method: string;
  path: string;
  tag: string;
  summary: string;
  auth: boolean;
}

/** One STOMP destination, read from the AsyncAPI document. */
export interface ApiChannel {
  kind: string;
  address: string;
  send: boolean;
}

interface OpenApiDocument {
  tags?: Array<{ name: string }>;
  paths: Record<string, Record<string, { operationId?: string; tags?: string[]; summary?: string; security?: unknown[] }>>;
}
interface AsyncApiDocument {
  channels: Record<string, { address: string }>;
  operations: Record<string, { action: string; channel: { $ref: string } }>;
}

/** Every operation of the document, in its order (the tables group them by tag). */
export function apiRoutesOf(document: OpenApiDocument): ApiRoute[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      operationId: operation.operationId ?? `${method} ${path}`,
      method: method.toUpperCase(),
      path: `${API_BASE}${path}`,
      tag: operation.tags?.[0] ?? 'api',
      summary: operation.summary ?? '',
      auth: (operation.security ?? []).length > 0,
    })),
  );
}

export function apiChannelsOf(document: AsyncApiDocument): ApiChannel[] {
  const sent = new Set(Object.values(document.operations).filter((operation) => operation.action === 'send').map((operation) => operation.channel.$ref.split('/').pop()));
  return Object.entries(document.channels).map(([kind, channel]) => ({ kind, address: channel.address, send: sent.has(kind) }));
}

/** Routes grouped by tag, the tags in the document's order. */
export function routesByTag(routes: readonly ApiRoute[], tagOrder: readonly string[]): Array<[string, ApiRoute[]]> {
  const groups = new Map<string, ApiRoute[]>(tagOrder.map((tag) => [tag, []]));
  for (const route of routes) groups.set(route.tag, [...(groups.get(route.tag) ?? []), route]);
  return [...groups].filter(([, group]) => group.length > 0);
}

/** The routes whose description the page already had in both languages (apiDocs.endpoint.*). */
const describedRoutes: Record<string, MessageKey> = {
  postLogin: 'apiDocs.endpoint.login',
  postPasswordResetExpired: 'apiDocs.endpoint.resetExpired',
  getUserInfo: 'apiDocs.endpoint.userInfo',
  postUserPassword: 'apiDocs.endpoint.changePassword',
  putUserPreferences: 'apiDocs.endpoint.preferences',
  getUserLoginHistory: 'apiDocs.endpoint.loginHistory',
  getMarkets: 'apiDocs.endpoint.markets',
  getAssets: 'apiDocs.endpoint.assets',
  getAssetsAssetId: 'apiDocs.endpoint.asset',
};

/** English reads the document's summary; Romanian its translation (the summary when there is none). */
export function routeDescriptionKeyOf(route: ApiRoute): MessageKey | undefined {
  return describedRoutes[route.operationId];
}
export const romanianSummaryOf = (route: ApiRoute) => routeSummariesRo[route.operationId];

const tagTitles: Record<string, MessageKey> = {
  auth: 'apiDocs.section.authentication',
  reference: 'apiDocs.section.reference',
  account: 'apiDocs.section.account',
  api: 'apiDocs.section.tag.api',
  orders: 'apiDocs.section.tag.orders',
  'market-data': 'apiDocs.section.tag.market-data',
  workspaces: 'apiDocs.section.tag.workspaces',
  chat: 'apiDocs.section.tag.chat',
  clearing: 'apiDocs.section.tag.clearing',
  documents: 'apiDocs.section.tag.documents',
  workflows: 'apiDocs.section.tag.workflows',
  admin: 'apiDocs.section.tag.admin',
};

const channelDescriptions: Record<string, MessageKey> = {
  book: 'apiDocs.channel.book',
  trades: 'apiDocs.channel.trades',
  marketWatch: 'apiDocs.channel.marketWatch',
  phase: 'apiDocs.channel.phase',
  stats: 'apiDocs.channel.stats',
  activity: 'apiDocs.channel.activity',
  myOrders: 'apiDocs.channel.myOrders',
  myTrades: 'apiDocs.channel.myTrades',
  myMarketWatch: 'apiDocs.channel.myMarketWatch',
  notifications: 'apiDocs.channel.notifications',
  chat: 'apiDocs.channel.chat',
  clearing: 'apiDocs.channel.clearing',
  workflows: 'apiDocs.channel.workflows',
  workflowApprovals: 'apiDocs.channel.workflowApprovals',
  chatSend: 'apiDocs.channel.chatSend',
  operator: 'apiDocs.channel.operator',
  orderReplies: 'apiDocs.channel.orderReplies',
  orderEntry: 'apiDocs.channel.orderEntry',
};

type Documents = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; routes: ApiRoute[]; tags: string[]; channels: ApiChannel[] };

/** Both documents, fetched once per visit (they are public and cacheable). */
function useApiDocuments(): Documents {
  const [documents, setDocuments] = useState<Documents>({ state: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    const load = async (url: string) => {
      const response = await fetch(url, { signal: abort.signal });
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      return response.json() as Promise<unknown>;
    };
    Promise.all([load(OPENAPI_URL), load(ASYNCAPI_URL)]).then(
      ([openapi, asyncapi]) => {
        const document = openapi as OpenApiDocument;
        setDocuments({ state: 'ready', routes: apiRoutesOf(document), tags: (document.tags ?? []).map((tag) => tag.name), channels: apiChannelsOf(asyncapi as AsyncApiDocument) });
      },
      () => {
        if (!abort.signal.aborted) setDocuments({ state: 'failed' });
      },
    );
    return () => abort.abort();
  }, []);
  return documents;
}

const errorExample = `{
  "error": {
    "code": "AUTH_CODE_INVALID",
    "params": {}
  }
}`;

const loginExample = `POST /session/api/login
Content-Type: application/json

{ "username": "broker1", "password": "…", "code": "123456" }

200 OK
{ "token": "eyJhbGciOiJIUzI1NiJ9…", "expiresAt": "2026-11-22T09:30:00.000Z" }`;

function MethodBadge({ method }: { method: string }) {
  return <span className={`method method-${method.toLowerCase()}`}>{method}</span>;
}

function RouteTable({ routes, locale }: { routes: readonly ApiRoute[]; locale: string }) {
  return (
    <table className="endpoint-table">
      <thead>
        <tr>
          <th scope="col">
            <FormattedMessage id="apiDocs.method" />
          </th>
          <th scope="col">
            <FormattedMessage id="apiDocs.path" />
          </th>
          <th scope="col">
            <FormattedMessage id="apiDocs.description" />
          </th>
        </tr>
      </thead>
      <tbody>
        {routes.map((route) => {
          const key = routeDescriptionKeyOf(route);
          return (
            <tr key={`${route.method} ${route.path}`}>
              <td>
                <MethodBadge method={route.method} />
              </td>
              <td>
                <code>{route.path}</code>
              </td>
              <td>
                {key ? <FormattedMessage id={key} /> : locale === 'ro' ? (romanianSummaryOf(route) ?? route.summary) : route.summary}
                {route.auth && (
                  <span className="badge badge-neutral">
                    <FormattedMessage id="apiDocs.bearer" />
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function ChannelTable({ channels }: { channels: readonly ApiChannel[] }) {
  return (
    <table className="endpoint-table">
      <thead>
        <tr>
          <th scope="col">
            <FormattedMessage id="apiDocs.method" />
          </th>
          <th scope="col">
            <FormattedMessage id="apiDocs.destination" />
          </th>
          <th scope="col">
            <FormattedMessage id="apiDocs.description" />
          </th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <td>
            <MethodBadge method="WS" />
          </td>
          <td>
            <code>/session/ws</code>
          </td>
          <td>
            <FormattedMessage id="apiDocs.endpoint.stomp" />
          </td>
        </tr>
        {channels.map((channel) => {
          const key = channelDescriptions[channel.kind];
          return (
            <tr key={channel.kind}>
              <td>
                <MethodBadge method={channel.send ? 'SEND' : 'SUBSCRIBE'} />
              </td>
              <td>
                <code>{channel.address}</code>
              </td>
              <td>{key ? <FormattedMessage id={key} /> : channel.kind}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

const documentLinks = {
  openapi: (
    <a href={OPENAPI_URL}>
      <code>openapi.json</code>
    </a>
  ),
  asyncapi: (
    <a href={ASYNCAPI_URL}>
      <code>asyncapi.json</code>
    </a>
  ),
};

/**
 * API documentation for algorithmic clients (api layout): every route of the OpenAPI document and every
 * STOMP destination of the AsyncAPI document the server generates (docs/api.md), so the page cannot
 * miss a route.
 */
export function ApiDocsPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'nav.apiDocs' }));
  const documents = useApiDocuments();
  const groups = documents.state === 'ready' ? routesByTag(documents.routes, documents.tags) : [];
  return (
    <div className="docs">
      <nav className="docs-index" aria-label={intl.formatMessage({ id: 'apiDocs.contents' })}>
        <p className="docs-index-title">
          <FormattedMessage id="apiDocs.contents" />
        </p>
        <ul role="list">
          <li>
            <a href="#overview">
              <FormattedMessage id="apiDocs.section.overview" />
            </a>
          </li>
          <li>
            <a href="#units">
              <FormattedMessage id="apiDocs.section.units" />
            </a>
          </li>
          {groups.map(([tag]) => (
            <li key={tag}>
              <a href={`#${tag}`}>{tagTitles[tag] ? <FormattedMessage id={tagTitles[tag]} /> : tag}</a>
            </li>
          ))}
          <li>
            <a href="#realtime">
              <FormattedMessage id="apiDocs.section.realtime" />
            </a>
          </li>
          <li>
            <a href="#errors">
              <FormattedMessage id="apiDocs.section.errors" />
            </a>
          </li>
        </ul>
      </nav>
      <article className="docs-body">
        <header className="page-header">
          <div>
            <p className="eyebrow">
              <FormattedMessage id="apiDocs.eyebrow" />
            </p>
            <h1>
              <FormattedMessage id="nav.apiDocs" />
            </h1>
          </div>
        </header>
        <section id="overview" className="card docs-section">
          <h2>
            <FormattedMessage id="apiDocs.section.overview" />
          </h2>
          <p>
            <FormattedMessage id="apiDocs.overview.base" values={{ base: <code>/session/api</code> }} />
          </p>
          <p>
            <FormattedMessage
              id="apiDocs.overview.auth"
              values={{ header: <code>Authorization: Bearer &lt;token&gt;</code>, minutes: TOKEN_MAX_AGE_SECONDS / 60 }}
            />
          </p>
          <p>
            <FormattedMessage id="apiDocs.documents" values={documentLinks} />
          </p>
          <pre className="code-block">
            <code>{loginExample}</code>
          </pre>
        </section>
        <section id="units" className="card docs-section">
          <h2>
            <FormattedMessage id="apiDocs.section.units" />
          </h2>
          <p>
            <FormattedMessage id="apiDocs.units.integers" values={{ asset: <code>GET /session/api/assets/&#123;assetId&#125;</code> }} />
          </p>
          <p>
            <FormattedMessage id="apiDocs.units.amounts" />
          </p>
        </section>
        {documents.state === 'loading' && (
          <p role="status" className="card docs-section">
            <FormattedMessage id="apiDocs.loading" />
          </p>
        )}
        {documents.state === 'failed' && (
          <p role="alert" className="card docs-section">
            <FormattedMessage id="apiDocs.loadFailed" values={documentLinks} />
          </p>
        )}
        {groups.map(([tag, routes]) => (
          <section key={tag} id={tag} className="card docs-section">
            <h2>{tagTitles[tag] ? <FormattedMessage id={tagTitles[tag]} /> : tag}</h2>
            <RouteTable routes={routes} locale={intl.locale} />
          </section>
        ))}
        <section id="realtime" className="card docs-section">
          <h2>
            <FormattedMessage id="apiDocs.section.realtime" />
          </h2>
          <p>
            <FormattedMessage id="apiDocs.realtime.resync" />
          </p>
          <ChannelTable channels={documents.state === 'ready' ? documents.channels : []} />
        </section>
        <section id="errors" className="card docs-section">
          <h2>
            <FormattedMessage id="apiDocs.section.errors" />
          </h2>
          <p>
            <FormattedMessage id="apiDocs.errors.text" />
          </p>
          <pre className="code-block">
            <code>{errorExample}</code>
          </pre>
        </section>
      </article>
    </div>
  );
}
