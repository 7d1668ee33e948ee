// @vitest-environment jsdom
import { createMemoryHistory } from '@tanstack/react-router';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src/app/App.tsx';
import { createAppRouter } from '../../../src/app/router.tsx';
import { clearReferenceCache } from '../../../src/api/reference.ts';
import { endSession, startSession } from '../../../src/auth/session.ts';

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

let roles: string[] = ['qa'];

function api(url: string): Response {
  if (url === '/session/api/user/info') return json(200, { ...user, roles, clientCodes: [], broker: null, agency: null });
  if (url === '/session/api/markets') return json(200, { markets: [market], rings: [] });
  if (url === '/session/api/assets') return json(200, { assets: [asset] });
  if (url === '/session/api/qa/recordings') return json(200, { recordings: [{ name: 'ordinary-trading', sizeBytes: 12_000 }] });
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
  vi.stubGlobal('fetch', vi.fn(async (url: string) => api(url)));
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  endSession();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/qa/replay', () => {
  it.each([
    ['qa', '/session/en/qa/replay', 'Session replay'],
    ['administrator', '/session/qa/replay', 'Redarea sesiunilor'],
  ])('opens for the %s role, in its language, with the server\'s recordings', async (role, path, heading) => {
    roles = [role];
    await signedInAt(path);
    expect(await screen.findByRole('heading', { name: heading, level: 1 })).toBeTruthy();
    expect(await screen.findByRole('option', { name: /ordinary-trading/ })).toBeTruthy();
  });

  it.each([
    ['broker', '/session/en/qa/replay', 'Only QA and the exchange administrator may replay sessions.'],
    ['terminal', '/session/qa/replay', 'Doar echipa QA și administratorul bursei pot reda sesiuni.'],
  ])('answers a %s with the 403 error page', async (role, path, message) => {
    roles = [role];
    await signedInAt(path);
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByText(/403/)).toBeTruthy();
  });

  it('sends a signed-out visitor to sign in, with the page to come back to', async () => {
    const router = createAppRouter({ history: createMemoryHistory({ initialEntries: ['/session/en/qa/replay'] }) });
    render(<App router={router} realtime={false} />);
    await screen.findByRole('button', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/en/login');
    expect((router.state.location.search as { redirect?: string }).redirect).toMatch(/\/en\/qa\/replay$/);
  });
});
