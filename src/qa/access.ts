/**
 * The `qa` route middleware: /qa/replay is for the qa role and the administrator (protocol/qa.ts).
 * Anyone else signed in gets the error page's 403 with its message, as a forbidden page does.
 */
import { canReplay } from '../../protocol/qa.ts';
import { registerMiddleware, RouteError } from '../app/middleware.ts';
import { ensureUser } from '../auth/sign-in.ts';

export async function requireReplayRight(): Promise<void> {
  const user = await ensureUser();
  if (!canReplay(user)) throw new RouteError(403, 'qa.forbidden');
}

registerMiddleware('qa', requireReplayRight);
