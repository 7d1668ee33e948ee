import { z } from 'zod';
import { limitsQuerySchema, limitsResponseSchema, positionsQuerySchema, positionsResponseSchema } from '../../protocol/account.ts';
import {
  changePasswordRequestSchema,
  loginHistoryResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  preferencesSchema,
  resetExpiredPasswordRequestSchema,
  userInfoSchema,
} from '../../protocol/auth.ts';
import { chatContactsResponseSchema, chatConversationsResponseSchema, chatMessagesQuerySchema, chatMessagesResponseSchema, chatReadSchema } from '../../protocol/chat.ts';
import {
  bankCommissionSchema,
  batchTransactionSchema,
  clearingListQuerySchema,
  clearingListSchema,
  dailySettlementNoteSchema,
  dailySettlementPriceSchema,
  financialInfoSchema,
  financialReportSchema,
  financialRestrictionsInputSchema,
  finalSettlementPriceSchema,
  monthlySettlementSummarySchema,
  nominationSchema,
  nominationUpdateSchema,
  obligationListQuerySchema,
  obligationSettleSchema,
  paymentObligationSchema,
  settlementPriceOverrideSchema,
  settlementRunRequestSchema,
  settlementRunSchema,
  transactionReportSchema,
  unpaidTransactionSchema,
  warrantyInputSchema,
  warrantySchema,
} from '../../protocol/clearing.ts';
import { auditPageSchema, auditQuerySchema } from '../../protocol/audit.ts';
import { serverHealthSchema } from '../../protocol/health.ts';
import { participantChangeSchema, participantListSchema, participantSuspendSchema } from '../../protocol/participants.ts';
import { participantParamsSchema } from './participants.routes.ts';
import { operatorSnapshotSchema } from '../../protocol/operator.ts';
import { bookSnapshotSchema, orderSchema, orderUpdateSchema, transactionListSchema } from '../../protocol/market-data.ts';
import { orderEventsResponseSchema, orderHistoryPageSchema, orderHistoryQuerySchema } from '../../protocol/order-history.ts';
import { orderTimelineSchema } from '../../protocol/order-timeline.ts';
import { addOrderRequestSchema, cancelAllRequestSchema, cancelAllResultSchema, modifyOrderRequestSchema, orderIdParamsSchema } from '../../protocol/orders.ts';
import { assetSpecificationSchema, marketSchema, ringSchema } from '../../protocol/reference.ts';
import {
  marginActivationRequestSchema,
  otcDealDraftSchema,
  otcSimulationSchema,
  transferRequestSchema,
  whitelistRelationListSchema,
  whitelistRequestSchema,
  workflowActionRequestSchema,
  workflowInstanceSchema,
  workflowListQuerySchema,
  workflowListSchema,
} from '../../protocol/workflows.ts';
import { workspaceInputSchema, workspaceSchema } from '../../protocol/workspaces.ts';
import { tradeableQuerySchema } from './bilateral.routes.ts';
import { clientParams, idParams as collateralIdParams } from './collateral.routes.ts';
import { instanceParamsSchema as contractParamsSchema } from './contracts.routes.ts';
import { languageQuerySchema, noteParamsSchema, reportParamsSchema, summaryParamsSchema } from './documents.routes.ts';
import { assetParamsSchema, bookQuerySchema, marketParamsSchema, ordersQuerySchema, phaseBodySchema, transactionsQuerySchema } from './orders.routes.ts';
import { documentParamsSchema } from './reference.routes.ts';
import { idParamsSchema as settlementIdParams, monthParamsSchema } from './settlement.routes.ts';
import { partnersQuerySchema } from './whitelist.routes.ts';
import { instanceParams } from './workflows.routes.ts';
import { idParamsSchema as workspaceIdParams } from './workspaces.routes.ts';
import { recordingListSchema } from '../../protocol/qa.ts';
import { recordingParamsSchema } from './qa.routes.ts';

/**
 * What each REST route takes and answers, keyed by `METHOD /path` under the API prefix as Fastify's
 * route table names it. The schemas are the ones the handlers parse with (imported from protocol/ or
 * exported by the route file), so the OpenAPI document (openapi.ts) cannot drift from validation.
 * A central table rather than Fastify `schema` options: Fastify would validate with them too, and the
 * handlers already validate with zod (parseWith) for the catalogue's REQUEST_INVALID {field, issue}.
 * tests/server/http/openapi.test.ts fails when a registered route has no entry here.
 */
export interface RouteDescription {
  tag: RouteTag;
  summary: string;
  /** Public: no bearer token needed. */
  public?: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success answer's schema (JSON), when protocol/ has one. */
  response?: z.ZodType;
  /** Success status (default 200). */
  status?: 200 | 201 | 204;
  /** The answer is a file of this media type rather than JSON. */
  file?: 'application/pdf' | 'text/csv' | 'application/x-ndjson';
  /** The route takes an optional `Idempotency-Key` header. */
  idempotencyKey?: boolean;
  /**
   * Read-your-writes: takes `?minSeq=` (in its query schema), answers the `X-Exchange-Seq` header and
   * may refuse with READ_NOT_CAUGHT_UP (server/trading/read-your-writes.ts).
   */
  readsAtSeq?: boolean;
  /** Other than JSON (the contract upload is multipart). */
  bodyMediaType?: 'multipart/form-data';
}

export const routeTags = ['auth', 'reference', 'orders', 'market-data', 'account', 'workspaces', 'chat', 'clearing', 'documents', 'workflows', 'admin', 'api', 'qa'] as const;
export type RouteTag = (typeof routeTags)[number];

/** The error-code families a route of each tag can raise besides the generic and authentication ones. */
export const errorFamiliesOf: Record<RouteTag, readonly string[]> = {
  auth: ['AUTH_'],
  reference: ['ASSET_'],
  orders: ['ORDER_', 'SESSION_', 'ASSET_', 'ACCOUNT_', 'MARGIN_'],
  'market-data': ['ASSET_', 'ORDER_', 'TRANSACTION_'],
  account: ['ACCOUNT_', 'ORDER_'],
  workspaces: ['WORKSPACE_'],
  chat: ['CHAT_'],
  clearing: ['CLEARING_'],
  documents: ['CLEARING_'],
  workflows: ['WORKFLOW_', 'OTC_', 'TRANSFER_', 'MARGIN_', 'CONTRACT_', 'WHITELIST_'],
  admin: ['SESSION_', 'CLEARING_', 'ASSET_', 'MARKET_'],
  api: [],
  qa: ['RECORDING_'],
};

const list = clearingListSchema;

export const routeCatalogue: Record<string, RouteDescription> = {
  'GET /health': { tag: 'api', summary: 'Server health: read models and journal.', public: true, response: serverHealthSchema },
  'GET /openapi.json': { tag: 'api', summary: 'This OpenAPI 3.1 document.', public: true },
  'GET /asyncapi.json': { tag: 'api', summary: 'The STOMP destinations as an AsyncAPI 3 document.', public: true },

  'POST /login': { tag: 'auth', summary: 'Sign in with user, password and verification code; answers a bearer token.', public: true, body: loginRequestSchema, response: loginResponseSchema },
  'POST /password/reset-expired': { tag: 'auth', summary: 'Set a new password when the current one expired; signs in.', public: true, body: resetExpiredPasswordRequestSchema, response: loginResponseSchema },
  'GET /user/info': { tag: 'auth', summary: 'The signed-in user: roles, clients, markets, preferences.', response: userInfoSchema },
  'POST /user/password': { tag: 'auth', summary: 'Change the password; answers a new token (earlier ones are revoked).', body: changePasswordRequestSchema, response: loginResponseSchema },
  'PUT /user/preferences': { tag: 'auth', summary: 'Save language, theme and notification preferences.', body: preferencesSchema, response: preferencesSchema },
  'GET /user/login-history': { tag: 'auth', summary: 'The latest sign-ins of the user.', response: loginHistoryResponseSchema },

  'GET /markets': { tag: 'reference', summary: 'The markets and rings the user may see.', response: z.strictObject({ markets: z.array(marketSchema), rings: z.array(ringSchema) }) },
  'GET /assets': { tag: 'reference', summary: 'The asset specifications of those markets: steps, limits, periods.', response: z.strictObject({ assets: z.array(assetSpecificationSchema) }) },
  'GET /assets/:assetId': { tag: 'reference', summary: 'One asset specification.', params: assetParamsSchema, response: assetSpecificationSchema },
  'GET /assets/:assetId/documents/:fileName': { tag: 'reference', summary: 'A specification document of an asset (public).', public: true, params: documentParamsSchema, file: 'application/pdf' },

  'POST /orders': { tag: 'orders', summary: 'Place an order (idempotency key in the body).', body: addOrderRequestSchema, response: orderUpdateSchema, status: 201 },
  'PATCH /orders/:orderId': { tag: 'orders', summary: 'Modify an order: price, quantity, validity.', params: orderIdParamsSchema, body: modifyOrderRequestSchema, response: orderUpdateSchema },
  'POST /orders/cancel-all': {
    tag: 'orders',
    summary: "Cancel every live order of the user's clients, or of one market, asset or client (body optional); orders the rules keep are listed with their code.",
    body: cancelAllRequestSchema,
    response: cancelAllResultSchema,
    idempotencyKey: true,
  },
  'POST /orders/:orderId/cancel': { tag: 'orders', summary: 'Cancel an order (no body).', params: orderIdParamsSchema, response: orderUpdateSchema },
  'POST /orders/:orderId/suspend': { tag: 'orders', summary: 'Suspend an order (no body).', params: orderIdParamsSchema, response: orderUpdateSchema },
  'POST /orders/:orderId/activate': { tag: 'orders', summary: 'Activate a suspended order (no body).', params: orderIdParamsSchema, response: orderUpdateSchema },
  'GET /orders/mine': {
    tag: 'orders',
    summary: "The user's orders (live, or with history); `minSeq` waits for the history to hold that journal seq.",
    query: ordersQuerySchema,
    response: z.strictObject({ items: z.array(orderSchema), seq: z.number().int() }),
    readsAtSeq: true,
  },
  'GET /orders/history': { tag: 'orders', summary: 'Order history, filtered and paged.', query: orderHistoryQuerySchema, response: orderHistoryPageSchema },
  'GET /orders/:orderId/events': { tag: 'orders', summary: "An order's events: entry, changes, fills.", params: orderIdParamsSchema, response: orderEventsResponseSchema },
  'GET /orders/:orderId/timeline': { tag: 'orders', summary: "An order's timeline: entry, changes, fills, clearing, settlement and workflows of its trades (counterparties anonymous).", params: orderIdParamsSchema, response: orderTimelineSchema },

  'GET /transactions': {
    tag: 'market-data',
    summary: "Transactions: all, or the user's; `minSeq` waits until they hold that journal seq.",
    query: transactionsQuerySchema,
    response: transactionListSchema,
    readsAtSeq: true,
  },
  'GET /books/:assetId': {
    tag: 'market-data',
    summary: "The last published book of an asset; with `minSeq`, the engine's book once at least that journal seq.",
    params: assetParamsSchema,
    query: bookQuerySchema,
    response: bookSnapshotSchema,
    readsAtSeq: true,
  },
  'GET /assets/:assetId/stats': { tag: 'market-data', summary: 'Session statistics of an asset.', params: assetParamsSchema },
  'GET /assets/:assetId/tradeable-levels': { tag: 'market-data', summary: 'The levels of a bilateral book the client may trade against.', params: assetParamsSchema, query: tradeableQuerySchema },

  'GET /account/positions': { tag: 'account', summary: 'Positions of the user\'s clients.', query: positionsQuerySchema, response: positionsResponseSchema },
  'GET /account/limits': { tag: 'account', summary: 'Limits of the user\'s clients.', query: limitsQuerySchema, response: limitsResponseSchema },

  'GET /workspaces': { tag: 'workspaces', summary: "The user's workspaces.", response: z.strictObject({ workspaces: z.array(workspaceSchema) }) },
  'POST /workspaces': { tag: 'workspaces', summary: 'Create a workspace.', body: workspaceInputSchema, response: z.strictObject({ workspace: workspaceSchema }), status: 201 },
  'PUT /workspaces/:id': { tag: 'workspaces', summary: 'Replace a workspace.', params: workspaceIdParams, body: workspaceInputSchema, response: z.strictObject({ workspace: workspaceSchema }) },
  'DELETE /workspaces/:id': { tag: 'workspaces', summary: 'Delete a workspace.', params: workspaceIdParams, status: 204 },

  'GET /chat/contacts': { tag: 'chat', summary: 'Whom the user may chat with.', response: chatContactsResponseSchema },
  'GET /chat/conversations': { tag: 'chat', summary: "The user's conversations with unread counts.", response: chatConversationsResponseSchema },
  'GET /chat/messages': { tag: 'chat', summary: 'Messages of a conversation, paged backwards.', query: chatMessagesQuerySchema, response: chatMessagesResponseSchema },
  'POST /chat/read': { tag: 'chat', summary: 'Mark a conversation read up to a message.', body: chatReadSchema },

  'GET /clearing/warranties': { tag: 'clearing', summary: 'Warranties of the user\'s clients.', query: clearingListQuerySchema, response: list(warrantySchema) },
  'GET /clearing/financial-report': { tag: 'clearing', summary: 'Financial report: margins and calls.', query: clearingListQuerySchema, response: list(financialReportSchema) },
  'GET /clearing/financial-info': { tag: 'clearing', summary: 'Financial information and restrictions per client.', query: clearingListQuerySchema, response: list(financialInfoSchema) },
  'GET /clearing/nominations': { tag: 'clearing', summary: 'Delivery nominations.', query: clearingListQuerySchema, response: list(nominationSchema) },
  'PUT /clearing/nominations/:id': { tag: 'clearing', summary: 'Update a nominated quantity.', params: collateralIdParams, body: nominationUpdateSchema },
  'GET /clearing/daily-settlement-prices': { tag: 'clearing', summary: 'Daily settlement prices.', query: clearingListQuerySchema, response: list(dailySettlementPriceSchema) },
  'GET /clearing/final-settlement-prices': { tag: 'clearing', summary: 'Final settlement prices.', query: clearingListQuerySchema, response: list(finalSettlementPriceSchema) },
  'GET /clearing/settlement-runs': { tag: 'clearing', summary: 'Settlement runs.', query: clearingListQuerySchema, response: list(settlementRunSchema) },
  'GET /clearing/obligations': { tag: 'clearing', summary: 'Payment obligations.', query: obligationListQuerySchema, response: list(paymentObligationSchema) },
  'GET /clearing/unpaid-transactions': { tag: 'clearing', summary: 'Unpaid transactions.', query: clearingListQuerySchema, response: list(unpaidTransactionSchema) },
  'GET /clearing/bank-commissions': { tag: 'clearing', summary: 'Bank commissions.', query: clearingListQuerySchema, response: list(bankCommissionSchema) },
  'GET /clearing/batches': { tag: 'clearing', summary: 'Batch transactions.', query: clearingListQuerySchema, response: list(batchTransactionSchema) },
  'GET /clearing/daily-notes': { tag: 'clearing', summary: 'Daily settlement notes.', query: clearingListQuerySchema, response: list(dailySettlementNoteSchema) },
  'GET /clearing/daily-notes/:id': { tag: 'clearing', summary: 'One daily settlement note.', params: settlementIdParams, response: dailySettlementNoteSchema },
  'GET /clearing/monthly-summaries': { tag: 'clearing', summary: 'Monthly settlement summaries.', query: clearingListQuerySchema, response: list(monthlySettlementSummarySchema) },
  'GET /clearing/monthly-summaries/:clientCode/:month': { tag: 'clearing', summary: 'One monthly summary.', params: monthParamsSchema, response: monthlySettlementSummarySchema },
  'GET /clearing/transaction-reports': { tag: 'clearing', summary: 'Transaction reports.', query: clearingListQuerySchema, response: list(transactionReportSchema) },
  'GET /clearing/transaction-reports/:id': { tag: 'clearing', summary: 'One transaction report.', params: settlementIdParams, response: transactionReportSchema },

  'GET /clearing/daily-notes/:noteId/pdf': { tag: 'documents', summary: 'A daily settlement note as PDF (ro or en).', params: noteParamsSchema, query: languageQuerySchema, file: 'application/pdf' },
  'GET /clearing/monthly-summaries/:clientCode/:month/pdf': { tag: 'documents', summary: 'A monthly summary as PDF.', params: summaryParamsSchema, query: languageQuerySchema, file: 'application/pdf' },
  'GET /clearing/transaction-reports/:reportId/pdf': { tag: 'documents', summary: 'A transaction report as PDF.', params: reportParamsSchema, query: languageQuerySchema, file: 'application/pdf' },

  'GET /workflows': { tag: 'workflows', summary: 'Workflow instances the user takes part in.', query: workflowListQuerySchema, response: workflowListSchema },
  'GET /workflows/:instanceId': { tag: 'workflows', summary: 'One workflow instance with its history.', params: instanceParams, response: workflowInstanceSchema },
  'POST /workflows/:instanceId/actions': { tag: 'workflows', summary: 'Act on a workflow instance (approve, reject, cancel…).', params: instanceParams, body: workflowActionRequestSchema, response: workflowInstanceSchema, idempotencyKey: true },
  'POST /workflows/otc': { tag: 'workflows', summary: 'Register an OTC deal.', body: otcDealDraftSchema, response: workflowInstanceSchema, status: 201, idempotencyKey: true },
  'POST /workflows/otc/simulation': { tag: 'workflows', summary: "Simulate an OTC deal's effect on both sides.", body: otcDealDraftSchema, response: otcSimulationSchema },
  'POST /workflows/transfer': { tag: 'workflows', summary: 'Request a transfer.', body: transferRequestSchema, response: workflowInstanceSchema, status: 201, idempotencyKey: true },
  'POST /workflows/margin-activation': { tag: 'workflows', summary: 'Request a margin activation.', body: marginActivationRequestSchema, response: workflowInstanceSchema, status: 201, idempotencyKey: true },
  'POST /workflows/contract': { tag: 'workflows', summary: 'Upload a contract (multipart: the PDF and its fields).', bodyMediaType: 'multipart/form-data', response: workflowInstanceSchema, status: 201, idempotencyKey: true },
  'GET /workflows/:instanceId/contract.pdf': { tag: 'workflows', summary: "A contract instance's PDF.", params: contractParamsSchema, file: 'application/pdf' },
  'POST /workflows/whitelist': { tag: 'workflows', summary: 'Request a whitelist relation.', body: whitelistRequestSchema, response: workflowInstanceSchema, status: 201, idempotencyKey: true },
  'GET /whitelist/partners': { tag: 'workflows', summary: "A client's whitelist partners.", query: partnersQuerySchema, response: whitelistRelationListSchema },

  'GET /admin/participants': { tag: 'admin', summary: 'Clients and brokers with their suspension.', response: participantListSchema },
  'POST /admin/participants/:kind/:id/suspend': { tag: 'admin', summary: "Suspend a client or broker: their orders are cancelled and new ones refused.", params: participantParamsSchema, body: participantSuspendSchema, response: participantChangeSchema },
  'POST /admin/participants/:kind/:id/reinstate': { tag: 'admin', summary: 'Reinstate a suspended client or broker (no body).', params: participantParamsSchema, response: participantChangeSchema },
  'POST /admin/markets/:marketId/phase': { tag: 'admin', summary: 'Change, suspend or resume the phase of a market or asset.', params: marketParamsSchema, body: phaseBodySchema, status: 204 },
  'GET /admin/operator': { tag: 'admin', summary: "The operator console's snapshot: markets, participants, connections, engine and clearing health.", response: operatorSnapshotSchema },
  'POST /admin/markets/:marketId/suspend': { tag: 'admin', summary: 'Suspend a market (no body); refused for a suspended or closed market.', params: marketParamsSchema, status: 204 },
  'POST /admin/markets/:marketId/resume': { tag: 'admin', summary: "Resume a suspended market to the phase its schedule gives now, or trading (no body).", params: marketParamsSchema, status: 204 },
  'POST /admin/clearing/warranties': { tag: 'admin', summary: 'Register a warranty.', body: warrantyInputSchema, response: warrantySchema, status: 201 },
  'PUT /admin/clearing/warranties/:id': { tag: 'admin', summary: 'Update a warranty.', params: collateralIdParams, body: warrantyInputSchema, response: warrantySchema },
  'POST /admin/clearing/warranties/:id/release': { tag: 'admin', summary: 'Release a warranty (no body).', params: collateralIdParams },
  'PUT /admin/clearing/financial-info/:clientCode': { tag: 'admin', summary: "Set a client's financial restrictions.", params: clientParams, body: financialRestrictionsInputSchema },
  'POST /admin/clearing/settlement-runs': { tag: 'admin', summary: 'Run the settlement of a market and day.', body: settlementRunRequestSchema },
  'POST /admin/clearing/daily-settlement-prices/:id/override': { tag: 'admin', summary: 'Override a daily settlement price.', params: settlementIdParams, body: settlementPriceOverrideSchema },
  'POST /admin/clearing/obligations/:id/settle': { tag: 'admin', summary: 'Mark a payment obligation settled.', params: settlementIdParams, body: obligationSettleSchema },
  'GET /admin/audit': { tag: 'admin', summary: 'The audit trail (operator, workflow and security events), newest first, filtered and paged.', query: auditQuerySchema, response: auditPageSchema },
  'GET /admin/audit.csv': { tag: 'admin', summary: 'Every audit entry matching the filters as CSV (UTF-8 with BOM, Bucharest times).', query: auditQuerySchema, file: 'text/csv' },

  'GET /qa/recordings': { tag: 'qa', summary: 'The recorded sessions of fixtures/sessions: name and size (qa and administrator).', response: recordingListSchema },
  'GET /qa/recordings/:name': { tag: 'qa', summary: 'One recorded session as JSON lines, checked by the recording parser (qa and administrator).', params: recordingParamsSchema, file: 'application/x-ndjson' },
};
