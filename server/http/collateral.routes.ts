import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  apiError,
  CLEARING_AMOUNT_DECIMALS,
  clearingListQuerySchema,
  clearingRoutes,
  ExchangeError,
  financialRestrictionsInputSchema,
  nominationUpdateSchema,
  warrantyInputSchema,
} from '../../protocol/index.ts';
import { audited, auditOf } from '../audit/audit-of.ts';
import type { AuditRecorder } from '../audit/audit-recorder.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { CollateralClearing } from '../clearing/collateral-module.ts';
import { financialInfoOf, replaceRestrictions } from '../clearing/collateral-restrictions.ts';
import type { Client } from '../store/reference.repository.ts';
import type { Store } from '../store/store.ts';
import type { UserRecord } from '../store/users.repository.ts';
import { visibleClients } from './account.routes.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

export interface CollateralRoutesOptions {
  auth: AuthService;
  store: Store;
  clearing: CollateralClearing;
  now: () => number;
  /** The audit trail: warranty and financial-info changes are operator actions. */
  audit: AuditRecorder;
}

export const idParams = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
export const clientParams = z.strictObject({ clientCode: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/) });
const isAdmin = (user: UserRecord) => user.roles.includes('administrator');

/**
 * The collateral side's REST routes: warranties (the administrator records, edits and releases them),
 * the financial report, the financial info (the administrator sets the restrictions) and nominations
 * (the client's broker edits them until the deadline). A client one may not see answers 404, as an
 * unknown one does.
 */
export function collateralRoutes({ auth, store, clearing, now, audit }: CollateralRoutesOptions) {
  async function reader(request: Parameters<typeof requireUser>[1]): Promise<UserRecord> {
    const user = await requireUser(auth, request);
    if (!user.scopes.includes('trading:read') && !isAdmin(user)) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'trading:read' }));
    return user;
  }

  async function administrator(request: Parameters<typeof requireUser>[1]): Promise<UserRecord> {
    const user = await requireUser(auth, request);
    if (!isAdmin(user)) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'administrator' }));
    return user;
  }

  /** The visible clients, narrowed to `clientCode` when given. */
  async function clientsFor(user: UserRecord, clientCode: string | undefined): Promise<Client[]> {
    const visible = visibleClients(user, await store.reference.clients());
    if (clientCode === undefined) return visible;
    const client = visible.find((candidate) => candidate.code === clientCode);
    if (!client) throw new ExchangeError(apiError('CLEARING_CLIENT_NOT_FOUND', { clientCode }));
    return [client];
  }

  function listQuery(raw: unknown) {
    const query = parseWith(clearingListQuerySchema, raw);
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) throw new ExchangeError(apiError('CLEARING_DATE_RANGE_INVALID', { from: query.from, to: query.to }));
    return query;
  }

  const list = <T>(items: T[]) => ({ amountDecimals: CLEARING_AMOUNT_DECIMALS, items, at: new Date(now()).toISOString() });

  return async function register(app: FastifyInstance): Promise<void> {
    app.get(clearingRoutes.warranties, async (request) => {
      const user = await reader(request);
      const query = listQuery(request.query);
      const clients = await clientsFor(user, query.clientCode);
      return list(await clearing.warranties.list(clients.map((client) => client.code), query));
    });

    app.post(clearingRoutes.admin.warranties, async (request, reply) => {
      const user = await administrator(request);
      const input = request.body as { clientCode?: unknown; warrantyNumber?: unknown; value?: unknown } | undefined;
      const what = { action: 'warranty.record' as const, subject: `client ${String(input?.clientCode ?? '?')}`, details: { clientCode: input?.clientCode, warrantyNumber: input?.warrantyNumber, value: input?.value } };
      const warranty = await audited(audit, auditOf(request, user), what, async () => {
        const created = await clearing.warranties.create(parseWith(warrantyInputSchema, request.body));
        Object.assign(what.details, { warrantyId: created.clientWarrantyId });
        return created;
      });
      return reply.code(201).send(warranty);
    });

    app.put(`${clearingRoutes.admin.warranties}/:id`, async (request) => {
      const user = await administrator(request);
      const { id } = parseWith(idParams, request.params);
      const input = request.body as { clientCode?: unknown; warrantyNumber?: unknown; value?: unknown } | undefined;
      return audited(audit, auditOf(request, user), { action: 'warranty.edit', subject: `warranty ${id}`, details: { warrantyId: id, clientCode: input?.clientCode, warrantyNumber: input?.warrantyNumber, value: input?.value } }, () =>
        clearing.warranties.update(id, parseWith(warrantyInputSchema, request.body)),
      );
    });

    app.post(clearingRoutes.admin.releaseWarranty(':id'), async (request) => {
      const user = await administrator(request);
      const { id } = parseWith(idParams, request.params);
      return audited(audit, auditOf(request, user), { action: 'warranty.release', subject: `warranty ${id}`, details: { warrantyId: id } }, () => clearing.warranties.release(id, user.id));
    });

    app.get(clearingRoutes.financialReport, async (request) => {
      const user = await reader(request);
      const query = listQuery(request.query);
      const clients = await clientsFor(user, query.clientCode);
      const items = [];
      for (const client of clients) items.push(await clearing.engineFunds.report(client));
      return list(items);
    });

    app.get(clearingRoutes.financialInfo, async (request) => {
      const user = await reader(request);
      const query = listQuery(request.query);
      const clients = await clientsFor(user, query.clientCode);
      const [rows, assets] = await Promise.all([clearing.repository.restrictions(null), store.reference.assets()]);
      const at = new Date(now()).toISOString();
      return list(clients.map((client) => financialInfoOf(client, rows.filter((row) => row.clientCode === client.code), assets, at)));
    });

    app.put(clearingRoutes.admin.financialInfo(':clientCode'), async (request) => {
      const user = await administrator(request);
      const { clientCode } = parseWith(clientParams, request.params);
      const what = { action: 'financialInfo.set' as const, subject: `client ${clientCode}`, details: { clientCode, restrictions: request.body } };
      return audited(audit, auditOf(request, user), what, async () => {
        const client = (await store.reference.clients()).find((candidate) => candidate.code === clientCode);
        if (!client) throw new ExchangeError(apiError('CLEARING_CLIENT_NOT_FOUND', { clientCode }));
        const input = parseWith(financialRestrictionsInputSchema, request.body);
        const assets = await store.reference.assets();
        await replaceRestrictions(clearing.repository, clientCode, input, assets);
        await clearing.refresh([clientCode]);
        return financialInfoOf(client, await clearing.repository.restrictions(clientCode), assets, new Date(now()).toISOString());
      });
    });

    app.get(clearingRoutes.nominations, async (request) => {
      const user = await reader(request);
      const query = listQuery(request.query);
      const clients = await clientsFor(user, query.clientCode);
      const codes = isAdmin(user) && query.clientCode === undefined ? null : clients.map((client) => client.code);
      return list(await clearing.nominations.list(codes, query));
    });

    app.put(`${clearingRoutes.nominations}/:id`, async (request) => {
      const user = await requireUser(auth, request);
      const { id } = parseWith(idParams, request.params);
      const { nominatedQty } = parseWith(nominationUpdateSchema, request.body);
      // The client's broker (or an administrator) edits; others do not see the row at all.
      const visible = isAdmin(user) ? null : new Set(visibleClients(user, await store.reference.clients()).map((client) => client.code));
      const record = await clearing.nominations.find(id, visible);
      if (!isAdmin(user) && !(user.roles.includes('broker') && user.clientCodes.includes(record.clientCode))) {
        throw new ExchangeError(apiError('FORBIDDEN', { scope: 'broker' }));
      }
      return clearing.nominations.update(record, nominatedQty, user.id);
    });
  };
}
