/**
 * The workflows as the routes see them: one runner, the services of each kind, and the action
 * dispatcher that hands each kind's checks and side effects to the runner. The contract and whitelist
 * services (contracts.ts, whitelist.ts) add theirs with `registerKind`.
 */
import { apiError, ExchangeError } from '../../protocol/error-codes.ts';
import { workflowActionsByKind, type WorkflowActionRequest, type WorkflowInstance, type WorkflowKind } from '../../protocol/workflows.ts';
import { MarginActivations } from './margin-activations.ts';
import { OtcDeals } from './otc-deals.ts';
import { Transfers } from './transfers.ts';
import type { WorkflowEnvironment } from './workflow-environment.ts';
import { visibleTo } from './workflow-repository.ts';
import { WorkflowRunner, type IdempotencyInput, type WorkflowChangeSink, type WorkflowSideEffects, type WorkflowUser } from './workflow-runner.ts';
import { WorkflowTimers } from './workflow-timers.ts';

export type SideEffectsOf = (action: string) => WorkflowSideEffects;

export interface WorkflowServiceOptions {
  env: WorkflowEnvironment;
  db: ConstructorParameters<typeof WorkflowRunner>[0]['db'];
  publisher?: WorkflowChangeSink;
  /** Ms between timer sweeps (0: tests sweep by hand). */
  timerIntervalMs?: number;
}

export class WorkflowService {
  readonly runner: WorkflowRunner;
  readonly otc: OtcDeals;
  readonly transfers: Transfers;
  readonly marginActivations: MarginActivations;
  readonly timers: WorkflowTimers;
  private readonly kinds = new Map<WorkflowKind, SideEffectsOf>();

  constructor(private readonly options: WorkflowServiceOptions) {
    const { env } = options;
    this.runner = new WorkflowRunner({ db: options.db, now: env.now, publisher: options.publisher });
    this.otc = new OtcDeals(this.runner, env);
    this.transfers = new Transfers(this.runner, env);
    this.marginActivations = new MarginActivations(this.runner, env);
    this.timers = new WorkflowTimers({ runner: this.runner, db: options.db, now: env.now, intervalMs: options.timerIntervalMs });
    this.registerKind('otc', (action) => this.otc.sideEffects(action));
    this.registerKind('transfer', (action) => this.transfers.sideEffects(action));
    this.registerKind('marginActivation', (action) => this.marginActivations.sideEffects(action));
  }

  /** What the kinds registered from outside (contracts, whitelist) are built with. */
  get env(): WorkflowEnvironment {
    return this.options.env;
  }

  registerKind(kind: WorkflowKind, sideEffectsOf: SideEffectsOf): void {
    this.kinds.set(kind, sideEffectsOf);
  }

  /** A user's action (POST /workflows/:id/actions): only the actions of the instance's kind exist. */
  async act(instanceId: string, request: WorkflowActionRequest, actor: WorkflowUser, idempotency?: IdempotencyInput): Promise<WorkflowInstance> {
    const row = await this.runner.repository.find(this.options.db, instanceId);
    if (!row || !visibleTo(actor, row)) throw new ExchangeError(apiError('WORKFLOW_NOT_FOUND', { instanceId }));
    if (!(workflowActionsByKind[row.kind] as readonly string[]).includes(request.action)) {
      throw new ExchangeError(apiError('WORKFLOW_ACTION_NOT_ALLOWED', { action: request.action, status: row.status }));
    }
    const sideEffects = this.kinds.get(row.kind)?.(request.action) ?? {};
    return this.runner.act(instanceId, request.action, actor, { reason: request.reason, version: request.version, idempotency }, sideEffects);
  }

  async start(): Promise<void> {
    await this.timers.start();
  }

  async stop(): Promise<void> {
    await this.timers.stop();
  }
}
