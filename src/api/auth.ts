import {
  loginResponseSchema,
  userInfoSchema,
  type LoginRequest,
  type LoginResponse,
  type UserInfo,
} from '../../protocol/auth.ts';
import { requestJson } from './http.ts';

/** POST /login: credentials plus verification code -> bearer token (SPEC §7). */
export function login(credentials: LoginRequest, signal?: AbortSignal): Promise<LoginResponse> {
  return requestJson('/login', (body) => loginResponseSchema.safeParse(body).data ?? null, {
    method: 'POST',
    body: credentials,
    ...(signal ? { signal } : {}),
  });
}

/** GET /user/info with the bearer token. */
export function fetchUserInfo(token: string, signal?: AbortSignal): Promise<UserInfo> {
  return requestJson('/user/info', (body) => userInfoSchema.safeParse(body).data ?? null, {
    token,
    ...(signal ? { signal } : {}),
  });
}
