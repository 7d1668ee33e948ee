import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { clearingRoutes, dailySettlementNoteSchema, monthlySettlementSummarySchema, transactionReportSchema } from '../../protocol/clearing.ts';
import { locales } from '../../protocol/enums.ts';
import { apiError, ExchangeError } from '../../protocol/index.ts';
import type { AuthService } from '../auth/auth-service.ts';
import { renderDailySettlementNote } from '../clearing/documents/daily-settlement-note.ts';
import type { ClientScope, DocumentSource } from '../clearing/documents/document-source.ts';
import type { DocumentLocale } from '../clearing/documents/format.ts';
import { renderMonthlySettlementSummary } from '../clearing/documents/monthly-settlement-summary.ts';
import { renderTransactionReport, type ReportAsset } from '../clearing/documents/transaction-report.ts';
import type { Store } from '../store/store.ts';
import type { UserRecord } from '../store/users.repository.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

export interface DocumentsRoutesOptions {
  auth: AuthService;
  /** For the assets' names and decimals in transaction reports. */
  store: Store;
  source: DocumentSource;
  canSeeClient: ClientScope;
}

export const languageQuerySchema = z.strictObject({ lang: z.enum(locales).optional() });
export const noteParamsSchema = z.strictObject({ noteId: dailySettlementNoteSchema.shape.noteId });
export const summaryParamsSchema = z.strictObject({ clientCode: monthlySettlementSummarySchema.shape.clientCode, month: monthlySettlementSummarySchema.shape.month });
export const reportParamsSchema = z.strictObject({ reportId: transactionReportSchema.shape.reportId });

/** The file names a download is saved under, in the document's language. */
const fileNames: Record<DocumentLocale, { note: string; summary: string; report: string }> = {
  ro: { note: 'nota-decontare', summary: 'situatie-lunara-decontare', report: 'raport-tranzactii' },
  en: { note: 'settlement-note', summary: 'monthly-settlement-summary', report: 'transaction-report' },
};

function sendPdf(reply: FastifyReply, pdf: Buffer, fileName: string): FastifyReply {
  // Every part of the name comes from validated codes and dates ([A-Za-z0-9_.-]): nothing to escape.
  return reply.type('application/pdf').header('content-disposition', `attachment; filename="${fileName}.pdf"`).send(pdf);
}

/**
 * The clearing documents as PDF downloads (issue 14, item 7): GET the daily settlement note, the
 * monthly settlement summary and a transaction report, ?lang=ro|en (default: the user's language).
 * Another user's client's document is answered as one that does not exist (404), as orders are.
 */
export function documentsRoutes({ auth, store, source, canSeeClient }: DocumentsRoutesOptions) {
  const localeOf = (user: UserRecord, query: unknown): DocumentLocale => parseWith(languageQuerySchema, query).lang ?? user.preferences.language;

  async function reportAssets(locale: DocumentLocale): Promise<Map<string, ReportAsset>> {
    const assets = await store.reference.assets();
    return new Map(assets.map((asset) => [asset.id, { name: asset.names[locale], priceDecimals: asset.spec.priceDecimals, quantityDecimals: asset.spec.quantityDecimals, currency: asset.spec.currency }]));
  }

  return async function register(app: FastifyInstance): Promise<void> {
    app.get(clearingRoutes.dailyNotePdf(':noteId'), async (request, reply) => {
      const user = await requireUser(auth, request);
      const { noteId } = parseWith(noteParamsSchema, request.params);
      const locale = localeOf(user, request.query);
      const note = await source.dailyNote(noteId);
      if (!note || !(await canSeeClient(user, note.clientCode))) throw new ExchangeError(apiError('CLEARING_NOTE_NOT_FOUND', { noteId }));
      return sendPdf(reply, renderDailySettlementNote(note, locale), `${fileNames[locale].note}-${note.clientCode}-${note.sessionDate}`);
    });

    app.get(clearingRoutes.monthlySummaryPdf(':clientCode', ':month'), async (request, reply) => {
      const user = await requireUser(auth, request);
      const { clientCode, month } = parseWith(summaryParamsSchema, request.params);
      const locale = localeOf(user, request.query);
      // The client is in the address: scoped before anything is read.
      const summary = (await canSeeClient(user, clientCode)) ? await source.monthlySummary(clientCode, month) : null;
      if (!summary) throw new ExchangeError(apiError('CLEARING_NOTE_NOT_FOUND', { noteId: `${clientCode} ${month}` }));
      return sendPdf(reply, renderMonthlySettlementSummary(summary, locale), `${fileNames[locale].summary}-${clientCode}-${month}`);
    });

    app.get(clearingRoutes.transactionReportPdf(':reportId'), async (request, reply) => {
      const user = await requireUser(auth, request);
      const { reportId } = parseWith(reportParamsSchema, request.params);
      const locale = localeOf(user, request.query);
      const data = await source.transactionReport(reportId);
      if (!data || !(await canSeeClient(user, data.report.clientCode))) throw new ExchangeError(apiError('CLEARING_REPORT_NOT_FOUND', { reportId }));
      const pdf = renderTransactionReport(data.report, data.transactions, locale, await reportAssets(locale));
      return sendPdf(reply, pdf, `${fileNames[locale].report}-${data.report.clientCode}-${data.report.sessionDate}`);
    });
  };
}
