/**
 * The generic runner every workflow kind uses: it runs instances of the machines of
 * machines/workflows/ authoritatively, stores them (workflow-repository.ts) and publishes changes.
 *
 * API (other services build on it):
 *   const runner = new WorkflowRunner({ db, now, publisher? });
 *   runner.create(kind, parties, data, actor, opts)          -> WorkflowInstance (status = the machine's initial state)
 *     opts: { transactionId?, limitAt?, idempotency?: {key, bodyHash}, inTransaction?(tx, row), onDuplicate?(),
 *             followUp?: { type, code, params } (a system event applied at once in the same transaction,
 *             e.g. a transfer's `nonTransferable` or a whitelist DENY's `approveAtOnce`) }
 *   runner.act(instanceId, action, actor, { reason?, version?, idempotencyKey?/idempotency?, code?, params? }, sideEffects?)
 *     -> WorkflowInstance after the transition.
 *   sideEffects (WorkflowSideEffects): the kind's hook, in two phases:
 *     - check(row, actor): BEFORE the database transaction; may read anything (clearing, funds, the
 *       read models: on PGlite a query outside the open transaction would wait for it forever). Throws an
 *       ExchangeError to refuse (nothing stored), or returns { failed: {code, params} } to turn the
 *       event into the system's `checksFailed` (stored, e.g. OTC approve → rejected with the code), or
 *       { data } to merge into the instance's data.
 *     - apply(row, tx): INSIDE the transaction, after the row is locked and its version verified: the
 *       engine side effects (register a trade, novate, set margin exposure), at most once per winner.
 *       Returns { data?, transactionId? } to store. See "exactly once" below.
 *   workflowActorOf(user) -> WorkflowUser (the machines' WorkflowActor plus name and role for the history).
 *   requestHash(path, body) -> the body hash of an Idempotency-Key request.
 *
 * What `act` refuses, in this order: WORKFLOW_IDEMPOTENCY_KEY_REUSED (a key seen with another body),
 * WORKFLOW_NOT_FOUND (unknown, or invisible to the actor: the same answer), WORKFLOW_REASON_REQUIRED,
 * WORKFLOW_CONFLICT (a stale `version`, or another writer won between the check and the lock),
 * WORKFLOW_ACTION_NOT_ALLOWED {action, status} (the machine does not take it from this actor here).
 *
 * Concurrency: the row is read, the event checked by the machine and the kind's checks run; then, in
 * ONE transaction, the row is locked (`select … for update`; PGlite has a single connection and runs
 * one transaction at a time), its version compared with the one read (another → WORKFLOW_CONFLICT),
 * the side effects applied, and the new state written with `update … where id = $1 and version = $2`
 * (0 rows → WORKFLOW_CONFLICT) together with the event record and the idempotency answer. Of two
 * concurrent approvals exactly one reaches the side effects.
 *
 * Exactly once: an engine side effect may land while the commit that records it fails (a crash, the
 * database away). The instance then still waits where it was, and the next approval applies the side
 * effect again; so every kind's `apply` first asks the ledger whether it is already done, by a key
 * derived from the instance (the instance id is the trade's externalTransactionId; a novation is
 * found by its parent transaction; setting margin exposure is idempotent). See docs/workflows.md.
 *
 * After commit the change is published (workflow-publisher.ts): a WorkflowChange to the participants'
 * users and the administrators, and a notification to those the transition concerns.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { AnyMachineSnapshot } from 'xstate';
import { apiError, ExchangeError, type ApiError, type ErrorCode } from '../../protocol/error-codes.ts';
import { actionsWithReason, type WorkflowAction, type WorkflowInstance, type WorkflowKind, type WorkflowReason } from '../../protocol/workflows.ts';
import { systemActor, type WorkflowActor, type WorkflowParties } from '../../machines/workflows/workflow-actor.ts';
import { applyWorkflowEvent, restoreWorkflow, startWorkflow, statusOf, storeWorkflow, waitingOnOf, type WorkflowEvent } from '../../machines/workflows/workflow-definitions.ts';
import { insertAudit } from '../audit/audit-log.ts';
import type { Database, Queryable } from '../store/database.ts';
import type { UserRecord } from '../store/users.repository.ts';
import { visibleTo, WorkflowRepository, type WorkflowEventInput, type WorkflowRow } from './workflow-repository.ts';

/** The acting user as the machines see it, plus what the history shows. */
export interface WorkflowUser extends WorkflowActor {
  name: string | null;
  /** The role recorded in the history ('administrator', 'broker', …; 'system' for the system). */
  role: string;
}

export const systemUser: WorkflowUser = { ...systemActor, name: null, role: 'system' };

export function workflowActorOf(user: Pick<UserRecord, 'id' | 'name' | 'roles' | 'scopes' | 'clientCodes'>): WorkflowUser {
  return { userId: user.id, roles: [...user.roles], scopes: [...user.scopes], clientCodes: [...user.clientCodes], name: user.name, role: user.roles[0] ?? 'user' };
}

export type ReasonParams = Record<string, string | number>;

/** A check that failed: its code and parameters become the instance's reason. */
export interface FailedCheck {
  code: ErrorCode;
  params: ReasonParams;
}

export interface CheckOutcome {
  /** Turns the event into the system's `checksFailed` with this code. */
  failed?: FailedCheck;
  /** Merged into the instance's data. */
  data?: Record<string, unknown>;
}

export interface ApplyOutcome {
  data?: Record<string, unknown>;
  transactionId?: string | null;
}

export interface WorkflowSideEffects {
  check?(row: WorkflowRow, actor: WorkflowUser): Promise<CheckOutcome | void>;
  apply?(row: WorkflowRow, tx: Queryable): Promise<ApplyOutcome | void>;
}

export interface IdempotencyInput {
  key: string;
  /** requestHash(path, body) of the request. */
  bodyHash: string;
}

export interface ActOptions {
  reason?: string | undefined;
  version?: number | undefined;
  idempotency?: IdempotencyInput | undefined;
  /** A system event's code (expire, checksFailed, nonTransferable) and its parameters. */
  code?: ErrorCode;
  params?: ReasonParams;
}

export interface CreateOptions {
  transactionId?: string | null;
  limitAt?: string | null;
  /** Runs in the creating transaction after the insert and the follow-up (rows that reference the instance). */
  afterCreate?(tx: Queryable, row: WorkflowRow): Promise<void>;
  idempotency?: IdempotencyInput | undefined;
  /** Runs in the creating transaction before the insert (rules that read other rows). */
  inTransaction?(tx: Queryable, row: WorkflowRow): Promise<void>;
  /** The refusal for a unique index violation (one transfer in flight, one contract per transaction…). */
  onDuplicate?(): ExchangeError;
  /**
   * An event applied at once, in the same transaction: the system's (a transfer's `nonTransferable`)
   * or, with `byCreator`, the creator's own (a margin activation is created and activated at once).
   */
  followUp?: { type: string; code?: ErrorCode; params?: ReasonParams; byCreator?: boolean };
}

/** Publishes a stored transition after its commit (workflow-publisher.ts). */
export interface WorkflowChangeSink {
  publish(instance: WorkflowInstance, actor: WorkflowUser): Promise<void> | void;
}

export interface WorkflowRunnerOptions {
  db: Database;
  now: () => number;
  publisher?: WorkflowChangeSink;
  newId?: () => string;
}

/** The hash an Idempotency-Key is bound to: the route and the body. */
export function requestHash(path: string, body: unknown): string {
  return createHash('sha256').update(path).update('\n').update(JSON.stringify(body ?? null)).digest('hex');
}

/** Thrown inside a transaction when a concurrent request with the same key stored its answer first. */
class KeyTakenMeanwhile extends Error {}

function exchangeError(code: ErrorCode, params: ReasonParams): ExchangeError {
  return new ExchangeError({ code, params } as ApiError);
}

function reasonFor(text: string | undefined, code: ErrorCode | undefined, params: ReasonParams | undefined): WorkflowReason | null {
  if (code !== undefined) return { text: null, code, params: params ?? {} };
  if (text !== undefined && text.trim() !== '') return { text: text.trim(), code: null, params: {} };
  return null;
}

function uniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

export class WorkflowRunner {
  readonly repository = new WorkflowRepository();
  readonly db: Database;
  private readonly now: () => number;
  private readonly publisher: WorkflowChangeSink | undefined;
  private readonly newId: () => string;

  constructor(options: WorkflowRunnerOptions) {
    this.db = options.db;
    this.now = options.now;
    this.publisher = options.publisher;
    this.newId = options.newId ?? (() => `wf-${randomUUID().replace(/-/g, '').slice(0, 20)}`);
  }

  /** The instance as `actor` may see it; WORKFLOW_NOT_FOUND otherwise. */
  async get(instanceId: string, actor: WorkflowActor): Promise<WorkflowInstance> {
    const instance = await this.repository.instance(this.db, instanceId);
    if (!instance || !visibleTo(actor, instance)) throw new ExchangeError(apiError('WORKFLOW_NOT_FOUND', { instanceId }));
    return instance;
  }

  async create(kind: WorkflowKind, parties: WorkflowParties, data: Record<string, unknown>, actor: WorkflowUser, opts: CreateOptions = {}): Promise<WorkflowInstance> {
    return this.idempotent(actor, opts.idempotency, 201, async (tx) => {
      const at = new Date(this.now()).toISOString();
      const snapshot = startWorkflow(kind, parties);
      const row: WorkflowRow = {
        id: this.newId(),
        kind,
        status: statusOf(snapshot),
        machineState: storeWorkflow(snapshot),
        initiatorClient: parties.initiatorClient,
        partnerClient: parties.partnerClient,
        transactionId: opts.transactionId ?? null,
        limitAt: opts.limitAt ?? null,
        waitingOn: waitingOnOf(snapshot),
        version: 1,
        reason: null,
        data,
        createdBy: actor.userId ?? 'system',
        createdAt: at,
        updatedAt: at,
      };
      await opts.inTransaction?.(tx, row);
      try {
        await this.repository.insert(tx, row);
      } catch (error) {
        if (uniqueViolation(error) && opts.onDuplicate) throw opts.onDuplicate();
        throw error;
      }
      await this.recordEvent(tx, kind, row.id, { action: 'create', actorUserId: actor.userId, actorRole: actor.role, fromStatus: null, toStatus: row.status, reason: null, at });
      if (opts.followUp) {
        const by = opts.followUp.byCreator ? actor : systemUser;
        const event = { type: opts.followUp.type, actor: by, ...(opts.followUp.code ? { code: opts.followUp.code } : {}) } as WorkflowEvent;
        const next = applyWorkflowEvent(kind, snapshot, event);
        if (!next) throw new ExchangeError(apiError('WORKFLOW_ACTION_NOT_ALLOWED', { action: opts.followUp.type, status: row.status }));
        const reason = reasonFor(undefined, opts.followUp.code, opts.followUp.params);
        const from = row.status;
        Object.assign(row, { status: statusOf(next), machineState: storeWorkflow(next), waitingOn: waitingOnOf(next), version: 2, reason: reason ?? row.reason });
        if (!(await this.repository.update(tx, row, 1))) throw new ExchangeError(apiError('WORKFLOW_CONFLICT', { instanceId: row.id, version: 1 }));
        await this.recordEvent(tx, kind, row.id, { action: opts.followUp.type, actorUserId: by.userId, actorRole: by.role, fromStatus: from, toStatus: row.status, reason, at });
      }
      await opts.afterCreate?.(tx, row);
      return (await this.repository.instance(tx, row.id))!;
    });
  }

  async act(instanceId: string, action: string, actor: WorkflowUser, opts: ActOptions = {}, sideEffects: WorkflowSideEffects = {}): Promise<WorkflowInstance> {
    const stored = await this.storedAnswer(actor, opts.idempotency);
    if (stored) return stored;
    try {
      return await this.actOnce(instanceId, action, actor, opts, sideEffects);
    } catch (error) {
      // The same request, sent twice at once, may see the first one's new state before its stored answer.
      const winner = opts.idempotency ? await this.storedAnswer(actor, opts.idempotency) : null;
      if (winner) return winner;
      throw error;
    }
  }

  private async actOnce(instanceId: string, action: string, actor: WorkflowUser, opts: ActOptions, sideEffects: WorkflowSideEffects): Promise<WorkflowInstance> {
    const notFound = () => new ExchangeError(apiError('WORKFLOW_NOT_FOUND', { instanceId }));
    const row = await this.repository.find(this.db, instanceId);
    if (!row || !visibleTo(actor, row)) throw notFound();
    if ((actionsWithReason as readonly string[]).includes(action as WorkflowAction) && reasonFor(opts.reason, undefined, undefined) === null) {
      throw new ExchangeError(apiError('WORKFLOW_REASON_REQUIRED', { action }));
    }
    if (opts.version !== undefined && opts.version !== row.version) throw new ExchangeError(apiError('WORKFLOW_CONFLICT', { instanceId, version: row.version }));
    const snapshot = restoreWorkflow(row.kind, row.machineState);
    const event = { type: action, actor, ...(opts.reason !== undefined ? { reason: opts.reason } : {}), ...(opts.code !== undefined ? { code: opts.code } : {}) } as WorkflowEvent;
    let next: AnyMachineSnapshot | null = applyWorkflowEvent(row.kind, snapshot, event);
    if (!next) throw new ExchangeError(apiError('WORKFLOW_ACTION_NOT_ALLOWED', { action, status: row.status }));

    // The kind's checks, outside the transaction (they may read clearing and the read models).
    let recorded = { action, actor: actor as WorkflowUser, reason: reasonFor(opts.reason, opts.code, opts.params) };
    const outcome = (await sideEffects.check?.(row, actor)) ?? {};
    if (outcome.failed) {
      const failedEvent = { type: 'checksFailed', actor: systemActor, code: outcome.failed.code } as WorkflowEvent;
      next = applyWorkflowEvent(row.kind, snapshot, failedEvent);
      // A machine with no `checksFailed` here: the check is a plain refusal.
      if (!next) throw exchangeError(outcome.failed.code, outcome.failed.params);
      recorded = { action: 'checksFailed', actor: systemUser, reason: { text: null, code: outcome.failed.code, params: outcome.failed.params } };
    }
    const target = next;

    return this.idempotent(actor, opts.idempotency, 200, async (tx) => {
      const locked = await this.repository.lock(tx, instanceId);
      if (!locked) throw notFound();
      if (locked.version !== row.version) throw new ExchangeError(apiError('WORKFLOW_CONFLICT', { instanceId, version: locked.version }));
      const applied = outcome.failed ? {} : ((await sideEffects.apply?.(locked, tx)) ?? {});
      const at = new Date(this.now()).toISOString();
      const updated: WorkflowRow = {
        ...locked,
        status: statusOf(target),
        machineState: storeWorkflow(target),
        waitingOn: waitingOnOf(target),
        version: locked.version + 1,
        reason: recorded.reason ?? locked.reason,
        data: { ...locked.data, ...(outcome.data ?? {}), ...(applied.data ?? {}) },
        transactionId: applied.transactionId === undefined ? locked.transactionId : applied.transactionId,
        updatedAt: at,
      };
      if (!(await this.repository.update(tx, updated, locked.version))) throw new ExchangeError(apiError('WORKFLOW_CONFLICT', { instanceId, version: locked.version }));
      await this.recordEvent(tx, locked.kind, instanceId, {
        action: recorded.action,
        actorUserId: recorded.actor.userId,
        actorRole: recorded.actor.role,
        fromStatus: locked.status,
        toStatus: updated.status,
        reason: recorded.reason,
        at,
      });
      return (await this.repository.instance(tx, instanceId))!;
    });
  }

  /**
   * A transition's history row and its audit entry (category 'workflow'), in the transition's own
   * transaction: both commit with the state change or neither does. The system (timers, checks) acts
   * with a null actor.
   */
  private async recordEvent(tx: Queryable, kind: WorkflowKind, instanceId: string, event: WorkflowEventInput): Promise<void> {
    await this.repository.insertEvent(tx, instanceId, event);
    const reason = event.reason === null ? null : (event.reason.text ?? event.reason.code);
    await insertAudit(
      tx,
      {
        category: 'workflow',
        action: 'workflow.action',
        actorUserId: event.actorUserId,
        actorRole: event.actorUserId === null ? null : event.actorRole,
        subject: `${kind} ${instanceId}`,
        outcome: 'ok',
        code: event.reason?.code ?? null,
        remoteAddress: null,
        details: { kind, instanceId, action: event.action, from: event.fromStatus, to: event.toStatus, reason: reason === null ? null : reason.slice(0, 500) },
      },
      event.at,
    );
  }

  /** The answer stored under the actor's key, if any (another body under it is refused). */
  private async storedAnswer(actor: WorkflowUser, idempotency: IdempotencyInput | undefined): Promise<WorkflowInstance | null> {
    if (!idempotency || actor.userId === null) return null;
    const stored = await this.repository.storedRequest(this.db, actor.userId, idempotency.key);
    if (!stored) return null;
    if (stored.bodyHash !== idempotency.bodyHash) throw new ExchangeError(apiError('WORKFLOW_IDEMPOTENCY_KEY_REUSED'));
    return stored.response as WorkflowInstance;
  }

  /**
   * Runs `work` in one transaction, storing its answer under the key in the same transaction, then
   * publishes. A concurrent request with the same key that lost gets the winner's answer.
   */
  private async idempotent(actor: WorkflowUser, idempotency: IdempotencyInput | undefined, status: number, work: (tx: Queryable) => Promise<WorkflowInstance>): Promise<WorkflowInstance> {
    const stored = await this.storedAnswer(actor, idempotency);
    if (stored) return stored;
    let instance: WorkflowInstance;
    try {
      instance = await this.db.transaction(async (tx) => {
        const result = await work(tx);
        if (idempotency && actor.userId !== null) {
          const first = await this.repository.storeRequest(tx, actor.userId, idempotency.key, { bodyHash: idempotency.bodyHash, status, response: result }, result.updatedAt);
          if (!first) throw new KeyTakenMeanwhile();
        }
        return result;
      });
    } catch (error) {
      // The same request sent twice at once: the one that lost answers as the winner did.
      const winner = idempotency ? await this.storedAnswer(actor, idempotency) : null;
      if (winner) return winner;
      throw error;
    }
    await this.publish(instance, actor);
    return instance;
  }

  private async publish(instance: WorkflowInstance, actor: WorkflowUser): Promise<void> {
    try {
      await this.publisher?.publish(instance, actor);
    } catch (error) {
      // The transition is stored; a lost message is healed by the next list fetch.
      console.warn(`workflow ${instance.instanceId}: publishing failed`, error);
    }
  }
}
