import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  marginActivationRequestSchema,
  otcDealDraftSchema,
  transferRequestSchema,
  workflowActionRequestSchema,
  workflowListQuerySchema,
  workflowRoutes,
  type WorkflowList,
} from '../../protocol/workflows.ts';
import type { AuthService } from '../auth/auth-service.ts';
import { requestHash, workflowActorOf, type IdempotencyInput } from '../workflows/workflow-runner.ts';
import type { WorkflowService } from '../workflows/workflow-service.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

export interface WorkflowRoutesOptions {
  auth: AuthService;
  workflows: WorkflowService;
}

export const instanceParams = z.strictObject({ instanceId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
export const idempotencyKeySchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/);

/** The Idempotency-Key of a POST, bound to its path and body; absent: none. */
function idempotencyOf(request: FastifyRequest, body: unknown): IdempotencyInput | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const key = parseWith(z.strictObject({ key: idempotencyKeySchema }), { key: Array.isArray(header) ? header[0] : header }).key;
  return { key, bodyHash: requestHash(request.url.split('?')[0]!, body) };
}

/**
 * The workflow routes (protocol/workflows.ts workflowRoutes) but the contract file and whitelist ones
 * (their own route file): the list (participants see their instances, the administrator all), one
 * instance, a user's action, and the requests that start an OTC deal, a transfer and a margin
 * activation, with the OTC exposure simulator. Every POST takes an Idempotency-Key.
 */
export function workflowsRoutes({ auth, workflows }: WorkflowRoutesOptions) {
  const actor = async (request: FastifyRequest) => workflowActorOf(await requireUser(auth, request));

  return async function register(app: FastifyInstance): Promise<void> {
    app.get(workflowRoutes.list, async (request): Promise<WorkflowList> => {
      const user = await actor(request);
      const query = parseWith(workflowListQuerySchema, request.query);
      return { instances: await workflows.runner.repository.list(workflows.runner.db, query, user) };
    });

    app.post(workflowRoutes.otcSimulation, async (request) => {
      const user = await actor(request);
      return workflows.otc.simulate(parseWith(otcDealDraftSchema, request.body), user);
    });

    app.post(workflowRoutes.otc, async (request, reply) => {
      const user = await actor(request);
      const draft = parseWith(otcDealDraftSchema, request.body);
      return reply.code(201).send(await workflows.otc.register(draft, user, idempotencyOf(request, draft)));
    });

    app.post(workflowRoutes.transfer, async (request, reply) => {
      const user = await actor(request);
      const body = parseWith(transferRequestSchema, request.body);
      return reply.code(201).send(await workflows.transfers.request(body, user, idempotencyOf(request, body)));
    });

    app.post(workflowRoutes.marginActivation, async (request, reply) => {
      const user = await actor(request);
      const body = parseWith(marginActivationRequestSchema, request.body);
      return reply.code(201).send(await workflows.marginActivations.request(body, user, idempotencyOf(request, body)));
    });

    app.get(workflowRoutes.instance(':instanceId'), async (request) => {
      const user = await actor(request);
      const { instanceId } = parseWith(instanceParams, request.params);
      return workflows.runner.get(instanceId, user);
    });

    app.post(workflowRoutes.action(':instanceId'), async (request) => {
      const user = await actor(request);
      const { instanceId } = parseWith(instanceParams, request.params);
      const body = parseWith(workflowActionRequestSchema, request.body);
      return workflows.act(instanceId, body, user, idempotencyOf(request, body));
    });
  };
}
