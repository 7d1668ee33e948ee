import type { Server } from 'node:http';
import { apiError, ExchangeError, parseDestination } from '../protocol/index.ts';
import type { AuthService } from './auth/auth-service.ts';
import { createStompGateway, type Principal, type StompGateway, type StompGatewayOptions } from './gateway/stomp-gateway.ts';
import type { Store } from './store/store.ts';
import type { CancelOnDisconnect } from './trading/cancel-on-disconnect.ts';

/** The `exp` of a token AuthService has verified, in ms (TokenClaims does not carry it). */
function tokenExpiresAt(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
  return typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
}

/**
 * The STOMP gateway on the HTTP server: CONNECT tokens are checked by the same AuthService as REST,
 * and a user sees the topics of the markets in its `marketIds` (asset topics through the asset's market).
 * A session ends when its token expires, on the server's clock (`now`, the one AuthService uses).
 * `cancelOnDisconnect`: its hooks run beside the caller's session hooks (the CONNECT header check,
 * then opened / closed after the caller's).
 */
export async function attachGateway(
  server: Server,
  auth: AuthService,
  store: Store,
  hooks: Pick<
    StompGatewayOptions,
    'onSubscribe' | 'onSend' | 'onSessionOpened' | 'onSessionClosed' | 'onRefused' | 'heartbeatMs' | 'now' | 'maxConnectionsPerUser' | 'maxSubscriptionsPerConnection' | 'maxSubscriptionsPerUser'
  > = {},
  cancelOnDisconnect?: CancelOnDisconnect,
): Promise<StompGateway> {
  const marketOfAsset = new Map((await store.reference.assets()).map((asset) => [asset.id, asset.marketId]));
  const sessionHooks: Pick<StompGatewayOptions, 'checkConnect' | 'onSessionOpened' | 'onSessionClosed'> = cancelOnDisconnect
    ? {
        checkConnect: cancelOnDisconnect.checkConnect,
        onSessionOpened(principal, sessionId, headers) {
          try {
            hooks.onSessionOpened?.(principal, sessionId, headers);
          } finally {
            cancelOnDisconnect.sessionOpened(principal, sessionId, headers);
          }
        },
        onSessionClosed(principal, sessionId, end) {
          try {
            hooks.onSessionClosed?.(principal, sessionId, end);
          } finally {
            cancelOnDisconnect.sessionClosed(principal, sessionId, end);
          }
        },
      }
    : {};
  return createStompGateway({
    server,
    path: '/session/ws',
    ...hooks,
    ...sessionHooks,
    async authenticate(token: string): Promise<Principal> {
      const { user } = await auth.authenticate(token);
      return {
        userId: user.id,
        username: user.username,
        roles: user.roles,
        clientCodes: user.clientCodes,
        marketIds: user.marketIds,
        expiresAt: tokenExpiresAt(token),
      };
    },
    authorize(principal, destination) {
      if (!('id' in destination)) return true;
      const marketId = destination.kind === 'marketWatch' || destination.kind === 'phase' ? destination.id : marketOfAsset.get(destination.id);
      return marketId !== undefined && principal.marketIds.includes(marketId);
    },
  });
}

type SendHook = NonNullable<StompGatewayOptions['onSend']>;

/**
 * The gateway's one onSend, routing each SEND by its application destination: chat messages
 * (/app/chat) and order entry (/app/orders). The gateway refuses any other destination before this.
 */
export function sendDispatcher(handlers: { chatSend: SendHook; orderEntry: SendHook }): SendHook {
  return (principal, destination, body, headers, session) => {
    const parsed = parseDestination(destination);
    if (parsed?.kind === 'orderEntry') return handlers.orderEntry(principal, destination, body, headers, session);
    if (parsed?.kind === 'chatSend') return handlers.chatSend(principal, destination, body, headers, session);
    throw new ExchangeError(apiError('STOMP_DESTINATION_FORBIDDEN', { destination }));
  };
}
