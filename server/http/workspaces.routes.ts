import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiError, ExchangeError } from '../../protocol/index.ts';
import { workspaceInputSchema, type WorkspaceInput } from '../../protocol/workspaces.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { Store } from '../store/store.ts';
import type { UserRecord } from '../store/users.repository.ts';
import { WorkspacesRepository } from '../store/workspaces.repository.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

export const idParamsSchema = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/) });

/**
 * Personal workspaces (SPEC §2, §3), stored on the server so they follow the user to another browser:
 * GET/POST /workspaces, PUT/DELETE /workspaces/:id. A body the rules refuse is 400 WORKSPACE_INVALID
 * naming the field, an unknown id (or another user's workspace, answered as if it did not exist) 404
 * WORKSPACE_NOT_FOUND; the SPEC's load, save, edit and delete codes (500) are left for the store failing.
 */
export function workspacesRoutes(options: { auth: AuthService; store: Store }) {
  const repository = new WorkspacesRepository(options.store.db);
  const { auth, store } = options;

  /** The market must be one the user sees, and the assets and rings must belong to it. */
  async function checkInput(user: UserRecord, body: unknown): Promise<WorkspaceInput> {
    const invalid = (field: 'body' | 'marketId' | 'assetIds' | 'ringIds'): Error => new ExchangeError(apiError('WORKSPACE_INVALID', { field }));
    const parsed = workspaceInputSchema.safeParse(body ?? {});
    if (!parsed.success) throw invalid('body');
    const input = parsed.data;
    if (!user.marketIds.includes(input.marketId)) throw invalid('marketId');
    const [assets, rings] = await Promise.all([store.reference.assets(), store.reference.rings()]);
    const marketAssets = new Set(assets.filter((asset) => asset.marketId === input.marketId).map((asset) => asset.id));
    const marketRings = new Set(rings.filter((ring) => ring.marketId === input.marketId).map((ring) => ring.id));
    if (!input.assetIds.every((id) => marketAssets.has(id))) throw invalid('assetIds');
    if (!input.ringIds.every((id) => marketRings.has(id))) throw invalid('ringIds');
    return { ...input, assetIds: [...new Set(input.assetIds)], ringIds: [...new Set(input.ringIds)] };
  }

  return async function register(app: FastifyInstance): Promise<void> {
    app.get('/workspaces', async (request) => {
      const user = await requireUser(auth, request);
      try {
        return { workspaces: await repository.list(user.id) };
      } catch {
        throw new ExchangeError(apiError('WORKSPACE_LOAD_FAILED'));
      }
    });

    app.post('/workspaces', async (request, reply) => {
      const user = await requireUser(auth, request);
      const input = await checkInput(user, request.body);
      try {
        const workspace = await repository.create(user.id, input);
        reply.code(201);
        return { workspace };
      } catch {
        throw new ExchangeError(apiError('WORKSPACE_SAVE_FAILED'));
      }
    });

    app.put('/workspaces/:id', async (request) => {
      const user = await requireUser(auth, request);
      const { id } = parseWith(idParamsSchema, request.params);
      const input = await checkInput(user, request.body);
      const workspace = await repository.update(user.id, id, input).catch(() => {
        throw new ExchangeError(apiError('WORKSPACE_EDIT_FAILED'));
      });
      if (!workspace) throw new ExchangeError(apiError('WORKSPACE_NOT_FOUND'));
      return { workspace };
    });

    app.delete('/workspaces/:id', async (request, reply) => {
      const user = await requireUser(auth, request);
      const { id } = parseWith(idParamsSchema, request.params);
      const deleted = await repository.delete(user.id, id).catch(() => {
        throw new ExchangeError(apiError('WORKSPACE_DELETE_FAILED'));
      });
      if (!deleted) throw new ExchangeError(apiError('WORKSPACE_NOT_FOUND'));
      return reply.status(204).send();
    });
  };
}
