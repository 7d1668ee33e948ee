import { randomUUID } from 'node:crypto';
import type { Workspace, WorkspaceInput } from '../../protocol/workspaces.ts';
import type { Database } from './database.ts';

interface WorkspaceRow {
  id: string;
  name: string;
  type: string;
  market_id: string;
  asset_ids: string;
  ring_ids: string;
}

function toWorkspace(row: WorkspaceRow): Workspace {
  return {
    id: row.id,
    name: row.name,
    type: row.type as Workspace['type'],
    marketId: row.market_id,
    assetIds: JSON.parse(row.asset_ids) as string[],
    ringIds: JSON.parse(row.ring_ids) as string[],
  };
}

/** Personal workspaces, each visible to its own user only. */
export class WorkspacesRepository {
  constructor(private readonly db: Database) {}

  async list(userId: string): Promise<Workspace[]> {
    const rows = await this.db.query<WorkspaceRow>(
      'select id, name, type, market_id, asset_ids, ring_ids from workspaces where user_id = $1 order by created_at, id',
      [userId],
    );
    return rows.map(toWorkspace);
  }

  async create(userId: string, input: WorkspaceInput): Promise<Workspace> {
    const id = `ws-${randomUUID()}`;
    await this.db.query(
      'insert into workspaces (id, user_id, name, type, market_id, asset_ids, ring_ids) values ($1, $2, $3, $4, $5, $6, $7)',
      [id, userId, input.name, input.type, input.marketId, JSON.stringify(input.assetIds), JSON.stringify(input.ringIds)],
    );
    return { id, ...input };
  }

  /** Null when the user has no workspace with this id. */
  async update(userId: string, id: string, input: WorkspaceInput): Promise<Workspace | null> {
    const rows = await this.db.query<{ id: string }>(
      'update workspaces set name = $3, type = $4, market_id = $5, asset_ids = $6, ring_ids = $7, updated_at = now() where id = $1 and user_id = $2 returning id',
      [id, userId, input.name, input.type, input.marketId, JSON.stringify(input.assetIds), JSON.stringify(input.ringIds)],
    );
    return rows.length > 0 ? { id, ...input } : null;
  }

  /** False when the user has no workspace with this id. */
  async delete(userId: string, id: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>('delete from workspaces where id = $1 and user_id = $2 returning id', [id, userId]);
    return rows.length > 0;
  }
}
