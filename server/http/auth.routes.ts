import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  changePasswordRequestSchema,
  loginRequestSchema,
  preferencesSchema,
  resetExpiredPasswordRequestSchema,
} from '../../protocol/index.ts';
import type { AuthService } from '../auth/auth-service.ts';
import { bearerToken } from '../auth/tokens.ts';
import type { UserRecord } from '../store/users.repository.ts';
import { parseWith } from './validation.ts';

declare module 'fastify' {
  interface FastifyRequest {
    user?: UserRecord;
  }
}

/** Resolves the bearer token to the signed-in user, or throws AUTH_TOKEN_* . */
export async function requireUser(auth: AuthService, request: FastifyRequest): Promise<UserRecord> {
  const { user } = await auth.authenticate(bearerToken(request.headers.authorization));
  request.user = user;
  return user;
}

export function authRoutes(auth: AuthService) {
  return async function register(app: FastifyInstance): Promise<void> {
    app.post('/login', async (request) => auth.login(parseWith(loginRequestSchema, request.body), request.ip));

    app.post('/password/reset-expired', async (request) =>
      auth.resetExpiredPassword(parseWith(resetExpiredPasswordRequestSchema, request.body), request.ip),
    );

    app.get('/user/info', async (request) => auth.userInfo(await requireUser(auth, request)));

    // Answers with a fresh token: the change revokes every earlier one, this session's too.
    app.post('/user/password', async (request) => {
      const user = await requireUser(auth, request);
      return auth.changePassword(user.id, parseWith(changePasswordRequestSchema, request.body), request.ip);
    });

    app.put('/user/preferences', async (request) => {
      const user = await requireUser(auth, request);
      const preferences = parseWith(preferencesSchema, request.body);
      await auth.setPreferences(user.id, preferences);
      return preferences;
    });

    app.get('/user/login-history', async (request) => {
      const user = await requireUser(auth, request);
      return { items: await auth.loginHistory(user.id) };
    });
  };
}
