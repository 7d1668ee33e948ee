/** canTrade: who is offered Buy/Sell and the new-order ticket. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { canTrade, type TradingUser } from '../../machines/permissions.ts';

const broker: TradingUser = { roles: ['broker'], scopes: ['trading:read', 'trading:write'], clientCodes: ['RO-HIDRO'] };

describe('canTrade', () => {
  it('lets a user with a trading role, the write scope and a client trade', () => {
    expect(canTrade(broker)).toBe(true);
    for (const role of ['client', 'agency', 'assetOwner', 'transmissionPartner']) expect(canTrade({ ...broker, roles: [role] }), role).toBe(true);
  });

  it('refuses the administrator and the terminal, whatever their scopes', () => {
    expect(canTrade({ roles: ['administrator'], scopes: ['admin', 'trading:read', 'trading:write'], clientCodes: ['RO-HIDRO'] })).toBe(false);
    expect(canTrade({ roles: ['terminal'], scopes: ['trading:read', 'trading:write'], clientCodes: ['RO-GAZEST'] })).toBe(false);
  });

  it('needs the write scope and a client to act for', () => {
    expect(canTrade({ ...broker, scopes: ['trading:read'] })).toBe(false);
    expect(canTrade({ ...broker, clientCodes: [] })).toBe(false);
    expect(canTrade(null)).toBe(false);
    expect(canTrade(undefined)).toBe(false);
  });

  it('an administrator who is also a broker trades as the broker', () => {
    expect(canTrade({ ...broker, roles: ['administrator', 'broker'] })).toBe(true);
  });

  it('decides the demo users as the README describes them', () => {
    const file = fileURLToPath(new URL('../../fixtures/demo/users.json', import.meta.url));
    const users = (JSON.parse(readFileSync(file, 'utf8')) as { users: Array<TradingUser & { username: string }> }).users;
    const traders = users.filter(canTrade).map((user) => user.username);
    expect(traders).toEqual(expect.arrayContaining(['broker1', 'broker2', 'agency1', 'client1', 'owner1']));
    expect(traders).not.toContain('admin');
    expect(traders).not.toContain('terminal1');
  });
});
