/**
 * Who may trade: the one decision the views ask before offering Buy/Sell, a level click, the B/S
 * shortcuts or a new-order ticket.
 *
 * A user trades when they hold the `trading:write` scope, a role that places orders, and at least one
 * client to place them for (the ticket's client list). The administrator is the operator: the server
 * lets it act on orders for oversight, but placing orders is not its job, so it is offered none. A
 * terminal is a read-only desk (no `trading:write`, docs/trading-account.md).
 */
import type { Role } from '../protocol/enums.ts';

export const TRADING_WRITE_SCOPE = 'trading:write';

/** The roles that place orders for clients (SPEC §6). Administrator and terminal are not among them. */
export const tradingRoles: readonly Role[] = ['client', 'broker', 'agency', 'assetOwner', 'transmissionPartner'];

/** What the decision needs of the signed-in user (protocol's UserInfo has it). */
export interface TradingUser {
  roles: readonly string[];
  scopes: readonly string[];
  clientCodes: readonly string[];
}

export function canTrade(user: TradingUser | null | undefined): boolean {
  if (!user) return false;
  if (!user.scopes.includes(TRADING_WRITE_SCOPE)) return false;
  if (!user.roles.some((role) => (tradingRoles as readonly string[]).includes(role))) return false;
  return user.clientCodes.length > 0;
}
