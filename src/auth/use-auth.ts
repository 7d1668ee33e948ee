import type { UserInfo } from '../../protocol/auth.ts';
import { useSession } from './session.ts';

/**
 * The one hook views use for the signed-in state. Today it reads the session store of session.ts;
 * when machines/auth.machine.ts lands, this hook selects the same fields from the machine's snapshot
 * (useSelector) and the views do not change.
 */
export interface AuthState {
  signedIn: boolean;
  user: UserInfo | null;
  /** Epoch ms of the token's real expiry, null when signed out. */
  expiresAt: number | null;
}

export function useAuth(): AuthState {
  const session = useSession();
  return { signedIn: session !== null, user: session?.user ?? null, expiresAt: session?.expiresAt ?? null };
}

/** The signed-in user (pages behind the 'auth' middleware, whose sign-in middleware loaded it). */
export function useUser(): UserInfo | null {
  return useSession()?.user ?? null;
}
