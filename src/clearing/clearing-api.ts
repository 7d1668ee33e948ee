/**
 * The clearing house's REST calls (protocol/clearing.ts), through the app's one HTTP client: every
 * answer is validated with the contract's schemas, so a row the server changed shape on is an error,
 * never a half-drawn table.
 */
import type { z } from 'zod';
import {
  bankCommissionSchema,
  clearingListSchema,
  clearingRoutes,
  dailySettlementNoteSchema,
  dailySettlementPriceSchema,
  financialInfoSchema,
  financialReportSchema,
  finalSettlementPriceSchema,
  monthlySettlementSummarySchema,
  nominationSchema,
  nominationUpdateSchema,
  paymentObligationSchema,
  transactionReportSchema,
  unpaidTransactionSchema,
  warrantySchema,
  type ClearingListQuery,
  type Nomination,
} from '../../protocol/clearing.ts';
import type { Locale } from '../../protocol/enums.ts';
import type { DownloadedFile } from '../../streams/api.ts';
import { authedDownload, authedRequest } from '../api/http.ts';

export interface ClearingList<T> {
  amountDecimals: number;
  items: T[];
  at: string;
}

function queryString(query: ClearingListQuery): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, value);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function listFetcher<S extends z.ZodType>(route: string, item: S) {
  const schema = clearingListSchema(item);
  return (signal?: AbortSignal, query: ClearingListQuery = {}): Promise<ClearingList<z.output<S>>> =>
    authedRequest(`${route}${queryString(query)}`, (body) => (schema.safeParse(body).data as ClearingList<z.output<S>> | undefined) ?? null, {
      ...(signal ? { signal } : {}),
    });
}

export const fetchWarranties = listFetcher(clearingRoutes.warranties, warrantySchema);
export const fetchBankCommissions = listFetcher(clearingRoutes.bankCommissions, bankCommissionSchema);
export const fetchUnpaidTransactions = listFetcher(clearingRoutes.unpaidTransactions, unpaidTransactionSchema);
export const fetchObligations = listFetcher(clearingRoutes.obligations, paymentObligationSchema);
export const fetchDailySettlementPrices = listFetcher(clearingRoutes.dailySettlementPrices, dailySettlementPriceSchema);
export const fetchFinalSettlementPrices = listFetcher(clearingRoutes.finalSettlementPrices, finalSettlementPriceSchema);
export const fetchTransactionReports = listFetcher(clearingRoutes.transactionReports, transactionReportSchema);
export const fetchDailyNotes = listFetcher(clearingRoutes.dailyNotes, dailySettlementNoteSchema);
export const fetchMonthlySummaries = listFetcher(clearingRoutes.monthlySummaries, monthlySettlementSummarySchema);
export const fetchNominations = listFetcher(clearingRoutes.nominations, nominationSchema);
/** One report per client the user may see, as every clearing list answers. */
export const fetchFinancialReports = listFetcher(clearingRoutes.financialReport, financialReportSchema);
export const fetchFinancialInfo = listFetcher(clearingRoutes.financialInfo, financialInfoSchema);

/** PUT /clearing/nominations/:nominationId: the nominated quantity (quantity minor units); answers the row as it now is. */
export function updateNomination(nominationId: string, nominatedQty: number): Promise<Nomination> {
  return authedRequest(`${clearingRoutes.nominations}/${encodeURIComponent(nominationId)}`, (body) => nominationSchema.safeParse(body).data ?? null, {
    method: 'PUT',
    body: nominationUpdateSchema.parse({ nominatedQty }),
  });
}

/** A PDF of the clearing house (a note, a summary, a report) in the user's language, with the server's file name. */
export function downloadPdf(path: string, locale: Locale): Promise<DownloadedFile> {
  return authedDownload(`${path}?${new URLSearchParams({ lang: locale }).toString()}`, 'application/pdf');
}
