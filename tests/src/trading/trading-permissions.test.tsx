// @vitest-environment jsdom
/** Roles that cannot trade see no Buy/Sell, get no ticket from B/S, and the book offers no level click (machines/permissions.ts canTrade). */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../../protocol/auth.ts';
import { AssetShortcuts, BuySellButtons } from '../../../src/trading/AssetTrading.tsx';
import { TradingDeskProvider, useTradingDesk } from '../../../src/trading/TradingDesk.tsx';
import { WithIntl } from '../components/intl.tsx';
import { asset } from './fixtures.ts';

let currentUser: UserInfo | null = null;
vi.mock('../../../src/auth/use-auth.ts', () => ({
  useUser: () => currentUser,
  useCanAct: () => currentUser !== null,
}));
vi.mock('../../../src/realtime/RealtimeProvider.tsx', () => ({ useRealtime: () => null }));

function user(roles: UserInfo['roles'], scopes: string[], clientCodes: string[]): UserInfo {
  return {
    userId: 'u1',
    username: roles.join('-'),
    name: 'Someone',
    roles,
    scopes,
    broker: null,
    agency: null,
    terminal: null,
    clientCodes,
    marketIds: ['GAS-SPOT'],
    passwordExpiresAt: '2027-01-01T00:00:00.000Z',
    preferences: { language: 'en', theme: 'light', notifications: true, soundNotifications: false },
  };
}

const admin = user(['administrator'], ['admin', 'trading:read', 'workflows:approve'], []);
const terminal = user(['terminal'], ['trading:read'], ['RO-GAZEST']);
const broker = user(['broker'], ['trading:read', 'trading:write'], ['RO-HIDRO', 'RO-GAZEST']);

/** Opens a ticket the way every other entry point does (book level, market watch B/S): through the desk. */
function OpenFromElsewhere() {
  const desk = useTradingDesk();
  return (
    <button type="button" data-testid="elsewhere" onClick={() => desk.openTicket({ mode: 'add', asset, defaults: { way: 'bid' } })}>
      {desk.canTrade ? 'can trade' : 'cannot trade'}
    </button>
  );
}

function renderDesk() {
  return render(
    <WithIntl>
      <TradingDeskProvider>
        <BuySellButtons asset={asset} />
        <AssetShortcuts asset={asset} />
        <OpenFromElsewhere />
      </TradingDeskProvider>
    </WithIntl>,
  );
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  currentUser = null;
});

describe('who is offered Buy/Sell', () => {
  for (const [name, who] of [
    ['the administrator', admin],
    ['a terminal', terminal],
  ] as const) {
    it(`${name} sees no Buy/Sell and gets no ticket from B, S or any other entry point`, () => {
      currentUser = who;
      renderDesk();
      expect(screen.queryByRole('button', { name: 'Buy (B)' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Sell (S)' })).toBeNull();
      expect(screen.getByTestId('elsewhere').textContent).toBe('cannot trade');
      fireEvent.keyDown(window, { key: 'b' });
      fireEvent.keyDown(window, { key: 's' });
      fireEvent.click(screen.getByTestId('elsewhere'));
      expect(screen.queryByRole('dialog')).toBeNull();
    });
  }

  it('a broker sees Buy and Sell, and Buy opens a ticket with the broker\'s clients', async () => {
    currentUser = broker;
    renderDesk();
    expect(screen.getByRole('button', { name: 'Sell (S)' })).toBeTruthy();
    expect(screen.getByTestId('elsewhere').textContent).toBe('can trade');
    fireEvent.click(screen.getByRole('button', { name: 'Buy (B)' }));
    const dialog = await screen.findByRole('dialog');
    const options = within(within(dialog).getByLabelText('Client code')).getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(['Choose…', 'RO-HIDRO', 'RO-GAZEST']);
  });
});
