/**
 * Whitelist requests and relations (SPEC §3, §4, §5). A client asks a partner to ALLOW_TRADING (the
 * partner approves or rejects, the requester may cancel) or tells it DENY_TRADING (approved at once by
 * the system: no one can be made to keep trading with a counterparty). The relation of the two is
 * stored once per direction in whitelist_relations and told to the engine through the ledger, in the
 * transaction of the transition that changes it:
 *
 *   ALLOW pending            → PENDING (both directions)
 *   ALLOW approved           → ACTIVE
 *   ALLOW rejected/cancelled → what it was: DISABLED when the two were partners before, else none
 *   DENY (approved at once)  → DISABLED
 *
 * The four request rules are whitelist-rules.ts; they read the pair's rows inside the creating
 * transaction, after locking the two clients' rows, so two requests of one pair never race past them.
 */
import type { WhitelistRelationStatus, WhitelistRequestType } from '../../protocol/enums.ts';
import { apiError, ExchangeError, type ErrorCode } from '../../protocol/error-codes.ts';
import type { WhitelistRelation, WhitelistRequestBody, WorkflowInstance } from '../../protocol/workflows.ts';
import { actsFor, mayView } from '../../machines/workflows/workflow-actor.ts';
import type { Queryable } from '../store/database.ts';
import { checkWhitelistRequest, relationAfter } from './whitelist-rules.ts';
import type { IdempotencyInput, WorkflowRunner, WorkflowSideEffects, WorkflowUser } from './workflow-runner.ts';
import type { WorkflowLedger } from './workflow-ledger.ts';
import type { WorkflowRow } from './workflow-repository.ts';

/** The engine's side of a relation: only whether the two may trade (ACTIVE) matters to matching. */
export type WhitelistRelationSink = Pick<WorkflowLedger, 'setWhitelistRelation'>;

/** What the whitelist needs of the exchange (a WorkflowEnvironment, workflow-environment.ts, has it). */
export interface WhitelistEnvironment {
  db: Queryable;
  ledger: WhitelistRelationSink;
  now: () => number;
}

interface RelationDbRow {
  client_code: string;
  partner_code: string;
  partner_name: string | null;
  status: WhitelistRelationStatus;
  request_id: string | null;
  updated_at: Date | string;
}

/** The relation of `client` with `partner` (the rows are symmetric: one direction is enough). */
export async function relationOf(db: Queryable, client: string, partner: string): Promise<WhitelistRelationStatus | null> {
  const rows = await db.query<{ status: WhitelistRelationStatus }>('select status from whitelist_relations where client_code = $1 and partner_code = $2', [client, partner]);
  return rows[0]?.status ?? null;
}

/**
 * Writes the relation in both directions (null deletes it) and tells the engine, once. Called inside
 * the transition's transaction, last, so a refusal before it changes nothing anywhere.
 */
async function writeRelation(tx: Queryable, ledger: WhitelistRelationSink, a: string, b: string, status: WhitelistRelationStatus | null, requestId: string, at: string): Promise<void> {
  if (status === null) {
    await tx.query('delete from whitelist_relations where (client_code = $1 and partner_code = $2) or (client_code = $2 and partner_code = $1)', [a, b]);
  } else {
    await tx.query(
      `insert into whitelist_relations (client_code, partner_code, status, request_id, updated_at) values ($1, $2, $3, $4, $5), ($2, $1, $3, $4, $5)
       on conflict (client_code, partner_code) do update set status = excluded.status, request_id = excluded.request_id, updated_at = excluded.updated_at`,
      [a, b, status, requestId, at],
    );
  }
  await ledger.setWhitelistRelation(a, b, status === 'ACTIVE');
}

/** Were the two partners before (an approved request between them)? Then an ended ALLOW leaves DISABLED. */
async function relationBeforeAllow(tx: Queryable, a: string, b: string, excludeId: string): Promise<WhitelistRelationStatus | null> {
  const rows = await tx.query<{ id: string }>(
    `select id from workflow_instances where kind = 'whitelist' and status = 'APPROVED' and id <> $3
       and ((initiator_client = $1 and partner_client = $2) or (initiator_client = $2 and partner_client = $1)) limit 1`,
    [a, b, excludeId],
  );
  return rows.length > 0 ? 'DISABLED' : null;
}

const typeOf = (row: Pick<WorkflowRow, 'data'>): WhitelistRequestType => (row.data as { type: WhitelistRequestType }).type;

export class WhitelistService {
  private readonly db: Queryable;
  private readonly ledger: WhitelistRelationSink;
  private readonly now: () => number;

  constructor(
    private readonly runner: WorkflowRunner,
    env: WhitelistEnvironment,
  ) {
    this.db = env.db;
    this.ledger = env.ledger;
    this.now = env.now;
  }

  /**
   * A new request. Refusals in this order: the user must act for clientCode (ACCOUNT_CLIENT_FORBIDDEN),
   * the partner must be another (WHITELIST_SELF) existing client (CLEARING_CLIENT_NOT_FOUND), then the
   * four rules. A DENY is approved at once, in the same transaction.
   */
  async request(body: WhitelistRequestBody, actor: WorkflowUser, idempotency?: IdempotencyInput): Promise<WorkflowInstance> {
    const { clientCode, partnerClientCode: partner, type } = body;
    if (!actsFor(actor, clientCode)) throw new ExchangeError(apiError('ACCOUNT_CLIENT_FORBIDDEN', { clientCode }));
    if (partner === clientCode) throw new ExchangeError(apiError('WHITELIST_SELF', { partner }));
    const known = await this.db.query<{ code: string }>('select code from clients where code = $1', [partner]);
    if (known.length === 0) throw new ExchangeError(apiError('CLEARING_CLIENT_NOT_FOUND', { clientCode: partner }));

    return this.runner.create('whitelist', { initiatorClient: clientCode, partnerClient: partner }, { type }, actor, {
      idempotency,
      // a DENY needs no consent: the system approves it in the creating transaction
      ...(type === 'DENY_TRADING' ? { followUp: { type: 'approveAtOnce' } } : {}),
      inTransaction: async (tx) => {
        // Serialises requests of this pair (PostgreSQL; PGlite runs one transaction at a time anyway).
        await tx.query('select code from clients where code = any($1::text[]) order by code for update', [[clientCode, partner]]);
        const relation = await relationOf(tx, clientCode, partner);
        const refusal = checkWhitelistRequest({
          type,
          partner,
          pendingRequests: await this.pendingBetween(tx, clientCode, partner),
          relation,
          latestApprovedType: await this.latestApprovedType(tx, clientCode, partner, relation),
        });
        if (refusal) throw new ExchangeError(refusal);
      },
      onDuplicate: (): ExchangeError => new ExchangeError<ErrorCode>(apiError('WHITELIST_PENDING_EXISTS', { partner })),
      afterCreate: async (tx, row) => {
        const status = relationAfter(type, row.status as 'PENDING' | 'APPROVED', type === 'DENY_TRADING' ? 'ACTIVE' : await relationOf(tx, clientCode, partner));
        await writeRelation(tx, this.ledger, clientCode, partner, status, row.id, row.updatedAt);
      },
    });
  }

  /** What the generic action route runs for a whitelist request: the relation follows the request's end. */
  sideEffects(action: string): WorkflowSideEffects {
    const ends: Record<string, 'APPROVED' | 'REJECTED' | 'CANCELLED'> = { approve: 'APPROVED', reject: 'REJECTED', cancel: 'CANCELLED' };
    const end = ends[action];
    if (!end) return {};
    return {
      apply: async (row, tx) => {
        const type = typeOf(row);
        const before = type === 'ALLOW_TRADING' ? await relationBeforeAllow(tx, row.initiatorClient, row.partnerClient, row.id) : 'ACTIVE';
        const status = relationAfter(type, end, before);
        await writeRelation(tx, this.ledger, row.initiatorClient, row.partnerClient, status, row.id, new Date(this.now()).toISOString());
      },
    };
  }

  /**
   * Relations with the partners' names. For one client: the users holding it (terminals included) and
   * the administrator; anyone else ACCOUNT_CLIENT_FORBIDDEN (an unknown client too, so codes cannot be
   * probed), the administrator CLEARING_CLIENT_NOT_FOUND for an unknown one. Without a client: those
   * of every client the user holds (the administrator: every relation), as the partners tab asks.
   */
  async partners(clientCode: string | undefined, actor: WorkflowUser): Promise<WhitelistRelation[]> {
    const administrator = actor.roles.includes('administrator');
    if (clientCode !== undefined) {
      if (!mayView(actor, { initiatorClient: clientCode, partnerClient: clientCode })) throw new ExchangeError(apiError('ACCOUNT_CLIENT_FORBIDDEN', { clientCode }));
      const known = await this.db.query<{ code: string }>('select code from clients where code = $1', [clientCode]);
      if (known.length === 0) throw new ExchangeError(apiError('CLEARING_CLIENT_NOT_FOUND', { clientCode }));
    }
    const clients = clientCode !== undefined ? [clientCode] : administrator ? null : [...actor.clientCodes];
    const rows = await this.db.query<RelationDbRow>(
      `select r.client_code, r.partner_code, c.name as partner_name, r.status, r.request_id, r.updated_at
         from whitelist_relations r left join clients c on c.code = r.partner_code
        where ($1::text[] is null or r.client_code = any($1::text[]))
        order by r.client_code, coalesce(c.name, r.partner_code), r.partner_code limit 1000`,
      [clients],
    );
    return rows.map((row) => ({
      clientCode: row.client_code,
      partnerClientCode: row.partner_code,
      partnerName: row.partner_name ?? row.partner_code,
      status: row.status,
      requestId: row.request_id,
      updatedAt: new Date(row.updated_at).toISOString(),
    }));
  }

  private async pendingBetween(tx: Queryable, a: string, b: string): Promise<number> {
    const rows = await tx.query<{ n: number | string }>(
      `select count(*) as n from workflow_instances where kind = 'whitelist' and status = 'PENDING'
         and ((initiator_client = $1 and partner_client = $2) or (initiator_client = $2 and partner_client = $1))`,
      [a, b],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * The type of the latest approved request of the pair. Requests of a pair follow one another (one
   * pending at a time; a DENY ends as it is made), so the latest approval is the latest change; two in
   * the same millisecond are told apart by the relation they left (ACTIVE: an ALLOW, DISABLED: a DENY).
   */
  private async latestApprovedType(tx: Queryable, a: string, b: string, relation: WhitelistRelationStatus | null): Promise<WhitelistRequestType | null> {
    const leftBy = relation === 'ACTIVE' ? 'ALLOW_TRADING' : relation === 'DISABLED' ? 'DENY_TRADING' : null;
    const rows = await tx.query<{ type: WhitelistRequestType }>(
      `select data->>'type' as type from workflow_instances where kind = 'whitelist' and status = 'APPROVED'
         and ((initiator_client = $1 and partner_client = $2) or (initiator_client = $2 and partner_client = $1))
       order by updated_at desc, created_at desc, (data->>'type' is not distinct from $3::text) desc, id desc limit 1`,
      [a, b, leftBy],
    );
    return rows[0]?.type ?? null;
  }

}
