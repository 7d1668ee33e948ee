import type { DailySettlementNote, MonthlySettlementSummary, TransactionReport } from '../../../protocol/clearing.ts';
import type { Transaction } from '../../../protocol/market-data.ts';
import type { Store } from '../../store/store.ts';
import type { UserRecord } from '../../store/users.repository.ts';
import { visibleClients } from '../../http/account.routes.ts';

/** A transaction report and the client's transactions of its session date, oldest first or in any order. */
export interface TransactionReportData {
  report: TransactionReport;
  transactions: readonly Transaction[];
}

/**
 * Where the documents' data comes from (the settlement repository, wired by exchange-server.ts).
 * Each answers null for what does not exist; who may see it is decided by a ClientScope, not here.
 */
export interface DocumentSource {
  dailyNote(noteId: string): Promise<DailySettlementNote | null>;
  monthlySummary(clientCode: string, month: string): Promise<MonthlySettlementSummary | null>;
  transactionReport(reportId: string): Promise<TransactionReportData | null>;
}

/** Whether the signed-in user may see this client's documents. */
export type ClientScope = (user: UserRecord, clientCode: string) => Promise<boolean>;

/**
 * The account area's rule (server/http/account.routes.ts): an administrator sees every client, an
 * agency its agency's clients, a broker, client or terminal the clients it acts for.
 */
export function clientScopeOf(store: Store): ClientScope {
  return async (user, clientCode) => visibleClients(user, await store.reference.clients()).some((client) => client.code === clientCode);
}
