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
  // helmet's middleware is built once: @fastify/helmet builds it again for every request (parsing the
  // policy each time), which was 9-10 % of the main thread under bench:orders.
  const setHeaders = helmet(securityHeadersOptions);
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw as ServerResponse, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === apiPrefix || path.startsWith(`${apiPrefix}/`)) reply.header('cache-control', API_CACHE_CONTROL);
    return payload;
  });
}
