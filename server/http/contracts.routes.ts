import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiError, ExchangeError } from '../../protocol/index.ts';
import { workflowRoutes } from '../../protocol/workflows.ts';
import type { AuthService } from '../auth/auth-service.ts';
import { checkDeclaredLength, contentDispositionFor, isMultipartFormData, mediaTypeOf, readContractUpload } from '../workflows/contract-files.ts';
import type { ContractService } from '../workflows/contracts.ts';
import { workflowActorOf } from '../workflows/workflow-runner.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

export const instanceParamsSchema = z.strictObject({ instanceId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
/** As workflows.routes.ts reads it. */
const idempotencyKeySchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/);

/**
 * Transaction contracts (docs/workflows.md): POST the PDF as multipart/form-data
 * (fields transactionId and file), GET it back as a download. Accept, approve and reject go through the
 * generic action route (workflows.routes.ts); the list is GET /workflows?kind=contract&from=&to=.
 *
 * The multipart parser is registered in this plugin only: every other route keeps refusing a body
 * that is not JSON with REQUEST_UNSUPPORTED_MEDIA_TYPE.
 */
export function contractsRoutes(options: { auth: AuthService; contracts: ContractService }) {
  const { auth, contracts } = options;
  return async function register(app: FastifyInstance): Promise<void> {
    await app.register(fastifyMultipart);

    app.post(
      workflowRoutes.contract,
      {
        // Before a byte of the body is read: who asks, whether it is a form at all, and whether its
        // declared length can hold a contract.
        onRequest: async (request, reply) => {
          await requireUser(auth, request);
          const contentType = request.headers['content-type'];
          if (!isMultipartFormData(contentType)) throw new ExchangeError(apiError('CONTRACT_NOT_MULTIPART', { contentType: mediaTypeOf(contentType) }));
          try {
            checkDeclaredLength(request.headers['content-length']);
          } catch (error) {
            // The body is not read: the connection closes after the answer instead.
            reply.header('connection', 'close');
            throw error;
          }
        },
      },
      async (request, reply) => {
        const user = request.user ?? (await requireUser(auth, request));
        const key = request.headers['idempotency-key'];
        const idempotencyKey = key === undefined ? undefined : parseWith(z.strictObject({ key: idempotencyKeySchema }), { key: Array.isArray(key) ? key[0] : key }).key;
        let upload;
        try {
          upload = await readContractUpload(request);
        } catch (error) {
          // Refused mid-body (too large): the rest is not read, the connection closes after the answer.
          if ((error as { code?: unknown }).code === 'CONTRACT_TOO_LARGE') reply.header('connection', 'close');
          throw error;
        }
        return reply.code(201).send(await contracts.upload(upload, workflowActorOf(user), idempotencyKey));
      },
    );

    app.get(workflowRoutes.contractPdf(':instanceId'), async (request, reply) => {
      const user = await requireUser(auth, request);
      const { instanceId } = parseWith(instanceParamsSchema, request.params);
      const file = await contracts.file(instanceId, workflowActorOf(user));
      return reply.type('application/pdf').header('content-disposition', contentDispositionFor(file.fileName)).send(file.content);
    });
  };
}
