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

const idParamsSchema = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/) });

/**
 * Personal workspaces (SPEC §2, §3), stored on the server so they follow the user to another browser:
 * GET/POST /workspaces, PUT/DELETE /workspaces/:id. Every failure carries the SPEC's workspace code
 * (load, save, edit, delete); a workspace of another user is answered as if it did not exist.
 */
export function workspacesRoutes(options: { auth: AuthService; store: Store }) {
  const repository = new WorkspacesRepository(options.store.db);
  const { auth, store } = options;

  /** The market must be one the user sees, and the assets and rings must belong to it. */
  async function checkInput(user: UserRecord, body: unknown, failure: 'WORKSPACE_SAVE_FAILED' | 'WORKSPACE_EDIT_FAILED'): Promise<WorkspaceInput> {
    const fail = (): Error =>
      failure === 'WORKSPACE_SAVE_FAILED' ? new ExchangeError(apiError('WORKSPACE_SAVE_FAILED')) : new ExchangeError(apiError('WORKSPACE_EDIT_FAILED'));
    const parsed = workspaceInputSchema.safeParse(body ?? {});
    if (!parsed.success) throw fail();
    const input = parsed.data;
    if (!user.marketIds.includes(input.marketId)) throw fail();
    const [assets, rings] = await Promise.all([store.reference.assets(), store.reference.rings()]);
    const marketAssets = new Set(assets.filter((asset) => asset.marketId === input.marketId).map((asset) => asset.id));
    const marketRings = new Set(rings.filter((ring) => ring.marketId === input.marketId).map((ring) => ring.id));
    if (!input.assetIds.every((id) => marketAssets.has(id)) || !input.ringIds.every((id) => marketRings.has(id))) {
      throw fail();
    }
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
      const input = await checkInput(user, request.body, 'WORKSPACE_SAVE_FAILED');
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
      const input = await checkInput(user, request.body, 'WORKSPACE_EDIT_FAILED');
      const workspace = await repository.update(user.id, id, input).catch(() => null);
      if (!workspace) throw new ExchangeError(apiError('WORKSPACE_EDIT_FAILED'));
      return { workspace };
    });

    app.delete('/workspaces/:id', async (request, reply) => {
      const user = await requireUser(auth, request);
      const { id } = parseWith(idParamsSchema, request.params);
      const deleted = await repository.delete(user.id, id).catch(() => false);
      if (!deleted) throw new ExchangeError(apiError('WORKSPACE_DELETE_FAILED'));
      return reply.status(204).send();
    });
  };
}
