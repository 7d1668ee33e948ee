import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditQuerySchema, auditRoutes } from '../../protocol/audit.ts';
import { apiError, ExchangeError } from '../../protocol/error-codes.ts';
import { auditCsvHead, auditCsvRows } from '../audit/audit-csv.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { AuthService } from '../auth/auth-service.ts';
import { bucharestDate } from '../trading/time.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

export interface AuditRoutesOptions {
  auth: AuthService;
  audit: Pick<AuditLog, 'query' | 'all'>;
  now: () => number;
}

/**
 * The audit trail for the administrator (issue 16, item 2): a page as JSON, or every matching entry as
 * CSV (docs/audit.md), read from the store in chunks and streamed. Anyone else: FORBIDDEN {scope:'admin'}.
 */
export function auditTrailRoutes({ auth, audit, now }: AuditRoutesOptions) {
  async function administrator(request: FastifyRequest): Promise<void> {
    const user = await requireUser(auth, request);
    if (!user.roles.includes('administrator')) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'admin' }));
  }

  return async function register(app: FastifyInstance): Promise<void> {
    app.get(auditRoutes.list, async (request) => {
      await administrator(request);
      return audit.query(parseWith(auditQuerySchema, request.query));
    });

    app.get(auditRoutes.csv, async (request, reply) => {
      await administrator(request);
      const query = parseWith(auditQuerySchema, request.query);
      const chunks = audit.all(query);
      // The first chunk is read before the answer starts: a database error is still a coded 500, not a cut file.
      const first = await chunks.next();
      async function* body(): AsyncGenerator<string> {
        yield auditCsvHead();
        if (first.done) return;
        yield auditCsvRows(first.value);
        for await (const entries of chunks) yield auditCsvRows(entries);
      }
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${bucharestDate(now())}.csv"`)
        .send(Readable.from(body(), { objectMode: false }));
    });
  };
}
