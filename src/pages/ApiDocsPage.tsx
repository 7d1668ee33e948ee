import { FormattedMessage, useIntl } from 'react-intl';
import { TOKEN_MAX_AGE_SECONDS } from '../../protocol/auth.ts';
import { usePageTitle } from '../app/use-page-title.ts';
import type { MessageKey } from '../i18n/messages/index.ts';

interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'WS';
  path: string;
  description: MessageKey;
  auth: boolean;
}

const sections: ReadonlyArray<{ id: string; title: MessageKey; endpoints: readonly Endpoint[] }> = [
  {
    id: 'authentication',
    title: 'apiDocs.section.authentication',
    endpoints: [
      { method: 'POST', path: '/session/api/login', description: 'apiDocs.endpoint.login', auth: false },
      { method: 'POST', path: '/session/api/password/reset-expired', description: 'apiDocs.endpoint.resetExpired', auth: false },
    ],
  },
  {
    id: 'account',
    title: 'apiDocs.section.account',
    endpoints: [
      { method: 'GET', path: '/session/api/user/info', description: 'apiDocs.endpoint.userInfo', auth: true },
      { method: 'POST', path: '/session/api/user/password', description: 'apiDocs.endpoint.changePassword', auth: true },
      { method: 'PUT', path: '/session/api/user/preferences', description: 'apiDocs.endpoint.preferences', auth: true },
      { method: 'GET', path: '/session/api/user/login-history', description: 'apiDocs.endpoint.loginHistory', auth: true },
    ],
  },
  {
    id: 'reference',
    title: 'apiDocs.section.reference',
    endpoints: [
      { method: 'GET', path: '/session/api/markets', description: 'apiDocs.endpoint.markets', auth: true },
      { method: 'GET', path: '/session/api/assets', description: 'apiDocs.endpoint.assets', auth: true },
      { method: 'GET', path: '/session/api/assets/{assetId}', description: 'apiDocs.endpoint.asset', auth: true },
    ],
  },
  {
    id: 'realtime',
    title: 'apiDocs.section.realtime',
    endpoints: [{ method: 'WS', path: '/session/ws', description: 'apiDocs.endpoint.stomp', auth: true }],
  },
];

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

/** API documentation for algorithmic clients (api layout). */
export function ApiDocsPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'nav.apiDocs' }));
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
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>
                <FormattedMessage id={section.title} />
              </a>
            </li>
          ))}
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
          <pre className="code-block">
            <code>{loginExample}</code>
          </pre>
        </section>
        {sections.map((section) => (
          <section key={section.id} id={section.id} className="card docs-section">
            <h2>
              <FormattedMessage id={section.title} />
            </h2>
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
                {section.endpoints.map((endpoint) => (
                  <tr key={`${endpoint.method} ${endpoint.path}`}>
                    <td>
                      <span className={`method method-${endpoint.method.toLowerCase()}`}>{endpoint.method}</span>
                    </td>
                    <td>
                      <code>{endpoint.path}</code>
                    </td>
                    <td>
                      <FormattedMessage id={endpoint.description} />
                      {endpoint.auth && (
                        <span className="badge badge-neutral">
                          <FormattedMessage id="apiDocs.bearer" />
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
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
