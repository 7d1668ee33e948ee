import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError, ExchangeError, httpStatusOf, type ApiError } from '../../protocol/index.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;

/** Maps every failure to `{ error: { code, params } }` with the code's HTTP status; nothing leaks a stack. */
export function toApiError(error: unknown): { status: number; body: { error: ApiError } } {
  if (error instanceof ExchangeError) return { status: error.status, body: { error: error.toJSON() } };
  const fastifyError = error as Partial<FastifyError>;
  const byFastifyCode: Record<string, () => ApiError> = {
    FST_ERR_CTP_BODY_TOO_LARGE: () => apiError('REQUEST_BODY_TOO_LARGE', { limitBytes: BODY_LIMIT_BYTES }),
    FST_ERR_CTP_INVALID_JSON_BODY: () => apiError('REQUEST_MALFORMED_JSON'),
    FST_ERR_CTP_EMPTY_JSON_BODY: () => apiError('REQUEST_MALFORMED_JSON'),
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => apiError('REQUEST_INVALID', { field: 'content-length', issue: 'invalid' }),
    FST_ERR_CTP_INVALID_MEDIA_TYPE: () => apiError('REQUEST_UNSUPPORTED_MEDIA_TYPE', { contentType: 'unsupported' }),
    FST_ERR_BAD_URL: () => apiError('REQUEST_INVALID', { field: 'url', issue: 'malformed' }),
    FST_ERR_MAX_PARAM_LENGTH: () => apiError('REQUEST_INVALID', { field: 'url', issue: 'too_long' }),
  };
  const mapped = fastifyError.code ? byFastifyCode[fastifyError.code] : undefined;
  if (mapped) {
    const body = mapped();
    return { status: httpStatusOf(body.code), body: { error: body } };
  }
  if (error instanceof SyntaxError || (fastifyError.statusCode === 400 && /JSON/i.test(fastifyError.message ?? ''))) {
    return { status: 400, body: { error: apiError('REQUEST_MALFORMED_JSON') } };
  }
  if (fastifyError.statusCode === 413) return { status: 413, body: { error: apiError('REQUEST_BODY_TOO_LARGE', { limitBytes: BODY_LIMIT_BYTES }) } };
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return { status: 400, body: { error: apiError('REQUEST_INVALID', { field: 'request', issue: fastifyError.code ?? 'invalid' }) } };
  }
  return { status: 500, body: { error: apiError('UNKNOWN_ERROR') } };
}

/** Told of every refusal the error handler answers (the audit keeps the 403 FORBIDDEN ones). Must not throw. */
export type RefusalListener = (request: FastifyRequest, error: ApiError) => void;

export function installErrorHandler(app: FastifyInstance, onRefusal?: RefusalListener): void {
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toApiError(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    onRefusal?.(request, body.error);
    void reply.status(status).send(body);
  });
}

/**
 * A URL the router cannot decode (`/orders/%ff`) or a path parameter over the length limit: Fastify
 * answers these before any hook runs, so with its own body and no security headers unless we do it.
 * Found by the route fuzzer (tests/server/http/routes.fuzz.test.ts).
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = toApiError(error);
  void reply
    .status(status)
    .headers({
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'referrer-policy': 'no-referrer',
    })
    .send(body);
}

/**
 * A request Node's HTTP parser refuses before any route sees it (a bad Content-Length, malformed
 * headers): answered with the catalogue's body like every other refusal, then the connection closes
 * (the parser cannot tell where the next request would start). Fastify's default writes its own body.
 * A request whose headers or body did not arrive in time (slow-loris) gets 408 REQUEST_TIMEOUT.
 * These raw answers carry nosniff and no-store like every API answer (helmet never sees them).
 */
export function clientErrorHandlerFor(timeoutMs: number) {
  return function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const body = JSON.stringify({
      error: timedOut ? apiError('REQUEST_TIMEOUT', { timeoutMs }) : apiError('REQUEST_INVALID', { field: 'request', issue: error.code ?? 'malformed' }),
    });
    socket.end(
      `HTTP/1.1 ${timedOut ? '408 Request Timeout' : '400 Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  };
}
