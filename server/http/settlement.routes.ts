import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CLEARING_AMOUNT_DECIMALS,
  clearingListQuerySchema,
  clearingRoutes,
  obligationListQuerySchema,
  obligationSettleSchema,
  settlementPriceOverrideSchema,
  settlementRunRequestSchema,
  type ClearingListQuery,
} from '../../protocol/clearing.ts';
import { apiError, ExchangeError } from '../../protocol/error-codes.ts';
import { audited, auditOf } from '../audit/audit-of.ts';
import type { AuditRecorder } from '../audit/audit-recorder.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { SettlementService } from '../clearing/settlement-service.ts';
import type { SettlementListFilter } from '../store/settlement.repository.ts';
import type { Store } from '../store/store.ts';
import type { UserRecord } from '../store/users.repository.ts';
import { bucharestDate } from '../trading/time.ts';
import { visibleClients } from './account.routes.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

export interface SettlementRoutesOptions {
  auth: AuthService;
  store: Pick<Store, 'reference'>;
  settlement: SettlementService;
  now: () => number;
  /** The audit trail: settlement runs, price overrides and settled obligations are operator actions. */
  audit: AuditRecorder;
}

export const idParamsSchema = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
export const monthParamsSchema = z.strictObject({ clientCode: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/), month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/) });

const isAdmin = (user: UserRecord) => user.roles.includes('administrator');

/**
 * The settlement lists of the account area (GET, every one `{ amountDecimals, items, at }`), one note,
 * summary and report each, and the administrator's settlement commands. A broker or agency sees its
 * clients' rows, the administrator every client's; prices and runs are those of the user's markets.
 */
export function settlementRoutes({ auth, store, settlement, now, audit }: SettlementRoutesOptions) {
  const repository = settlement.settlement;

  async function reader(request: Parameters<typeof requireUser>[1]): Promise<UserRecord> {
    const user = await requireUser(auth, request);
    if (!user.scopes.includes('trading:read') && !isAdmin(user)) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'trading:read' }));
    return user;
  }

  async function admin(request: Parameters<typeof requireUser>[1]): Promise<UserRecord> {
    const user = await requireUser(auth, request);
    if (!isAdmin(user)) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'administrator' }));
    return user;
  }

  /** The list filter of a user's query: a client it may not see is not found, as its orders are. */
  async function filterFor(user: UserRecord, query: ClearingListQuery): Promise<SettlementListFilter> {
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) throw new ExchangeError(apiError('CLEARING_DATE_RANGE_INVALID', { from: query.from, to: query.to }));
    const visible = visibleClients(user, await store.reference.clients()).map((client) => client.code);
    if (query.clientCode !== undefined && !visible.includes(query.clientCode)) throw new ExchangeError(apiError('CLEARING_CLIENT_NOT_FOUND', { clientCode: query.clientCode }));
    return { ...query, clientCodes: isAdmin(user) ? null : visible, marketIds: isAdmin(user) ? null : user.marketIds };
  }

  /** May the user see this client's document? Someone else's answers as not found. */
  async function canSee(user: UserRecord, clientCode: string): Promise<boolean> {
    return visibleClients(user, await store.reference.clients()).some((client) => client.code === clientCode);
  }

  const list = <T>(items: T[]) => ({ amountDecimals: CLEARING_AMOUNT_DECIMALS, items, at: new Date(now()).toISOString() });

  return async function register(app: FastifyInstance): Promise<void> {
    app.get(clearingRoutes.dailySettlementPrices, async (request) => {
      const user = await reader(request);
      return list(await repository.listDailyPrices(await filterFor(user, parseWith(clearingListQuerySchema, request.query))));
    });
    app.get(clearingRoutes.finalSettlementPrices, async (request) => {
      const user = await reader(request);
      return list(await repository.listFinalPrices(await filterFor(user, parseWith(clearingListQuerySchema, request.query))));
    });
    app.get(clearingRoutes.settlementRuns, async (request) => {
      const user = await reader(request);
      return list(await repository.listRuns(await filterFor(user, parseWith(clearingListQuerySchema, request.query))));
    });
    app.get(clearingRoutes.obligations, async (request) => {
      const user = await reader(request);
      const query = parseWith(obligationListQuerySchema, request.query);
      const { status, ...rest } = query;
      return list(await repository.listObligations({ ...(await filterFor(user, rest)), status }));
    });
    app.get(clearingRoutes.unpaidTransactions, async (request) => {
      const user = await reader(request);
      return list(await repository.listUnpaid(await filterFor(user, parseWith(clearingListQuerySchema, request.query)), bucharestDate(now())));
    });
    app.get(clearingRoutes.bankCommissions, async (request) => {
      const user = await reader(request);
      return list(await repository.listBankCommissions(await filterFor(user, parseWith(clearingListQuerySchema, request.query))));
    });
    app.get(clearingRoutes.batches, async (request) => {
      const user = await reader(request);
      return list(await repository.listBatches(await filterFor(user, parseWith(clearingListQuerySchema, request.query))));
    });
    app.get(clearingRoutes.dailyNotes, async (request) => {
      const user = await reader(request);
      return list(await repository.listNotes(await filterFor(user, parseWith(clearingListQuerySchema, request.query))));
    });
    app.get(clearingRoutes.monthlySummaries, async (request) => {
      const user = await reader(request);
      return list(await repository.listMonthlySummaries(await filterFor(user, parseWith(clearingListQuerySchema, request.query))));
    });
    app.get(clearingRoutes.transactionReports, async (request) => {
      const user = await reader(request);
      return list(await repository.listTransactionReports(await filterFor(user, parseWith(clearingListQuerySchema, request.query))));
    });

    // One document each, as its PDF is made from.
    app.get(`${clearingRoutes.dailyNotes}/:id`, async (request) => {
      const user = await reader(request);
      const { id } = parseWith(idParamsSchema, request.params);
      const note = await repository.dailyNote(id);
      if (!note || !(await canSee(user, note.clientCode))) throw new ExchangeError(apiError('CLEARING_NOTE_NOT_FOUND', { noteId: id }));
      return note;
    });
    app.get(`${clearingRoutes.monthlySummaries}/:clientCode/:month`, async (request) => {
      const user = await reader(request);
      const { clientCode, month } = parseWith(monthParamsSchema, request.params);
      const summary = (await canSee(user, clientCode)) ? await repository.monthlySummary(clientCode, month) : null;
      if (!summary) throw new ExchangeError(apiError('CLEARING_CLIENT_NOT_FOUND', { clientCode }));
      return summary;
    });
    app.get(`${clearingRoutes.transactionReports}/:id`, async (request) => {
      const user = await reader(request);
      const { id } = parseWith(idParamsSchema, request.params);
      const found = await repository.transactionReport(id);
      if (!found || !(await canSee(user, found.report.clientCode))) throw new ExchangeError(apiError('CLEARING_REPORT_NOT_FOUND', { reportId: id }));
      return found;
    });

    app.post(clearingRoutes.admin.settlementRuns, async (request) => {
      const user = await admin(request);
      const input = request.body as { marketId?: unknown; sessionDate?: unknown } | undefined;
      const what = { action: 'settlement.run' as const, subject: `market ${String(input?.marketId ?? '?')}`, details: { marketId: input?.marketId, sessionDate: input?.sessionDate } };
      return audited(audit, auditOf(request, user), what, async () => {
        const { marketId, sessionDate } = parseWith(settlementRunRequestSchema, request.body);
        return settlement.runSettlement(marketId, sessionDate);
      });
    });
    app.post(clearingRoutes.admin.overrideDailySettlementPrice(':id'), async (request) => {
      const user = await admin(request);
      const { id } = parseWith(idParamsSchema, request.params);
      const input = request.body as { price?: unknown; reason?: unknown } | undefined;
      const what = { action: 'settlement.priceOverride' as const, subject: `daily settlement price ${id}`, details: { priceId: id, price: input?.price, reason: input?.reason } };
      return audited(audit, auditOf(request, user), what, async () => {
        const { price, reason } = parseWith(settlementPriceOverrideSchema, request.body);
        return settlement.overridePrice(id, price, reason, user.username);
      });
    });
    app.post(clearingRoutes.admin.settleObligation(':id'), async (request) => {
      const user = await admin(request);
      const { id } = parseWith(idParamsSchema, request.params);
      const input = request.body as { reference?: unknown } | undefined;
      return audited(audit, auditOf(request, user), { action: 'obligation.settle', subject: `obligation ${id}`, details: { obligationId: id, reference: input?.reference } }, async () => {
        const { reference } = parseWith(obligationSettleSchema, request.body);
        return settlement.settleObligation(id, reference, user.username);
      });
    });
  };
}
