import type { TokenPhase } from '../../machines/auth.machine.ts';
import type { UserInfo } from '../../protocol/auth.ts';
import { useSession } from './session.ts';

/** The one hook views use for the signed-in state, read from the auth machine through session.ts. */
export interface AuthState {
  /** True from sign-in to sign-out, also while an expired token waits to be renewed (the page stays). */
  signedIn: boolean;
  user: UserInfo | null;
  /** Epoch ms of the token's real expiry, null when signed out. */
  expiresAt: number | null;
  /** Where the token is in its life; null when signed out. */
  tokenPhase: TokenPhase | null;
  /** False once the token expired: views stop offering actions (order buttons disabled). */
  canAct: boolean;
}

export function useAuth(): AuthState {
  const session = useSession();
  const tokenPhase = session?.phase ?? null;
  return {
    signedIn: session !== null,
    user: session?.user ?? null,
    expiresAt: session?.expiresAt ?? null,
    tokenPhase,
    canAct: tokenPhase !== null && tokenPhase !== 'expired',
  };
}

/** The signed-in user (pages behind the 'auth' middleware, whose sign-in middleware loaded it). */
export function useUser(): UserInfo | null {
  return useSession()?.user ?? null;
}

/** Whether the session may act (place, change, cancel orders): false while the token is expired. */
export function useCanAct(): boolean {
  const phase = useSession()?.phase ?? null;
  return phase !== null && phase !== 'expired';
}
