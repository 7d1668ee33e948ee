// @vitest-environment jsdom
import { createMemoryHistory } from '@tanstack/react-router';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/app/App.tsx';
import { createAppRouter } from '../../src/app/router.tsx';
import { endSession, getSession } from '../../src/auth/session.ts';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const user = {
  userId: 'u-1',
  username: 'ipopescu',
  name: 'Ion Popescu',
  roles: ['broker', 'client'],
  scopes: ['orders:write'],
  broker: { id: 'b-1', name: 'Broker Energie SA' },
  agency: null,
  terminal: { id: 't-7', name: 'T7' },
  clientCodes: ['C001'],
  marketIds: ['gas-spot'],
  passwordExpiresAt: '2099-01-01T00:00:00Z',
  preferences: { language: 'ro', theme: 'light', notifications: true, soundNotifications: false },
};

function renderAt(path: string) {
  const router = createAppRouter({ history: createMemoryHistory({ initialEntries: [path] }) });
  render(<App router={router} realtime={false} />);
  return router;
}

async function fillAndSubmit(labels: { user: string; password: string; code: string; submit: string }) {
  fireEvent.change(await screen.findByLabelText(labels.user), { target: { value: 'ipopescu' } });
  fireEvent.change(screen.getByLabelText(labels.password), { target: { value: 'Secret#123' } });
  fireEvent.change(screen.getByLabelText(labels.code), { target: { value: '123456' } });
  fireEvent.click(screen.getByRole('button', { name: labels.submit }));
}

const ro = { user: 'Utilizator', password: 'Parolă', code: 'Cod de verificare', submit: 'Conectare' };
const en = { user: 'User', password: 'Password', code: 'Verification code', submit: 'Sign in' };

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  endSession();
  sessionStorage.clear();
  localStorage.clear();
  fetchMock = vi.fn(async () => json(401, { error: { code: 'AUTH_CODE_INVALID', params: {} } }));
  vi.stubGlobal('fetch', fetchMock);
  // jsdom has no scrolling; the router restores scroll position on navigation.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('login page', () => {
  it('shows the refusal in Romanian at /session/login', async () => {
    renderAt('/session/login');
    expect(await screen.findByRole('heading', { name: 'Autentificare' })).toBeTruthy();
    await fillAndSubmit(ro);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Cod de verificare invalid!');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/session/api/login');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ username: 'ipopescu', password: 'Secret#123', code: '123456' });
    expect(getSession()).toBeNull();
    expect(document.documentElement.lang).toBe('ro');
  });

  it('shows the refusal in English at /session/en/login', async () => {
    // The locale cookie is scoped to /session, so the document must live there to see it.
    window.history.replaceState(null, '', '/session/en/login');
    renderAt('/session/en/login');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    await fillAndSubmit(en);

    expect((await screen.findByRole('alert')).textContent).toBe('Invalid verification code!');
    expect(document.documentElement.lang).toBe('en');
    expect(document.cookie).toContain('locale=en');
  });

  it("asks for every field before calling the server ('Field required!')", async () => {
    renderAt('/session/en/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findAllByText('Field required!')).toHaveLength(3);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("says 'Cannot reach server!' when the request fails", async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    renderAt('/session/en/login');
    await fillAndSubmit(en);
    expect((await screen.findByRole('alert')).textContent).toBe('Cannot reach server!');
  });

  it("says 'Error: {code}' for a code the client does not know", async () => {
    fetchMock.mockResolvedValueOnce(json(418, { error: { code: 'BRAND_NEW_CODE', params: {} } }));
    renderAt('/session/login');
    await fillAndSubmit(ro);
    expect((await screen.findByRole('alert')).textContent).toBe('Eroare: BRAND_NEW_CODE');
  });

  it('signs in, loads /user/info with the bearer token and shows the home page of the signed-in user', async () => {
    fetchMock.mockImplementation(async (url: string) => {
      if (url === '/session/api/login') return json(200, { token: 'tok-123', expiresAt: new Date(Date.now() + 1_800_000).toISOString() });
      if (url === '/session/api/markets') return json(200, { markets: [], rings: [] });
      if (url === '/session/api/assets') return json(200, { assets: [] });
      return json(200, user);
    });
    const router = renderAt('/session/login');
    await fillAndSubmit(ro);

    expect(await screen.findByRole('heading', { name: 'Bine ați venit, Ion Popescu!' })).toBeTruthy();
    expect(screen.getByText('Broker Energie SA')).toBeTruthy();
    expect(screen.getAllByText('Nealocat').length).toBeGreaterThan(0); // no agency
    expect(screen.getByText(/Broker și Client/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');

    const [url, init] = fetchMock.mock.calls[1] as [string, RequestInit];
    expect(url).toBe('/session/api/user/info');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok-123');
    expect(JSON.parse(localStorage.getItem('exchange.session') ?? '{}').token).toBe('tok-123');
  });

  it('goes to the reset page when the password has expired, with the user filled in', async () => {
    fetchMock.mockResolvedValueOnce(json(403, { error: { code: 'AUTH_PASSWORD_EXPIRED', params: {} } }));
    const router = renderAt('/session/en/login');
    await fillAndSubmit(en);
    expect(await screen.findByRole('heading', { name: 'Set a new password' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/en/reset-password');
    expect((screen.getByLabelText('User') as HTMLInputElement).value).toBe('ipopescu');
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('Secret#123');
    expect(screen.getByText('Password expired!')).toBeTruthy();
  });
});

describe('routes', () => {
  it('shows a guest the public home page with a sign-in call to action', async () => {
    renderAt('/session/en');
    expect(await screen.findByRole('heading', { name: 'Trade energy on one screen' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in to trade' }).getAttribute('href')).toBe('/session/en/login');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a signed-out visitor of a signed-in page to the login page of the same language, and back after', async () => {
    const router = renderAt('/session/en/my-account/login-history');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/en/login');
    expect(router.state.location.search).toEqual({ redirect: '/en/my-account/login-history' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the translated 404 page', async () => {
    renderAt('/session/en/no-such-page');
    expect(await screen.findByText('This page could not be found')).toBeTruthy();
    cleanup();
    renderAt('/session/nu-exista');
    expect(await screen.findByText('Această pagină nu a putut fi găsită')).toBeTruthy();
  });

  it('switches language and keeps the page', async () => {
    const router = renderAt('/session/login');
    fireEvent.click(await screen.findByRole('link', { name: 'English' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/en/login'));
  });
});
