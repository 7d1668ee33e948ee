import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** A Host header fit to go into a CSP source (host, IPv4, [IPv6], optional port); anything else is left out. */
const hostPattern = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * The page's own socket origin. CSP Level 3 lets 'self' match ws: and wss: of the page's host, but
 * older browsers do not, so the socket (/session/ws, same host and port) is named explicitly.
 */
function socketSources(request: IncomingMessage): string {
  const host = request.headers.host;
  return host && hostPattern.test(host) ? `ws://${host} wss://${host}` : '';
}

/**
 * The policy the built app (Vite, under /session/) runs under, checked in Chromium by
 * tests/e2e/security-headers.e2e.test.ts:
 * - scripts only from our origin: the build has no inline script and nothing uses eval;
 * - styles from our origin plus 'unsafe-inline': the Radix dialog's scroll lock
 *   (react-remove-scroll-bar) inserts a <style> element whose text holds the scrollbar width measured
 *   at run time, so neither a hash nor a static nonce can cover it. Inline style only, never script;
 * - fetches and the STOMP socket to our origin only; fonts and images from our origin;
 * - no framing by anyone (frame-ancestors 'none' and X-Frame-Options DENY), no plugins, no <base>
 *   rewriting, forms post only to us;
 * - no upgrade-insecure-requests: the demo server runs on plain HTTP on a LAN address, where upgrading
 *   the subresources to https would break the page (behind TLS the proxy sets HSTS).
 */
const securityHeadersOptions: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'", (request: IncomingMessage) => socketSources(request)],
      workerSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  // nosniff, COOP/CORP same-origin, HSTS and the rest keep helmet's defaults.
};

export const API_CACHE_CONTROL = 'no-store';

/**
 * Security headers on every response (page, static files, API, 404s, redirects), and
 * `Cache-Control: no-store` on every API answer, errors included: orders, positions and tokens must
 * not stay in a shared or browser cache.
 */
export function installSecurityHeaders(app: FastifyInstance, apiPrefix: string): void {
  const headersOf = securityHeadersByHost();
  app.addHook('onRequest', (request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headersOf(request.headers.host)) raw.setHeader(name, value);
    raw.removeHeader('x-powered-by');
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const url = request.url;
    if (url.startsWith(apiPrefix) && (url.length === apiPrefix.length || url[apiPrefix.length] === '/' || url[apiPrefix.length] === '?')) reply.header('cache-control', API_CACHE_CONTROL);
    done(null, payload);
  });
}

/** Distinct Host values remembered; beyond it the oldest is forgotten (a client may send any Host). */
const HOSTS_REMEMBERED = 64;

/**
 * The headers helmet sets for a request with this Host, worked out once per host: helmet's middleware
 * walks a dozen functions and builds the policy string on every call, and @fastify/helmet even rebuilt
 * the middleware (parsing the policy) per request: together 9-10 % of the main thread under
 * bench:orders. Only connect-src depends on the request, and only on its Host.
 */
function securityHeadersByHost(): (host: string | undefined) => Array<[string, string]> {
  const setHeaders = helmet(securityHeadersOptions);
  const byHost = new Map<string, Array<[string, string]>>();
  return (host) => {
    const key = host ?? '';
    let headers = byHost.get(key);
    if (headers === undefined) {
      const captured = new Map<string, string>();
      const response = {
        setHeader: (name: string, value: unknown) => captured.set(name.toLowerCase(), String(value)),
        removeHeader: (name: string) => captured.delete(name.toLowerCase()),
      };
      setHeaders({ headers: { host } } as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
        if (error) throw error;
      });
      headers = [...captured];
      if (byHost.size >= HOSTS_REMEMBERED) byHost.delete(byHost.keys().next().value!);
      byHost.set(key, headers);
    }
    return headers;
  };
}
