// @vitest-environment jsdom
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src/app/App.tsx';
import { RouteError } from '../../../src/app/middleware.ts';
import { createAppRouter } from '../../../src/app/router.tsx';
import { clearReferenceCache } from '../../../src/api/reference.ts';
import { endSession, startSession } from '../../../src/auth/session.ts';
import { DialogProvider } from '../../../src/components/dialogs/DialogProvider.tsx';
import { ErrorPage } from '../../../src/pages/ErrorPage.tsx';
import { listedAccountTabs } from '../../../src/pages/my-account/tabs.ts';
import { WithIntl } from '../components/intl.tsx';

function json(status: number, body: unknown): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const user = {
  userId: 'u-1',
  username: 'ipopescu',
  name: 'Ion Popescu',
  roles: ['broker'],
  scopes: [],
  broker: { id: 'b-1', name: 'Broker Energie SA' },
  agency: { id: 'a-1', name: 'Agenția Nord' },
  terminal: null,
  clientCodes: ['RO-1'],
  marketIds: ['GAS-FWD'],
  passwordExpiresAt: new Date(Date.now() + 5 * 24 * 3600 * 1000).toISOString(),
  preferences: { language: 'en', theme: 'light', notifications: true, soundNotifications: false },
};
const market = { id: 'GAS-FWD', name: 'Gas forward', names: { ro: 'Gaze naturale la termen', en: 'Gas forward' }, commodity: 'gas', kind: 'forward', workspaceType: 'gas', currency: 'RON' };
const asset = {
  id: 'GFWD-M-2027-01',
  marketId: 'GAS-FWD',
  ringId: null,
  code: 'GFWD-M-2027-01',
  name: 'Gas January 2027',
  names: { ro: 'Gaze ianuarie 2027', en: 'Gas January 2027' },
  type: 'month',
  unit: 'MWh',
  currency: 'RON',
  priceDecimals: 2,
  quantityDecimals: 1,
  priceStep: 1,
  quantityStep: 10,
  minQuantity: 10,
  maxQuantity: 100000,
  minPrice: 1,
  maxPrice: 500000,
  deliveryStart: '2027-01-01',
  deliveryEnd: '2027-01-31',
  tradingStart: '2026-11-01',
  tradingEnd: '2026-12-30',
  documents: [],
  marginBps: 1000,
};
const history = [
  { id: 'h1', ip: '10.0.0.1', timestamp: '2026-01-15T22:30:00.000Z' },
  { id: 'h2', ip: '10.0.0.2', timestamp: '2026-03-01T08:00:00.000Z' },
];

let fetchMock: ReturnType<typeof vi.fn>;

function api(url: string, init?: RequestInit): Response {
  if (url === '/session/api/user/info') return json(200, user);
  if (url === '/session/api/markets') return json(200, { markets: [market], rings: [] });
  if (url === '/session/api/assets') return json(200, { assets: [asset] });
  if (url === '/session/api/orders/mine') return json(200, { items: [], seq: 0 });
  if (url === '/session/api/user/login-history') return json(200, { items: history });
  if (url === '/session/api/user/preferences') return json(200, JSON.parse(String(init?.body)));
  if (url === '/session/api/user/password') return json(422, { error: { code: 'AUTH_PASSWORD_USED_BEFORE', params: {} } });
  return json(404, { error: { code: 'NOT_FOUND', params: { path: url } } });
}

async function signedInAt(path: string) {
  startSession('tok', new Date(Date.now() + 1_800_000).toISOString());
  const router = createAppRouter({ history: createMemoryHistory({ initialEntries: [path] }) });
  render(<App router={router} realtime={false} />);
  return router;
}

beforeEach(() => {
  endSession();
  sessionStorage.clear();
  clearReferenceCache();
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => api(url, init));
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  endSession();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('routes with parameters', () => {
  it('opens an asset resolved from GET /assets, with its market', async () => {
    await signedInAt('/session/en/trading/market/GAS-FWD/assets/GFWD-M-2027-01');
    expect(await screen.findByRole('heading', { name: 'Gas January 2027' })).toBeTruthy();
    expect(screen.getAllByText('Gas forward').length).toBeGreaterThan(0);
    expect(screen.getByText('1 Jan 2027 – 31 Jan 2027')).toBeTruthy();
  });

  it('accepts the asset route without its optional market', async () => {
    await signedInAt('/session/en/trading/market/assets/GFWD-M-2027-01');
    expect(await screen.findByRole('heading', { name: 'Gas January 2027' })).toBeTruthy();
  });

  it('gives 404 for a parameter that fails validation, before asking the server', async () => {
    await signedInAt('/session/en/trading/market/GAS-FWD/assets/bad%20id!');
    expect(await screen.findByText('This page could not be found')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain('/session/api/assets');
  });

  it('gives 404 for an asset the server does not have, or one of another market', async () => {
    await signedInAt('/session/en/trading/market/GAS-FWD/assets/NOPE');
    expect(await screen.findByText('This page could not be found')).toBeTruthy();
    cleanup();
    await signedInAt('/session/en/trading/market/EL-SPOT/assets/GFWD-M-2027-01');
    expect(await screen.findByText('This page could not be found')).toBeTruthy();
  });

  it('gives 404 for an unknown market and for an unknown account tab', async () => {
    await signedInAt('/session/trading/market/NOPE/account');
    expect(await screen.findByText('Această pagină nu a putut fi găsită')).toBeTruthy();
    cleanup();
    await signedInAt('/session/en/my-account/no-such-tab');
    expect(await screen.findByText('This page could not be found')).toBeTruthy();
  });
});

describe('my account', () => {
  it('gives every tab its own URL and marks the open one', async () => {
    const router = await signedInAt('/session/en/my-account');
    const nav = await screen.findByRole('navigation', { name: 'Account sections' });
    // Every tab but the administrator's approval queues (this user is a broker).
    expect(within(nav).getAllByRole('link')).toHaveLength(listedAccountTabs(false).length);
    expect(within(nav).queryByRole('link', { name: 'Approvals' })).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Profile' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(within(nav).getByRole('link', { name: 'OTC transactions' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/en/my-account/otc-transactions'));
    expect(await screen.findByRole('heading', { name: 'OTC transactions' })).toBeTruthy();
    expect(await screen.findByRole('table', { name: 'OTC transactions' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'OTC transactions' }).getAttribute('aria-current')).toBe('page');
    // The clearing tabs are no placeholders: Warranties opens its table.
    fireEvent.click(within(nav).getByRole('link', { name: 'Warranties' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/en/my-account/warranties'));
    expect(await screen.findByRole('table', { name: 'Warranties' })).toBeTruthy();
    expect(screen.queryByText(/coming with its feature/)).toBeNull();
  });

  it('shows the profile with the password-expires-soon warning', async () => {
    await signedInAt('/session/en/my-account');
    expect(await screen.findByText('Broker Energie SA')).toBeTruthy();
    expect(screen.getAllByText('Password expires in 5 days').length).toBeGreaterThan(0);
  });

  it('lists the login history in UTC, newest first', async () => {
    await signedInAt('/session/en/my-account/login-history');
    const table = await screen.findByRole('table', { name: 'Login history' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    const cells = within(table).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells[0]).toBe('1 Mar 2026, 08:00:00 UTC');
    expect(cells[2]).toBe('15 Jan 2026, 22:30:00 UTC');
    expect(screen.getByText('1-2 of 2')).toBeTruthy();
  });

  it('checks a new password before asking the server, then shows the server’s refusal', async () => {
    await signedInAt('/session/en/my-account');
    await screen.findByRole('heading', { name: 'Change password' });
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Old#Pass1' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText('Confirm the new password'), { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Invalid password!')).toBeTruthy();
    expect(screen.getByText('The passwords are not matching!')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain('/session/api/user/password');

    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'New#Pass12' } });
    fireEvent.change(screen.getByLabelText('Confirm the new password'), { target: { value: 'New#Pass12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Password used before!');
  });

  it('saves the preferences with PUT /user/preferences and applies the theme', async () => {
    await signedInAt('/session/en/my-account/account-settings');
    fireEvent.click(await screen.findByRole('radio', { name: 'Dark' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Play a sound with notifications' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    expect(await screen.findByText('Your preferences have been saved.')).toBeTruthy();
    const put = fetchMock.mock.calls.find(([url]) => url === '/session/api/user/preferences') as [string, RequestInit];
    expect(put[1].method).toBe('PUT');
    expect(JSON.parse(String(put[1].body))).toEqual({ language: 'en', theme: 'dark', notifications: true, soundNotifications: true });
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it("the header's mute switch is the Account settings preference: saved with PUT /user/preferences, the form follows it", async () => {
    await signedInAt('/session/en/my-account/account-settings');
    const checkbox = (await screen.findByRole('checkbox', { name: 'Show notifications' })) as HTMLInputElement;
    expect(checkbox.checked).toBe(true);
    const mute = screen.getByRole('button', { name: 'Mute notifications' });
    expect(mute.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(mute);
    await waitFor(() => expect(checkbox.checked).toBe(false));
    expect(mute.getAttribute('aria-pressed')).toBe('true');
    const put = fetchMock.mock.calls.find(([url]) => url === '/session/api/user/preferences') as [string, RequestInit];
    expect(JSON.parse(String(put[1].body))).toMatchObject({ notifications: false, soundNotifications: false, theme: 'light' });
  });
});

describe('session expiry', () => {
  it('keeps the page when the token expires (500 ms early): a banner says so, the dialog offers to sign in again; another page goes to sign-in, saying why', async () => {
    startSession('tok', new Date(Date.now() + 1_200).toISOString());
    const router = createAppRouter({ history: createMemoryHistory({ initialEntries: ['/session/en/my-account'] }) });
    render(<App router={router} realtime={false} />);
    expect(await screen.findByText('Broker Energie SA')).toBeTruthy();
    // Inside the two-minute warning from the start: the dialog is open with the countdown.
    expect(await screen.findByRole('dialog', { name: 'Sign in again to stay connected' })).toBeTruthy();
    expect(
      await screen.findByText('Your session has expired. Orders cannot be placed, changed or cancelled until you sign in again.', undefined, { timeout: 3_000 }),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/en/my-account');
    expect(screen.getByText('Broker Energie SA')).toBeTruthy();
    await router.navigate({ to: '/en/trading/account' });
    expect(await screen.findByRole('heading', { name: 'Sign in' }, { timeout: 3_000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/en/login');
    expect(router.state.location.search).toEqual({ redirect: '/en/trading/account', reason: 'expired' });
    expect(screen.getByText('Your session has expired. Please sign in again.')).toBeTruthy();
  });
});

describe('error page', () => {
  it("shows a RouteError's status and message: 500 'Unknown middleware'", async () => {
    render(
      <WithIntl>
        <ErrorPageHarness error={new RouteError(500, 'page.error.unknownMiddleware')} />
      </WithIntl>,
    );
    expect(await screen.findByText('Error 500')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Unknown middleware' })).toBeTruthy();
  });

  it("defaults to 500 'Unknown error!' for anything else", async () => {
    render(
      <WithIntl>
        <ErrorPageHarness error={new TypeError('x is undefined')} />
      </WithIntl>,
    );
    expect(await screen.findByText('Error 500')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Unknown error!' })).toBeTruthy();
    expect(screen.queryByText(/undefined/)).toBeNull();
  });
});

/** The error page needs a router around it (its links): a one-route router that renders it. */
function ErrorPageHarness({ error }: { error: Error }) {
  const rootRoute = createRootRoute({ component: () => <ErrorPage error={error} reset={() => {}} info={{ componentStack: '' }} /> });
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: ['/'] }) });
  return (
    <DialogProvider>
      <RouterProvider router={router} />
    </DialogProvider>
  );
}
