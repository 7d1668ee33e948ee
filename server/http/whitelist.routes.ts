import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { whitelistRequestSchema, workflowRoutes } from '../../protocol/workflows.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { WhitelistService } from '../workflows/whitelist.ts';
import { requestHash, workflowActorOf } from '../workflows/workflow-runner.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

/** Without clientCode: the relations of every client of the user. */
export const partnersQuerySchema = z.strictObject({ clientCode: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/).optional() });
/** As workflows.routes.ts reads it. */
const idempotencyKeySchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/);

/**
 * Whitelist requests and partners (docs/workflows.md): POST a request (ALLOW_TRADING
 * or DENY_TRADING to a partner), GET the relations of a client. Approve, reject and cancel go through the
 * generic action route (workflows.routes.ts); the requests list is GET /workflows?kind=whitelist.
 */
export function whitelistRoutes(options: { auth: AuthService; whitelist: WhitelistService }) {
  const { auth, whitelist } = options;
  return async function register(app: FastifyInstance): Promise<void> {
    app.post(workflowRoutes.whitelist, async (request, reply) => {
      const user = await requireUser(auth, request);
      const body = parseWith(whitelistRequestSchema, request.body);
      const key = request.headers['idempotency-key'];
      const idempotency =
        key === undefined ? undefined : { key: parseWith(z.strictObject({ key: idempotencyKeySchema }), { key: Array.isArray(key) ? key[0] : key }).key, bodyHash: requestHash(workflowRoutes.whitelist, body) };
      return reply.code(201).send(await whitelist.request(body, workflowActorOf(user), idempotency));
    });

    app.get(workflowRoutes.whitelistPartners, async (request) => {
      const user = await requireUser(auth, request);
      const { clientCode } = parseWith(partnersQuerySchema, request.query);
      return { relations: await whitelist.partners(clientCode, workflowActorOf(user)) };
    });
  };
}
