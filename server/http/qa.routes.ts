import { readdir, readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiError, ExchangeError } from '../../protocol/error-codes.ts';
import { canReplay, recordingNameSchema, type RecordingList } from '../../protocol/qa.ts';
import { parseRecording } from '../../streams/recording.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { UserRecord } from '../store/users.repository.ts';
import { requireUser } from './auth.routes.ts';
import { parseWith } from './validation.ts';

export const recordingParamsSchema = z.strictObject({ name: recordingNameSchema });

/** fixtures/sessions/ of the repository; a function, so that importing the route catalogue in a browser test resolves no file URL. */
export const defaultSessionsDir = (): string => fileURLToPath(new URL('../../fixtures/sessions/', import.meta.url));

export interface QaRoutesOptions {
  auth: AuthService;
  /** Where the recordings are (default fixtures/sessions/). */
  sessionsDir?: string | undefined;
}

/**
 * The recorded sessions for the QA player (issue 16): GET /qa/recordings lists fixtures/sessions/*.jsonl
 * (name and size), GET /qa/recordings/:name answers one as JSON lines after checking it with the
 * shared parser (streams/recording.ts): a bad file is 422 RECORDING_INVALID {line, issue}. For the qa
 * role and the administrator; anyone else is 403 FORBIDDEN {scope: 'qa'}.
 */
export function qaRoutes(options: QaRoutesOptions) {
  const dir = options.sessionsDir ?? defaultSessionsDir();
  const requireReplay = (user: UserRecord): void => {
    if (!canReplay(user)) throw new ExchangeError(apiError('FORBIDDEN', { scope: 'qa' }));
  };

  return async function register(app: FastifyInstance): Promise<void> {
    app.get('/qa/recordings', async (request): Promise<RecordingList> => {
      requireReplay(await requireUser(options.auth, request));
      const names = (await readdir(dir).catch(() => [] as string[])).filter((file) => file.endsWith('.jsonl')).sort();
      const recordings = await Promise.all(
        names.map(async (file) => ({ name: file.slice(0, -'.jsonl'.length), sizeBytes: (await stat(`${dir}/${file}`)).size })),
      );
      return { recordings: recordings.filter((recording) => recordingNameSchema.safeParse(recording.name).success) };
    });

    app.get('/qa/recordings/:name', async (request, reply) => {
      requireReplay(await requireUser(options.auth, request));
      const { name } = parseWith(recordingParamsSchema, request.params);
      const text = await readFile(`${dir}/${name}.jsonl`, 'utf8').catch(() => null);
      if (text === null) throw new ExchangeError(apiError('NOT_FOUND', { path: `/qa/recordings/${name}` }));
      try {
        parseRecording(text);
      } catch (error) {
        const params = (error as { params?: { line?: number; issue?: string } }).params;
        throw new ExchangeError(apiError('RECORDING_INVALID', { line: params?.line ?? 0, issue: params?.issue ?? 'invalid' }));
      }
      reply.header('content-type', 'application/x-ndjson; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${name}.jsonl"`);
      return text;
    });
  };
}
