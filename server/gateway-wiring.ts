import type { Server } from 'node:http';
import type { AuthService } from './auth/auth-service.ts';
import { createStompGateway, type Principal, type StompGateway, type StompGatewayOptions } from './gateway/stomp-gateway.ts';
import type { Store } from './store/store.ts';

/** The `exp` of a token AuthService has verified, in ms (TokenClaims does not carry it). */
function tokenExpiresAt(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
  return typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
}

/**
 * The STOMP gateway on the HTTP server: CONNECT tokens are checked by the same AuthService as REST,
 * and a user sees the topics of the markets in its `marketIds` (asset topics through the asset's market).
 * A session ends when its token expires, on the server's clock (`now`, the one AuthService uses).
 */
export async function attachGateway(
  server: Server,
  auth: AuthService,
  store: Store,
  hooks: Pick<
    StompGatewayOptions,
    'onSubscribe' | 'onSend' | 'onSessionOpened' | 'onSessionClosed' | 'heartbeatMs' | 'now' | 'maxConnectionsPerUser' | 'maxSubscriptionsPerConnection' | 'maxSubscriptionsPerUser'
  > = {},
): Promise<StompGateway> {
  const marketOfAsset = new Map((await store.reference.assets()).map((asset) => [asset.id, asset.marketId]));
  return createStompGateway({
    server,
    path: '/session/ws',
    ...hooks,
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
