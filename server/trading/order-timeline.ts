/**
 * The per-order timeline (issue 16, item 7; docs/orders-and-notifications.md "Per-order timeline"):
 * one order's events from the order read model, then for each transaction it traded in, what the
 * clearing tables (migrations 009, 011), the settlement run and the workflow instances (012) hold about
 * it. Read only; the route decides who may see the order.
 *
 * Anonymity: an entry carries the order's own side only. The counterparty's client, users and order
 * are read where the tables need them (to tell which side acted) but never copied into an entry.
 */
import { CLEARING_AMOUNT_DECIMALS, type Order, type Transaction } from '../../protocol/index.ts';
import type { OrderEvent } from '../../protocol/order-history.ts';
import type { OrderTimeline, OrderTimelineChange, OrderTimelineEntry, TimelineActor, TimelineObligation } from '../../protocol/order-timeline.ts';
import { systemActor } from '../../machines/workflows/workflow-actor.ts';
import type { Queryable } from '../store/database.ts';
import type { UserRecord } from '../store/users.repository.ts';
import { WorkflowRepository } from '../workflows/workflow-repository.ts';

/** What the builder reads; the exchange server's store and projector provide it. */
export interface OrderTimelineSources {
  db: Queryable;
  orderEvents(orderId: string): Promise<OrderEvent[]>;
  transaction(transactionId: string): Promise<Transaction | undefined>;
  user(userId: string): Promise<UserRecord | null>;
  /** The journal record the read models stand at and how far behind what they received. */
  readModel(): { seq: number; behindBy: number };
}

/** An entry before its place in the list is known. */
type Unplaced = OrderTimelineEntry extends infer Entry ? (Entry extends OrderTimelineEntry ? Omit<Entry, 'seq'> : never) : never;

const iso = (value: unknown): string => new Date(value as string).toISOString();

/** The fields of an order event a change can touch, in the order a change lists them. */
function changesBetween(before: OrderEvent, after: OrderEvent): OrderTimelineChange[] {
  const changes: OrderTimelineChange[] = [];
  if (before.price !== after.price) changes.push({ field: 'price', from: before.price, to: after.price });
  if (before.qty !== after.qty) changes.push({ field: 'qty', from: before.qty, to: after.qty });
  if (before.validityType !== after.validityType) changes.push({ field: 'validityType', from: before.validityType, to: after.validityType });
  if (before.validity !== after.validity) changes.push({ field: 'validity', from: before.validity, to: after.validity });
  if (before.suspended !== after.suspended) changes.push({ field: 'suspended', from: before.suspended, to: after.suspended });
  return changes;
}

/** The order's own entries: entry, changes, fills, end; and the transactions it traded in, in order. */
function orderEntries(events: OrderEvent[]): { entries: Unplaced[]; transactionIds: string[] } {
  const entries: Unplaced[] = [];
  const transactionIds: string[] = [];
  let previous: OrderEvent | null = null;
  for (const event of events) {
    const { at } = event;
    if (event.kind === 'created') {
      entries.push({ kind: 'entered', at, price: event.price, qty: event.qty, validityType: event.validityType, validity: event.validity, suspended: event.suspended });
    } else if (event.kind === 'modified' || event.kind === 'suspended' || event.kind === 'activated') {
      const changes = previous ? changesBetween(previous, event) : [];
      entries.push({ kind: 'modified', at, changes });
    } else if (event.kind === 'tradedPartially' || event.kind === 'traded') {
      // The open quantity before this event, less each fill in turn.
      let open = previous?.offeredQty ?? event.offeredQty + event.fills.reduce((sum, fill) => sum + fill.qty, 0);
      for (const fill of event.fills) {
        open -= fill.qty;
        if (!transactionIds.includes(fill.transactionId)) transactionIds.push(fill.transactionId);
        entries.push({ kind: 'fill', at, transactionId: fill.transactionId, price: fill.price, qty: fill.qty, remainingQty: Math.max(0, open) });
      }
      if (event.kind === 'traded') entries.push({ kind: 'filled', at, tradedQty: event.tradedQty, tradedPrice: event.tradedPrice });
    } else if (event.kind === 'cancelled') {
      entries.push({ kind: 'cancelled', at, reason: event.reason === 'ioc' ? 'ioc' : 'user', openQty: event.offeredQty, tradedQty: event.tradedQty });
    } else {
      entries.push({ kind: 'expired', at, openQty: event.offeredQty, tradedQty: event.tradedQty });
    }
    previous = event;
  }
  return { entries, transactionIds };
}

interface BatchDbRow { id: string; reported_at: unknown; single_piece_amount: string | number; pieces: string | number; pieces_cnt: number | string; settlement_run_id: string | null }
interface RunDbRow { id: string; market_id: string; session_date: string; completed_at: unknown }
interface ObligationDbRow { id: string; kind: TimelineObligation['kind']; direction: TimelineObligation['direction']; amount: string | number; currency: string; due_date: string; status: TimelineObligation['status'] }

/** Clearing and settlement of one transaction, from the order's client's side. */
async function clearingEntries(db: Queryable, transaction: Transaction, clientCode: string): Promise<Unplaced[]> {
  const { transactionId } = transaction;
  const entries: Unplaced[] = [{
    kind: 'clearing', at: transaction.timestamp, step: 'marginExposure', transactionId, marginsExposureActive: transaction.marginsExposureActive,
    batchId: null, pieces: null, piecesQty: null, singlePieceAmount: null,
  }];
  const [batch] = await db.query<BatchDbRow>('select id, reported_at, single_piece_amount, pieces, pieces_cnt, settlement_run_id from clearing_batches where transaction_id = $1 order by reported_at limit 1', [transactionId]);
  if (batch) {
    entries.push({
      kind: 'clearing', at: iso(batch.reported_at), step: 'reported', transactionId, marginsExposureActive: null,
      batchId: batch.id, pieces: Number(batch.pieces_cnt), piecesQty: Number(batch.pieces), singlePieceAmount: Number(batch.single_piece_amount),
    });
  }
  // The run that covered the trade: the batch names it; else its market's completed run of the trade's session.
  const runs = batch?.settlement_run_id
    ? await db.query<RunDbRow>("select id, market_id, session_date, completed_at from settlement_runs where id = $1 and status = 'completed'", [batch.settlement_run_id])
    : await db.query<RunDbRow>(
      "select r.id, r.market_id, r.session_date, r.completed_at from settlement_runs r join assets a on a.market_id = r.market_id where a.id = $1 and r.session_date = $2 and r.status = 'completed'",
      [transaction.assetId, transaction.txDate],
    );
  const run = runs[0];
  if (!run) return entries;
  const [note] = await db.query<{ id: string; data: { lines: Array<{ assetId: string; settlementPrice: number | null }> } }>(
    'select id, data from daily_settlement_notes where settlement_run_id = $1 and client_code = $2',
    [run.id, clientCode],
  );
  const obligations = await db.query<ObligationDbRow>(
    `select id, kind, direction, amount, currency, due_date, status from payment_obligations
      where settlement_run_id = $1 and client_code = $2 and (transaction_id = $3 or kind = 'variation_margin') order by kind desc, id`,
    [run.id, clientCode, transactionId],
  );
  entries.push({
    kind: 'settlement',
    at: iso(run.completed_at),
    transactionId,
    settlementRunId: run.id,
    marketId: run.market_id,
    sessionDate: run.session_date,
    noteId: note?.id ?? null,
    settlementPrice: note?.data.lines.find((line) => line.assetId === transaction.assetId)?.settlementPrice ?? null,
    obligations: obligations.map((row) => ({
      obligationId: row.id, kind: row.kind, direction: row.direction, amount: Number(row.amount), currency: row.currency, dueDate: row.due_date, status: row.status,
    })),
  });
  return entries;
}

/** Workflow instances on one transaction, each as it stands, with who acted last seen from the order's side. */
async function workflowEntries(sources: OrderTimelineSources, transactionId: string, clientCode: string): Promise<Unplaced[]> {
  const instances = await new WorkflowRepository().list(sources.db, { transactionId }, systemActor);
  const actorOf = async (userId: string | null): Promise<TimelineActor> => {
    if (userId === null) return 'system';
    const user = await sources.user(userId);
    if (!user) return 'system';
    if (user.roles.includes('administrator')) return 'exchange';
    return user.clientCodes.includes(clientCode) ? 'ownSide' : 'counterparty';
  };
  const entries: Unplaced[] = [];
  for (const instance of instances) {
    const last = instance.history.at(-1) ?? null;
    entries.push({
      kind: 'workflow',
      at: instance.createdAt,
      transactionId,
      instanceId: instance.instanceId,
      workflowKind: instance.kind,
      status: instance.status,
      initiatedBy: instance.initiatorClient === clientCode ? 'ownSide' : 'counterparty',
      lastAction: last ? { action: last.action, by: await actorOf(last.actorUserId), at: last.at } : null,
    });
  }
  return entries;
}

/**
 * The timeline of an order the caller may see. Entries are ordered by time; at the same instant the
 * order's own entries keep their journal order and come before what followed from them.
 */
export async function buildOrderTimeline(sources: OrderTimelineSources, order: Order): Promise<OrderTimeline> {
  const { entries: own, transactionIds } = orderEntries(await sources.orderEvents(order.orderId));
  const followed: Unplaced[] = [];
  for (const transactionId of transactionIds) {
    const transaction = await sources.transaction(transactionId);
    if (transaction) followed.push(...(await clearingEntries(sources.db, transaction, order.clientCode)));
    followed.push(...(await workflowEntries(sources, transactionId, order.clientCode)));
  }
  const ranked = [...own.map((entry, index) => ({ entry, rank: 0, index })), ...followed.map((entry, index) => ({ entry, rank: 1, index }))];
  ranked.sort((a, b) => a.entry.at.localeCompare(b.entry.at) || a.rank - b.rank || a.index - b.index);
  return {
    order,
    amountDecimals: CLEARING_AMOUNT_DECIMALS,
    readModel: sources.readModel(),
    entries: ranked.map(({ entry }, index) => ({ ...entry, seq: index + 1 }) as OrderTimelineEntry),
  };
}
