// @vitest-environment jsdom
/** The console page: live from the operator queue (no polling), tabs; the route for the administrator only (403 for anyone else), the header link for administrators. */
import { createMemoryHistory } from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { NEVER, Subject, type Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { destinations } from '../../../protocol/destinations.ts';
import type { OperatorSnapshot } from '../../../protocol/operator.ts';
import type { Connection } from '../../../streams/connection.ts';
import { App } from '../../../src/app/App.tsx';
import { createAppRouter } from '../../../src/app/router.tsx';
import { clearReferenceCache } from '../../../src/api/reference.ts';
import { endSession, startSession } from '../../../src/auth/session.ts';
import type { OperatorPage } from '../../../src/operator/OperatorPage.tsx';
import { tableRows } from '../pages/my-account/clearing-fixtures.tsx';
import { admin, broker1 } from '../workflows/workflow-fixtures.tsx';
import { snapshot, stubFetch } from './operator-fixtures.tsx';

describe('operator page', () => {
  const feed = new Subject<OperatorSnapshot>();
  const watch = vi.fn((destination: string): Observable<unknown> => (destination === destinations.operator ? feed : NEVER));

  beforeEach(() => {
    vi.doMock('../../../src/realtime/RealtimeProvider.tsx', () => ({ useRealtime: () => ({ connection: { watch$: watch } as unknown as Connection, session: { getSnapshot: () => ({ context: {} }) } }) }));
    startSession('tok', new Date(Date.now() + 1_800_000).toISOString());
  });
  afterEach(() => {
    cleanup();
    endSession();
    vi.doUnmock('../../../src/realtime/RealtimeProvider.tsx');
    vi.unstubAllGlobals();
  });

  it('waits for the operator feed, then shows each new snapshot as it comes, asking the server nothing for it', async () => {
    vi.resetModules();
    const { OperatorPage: LivePage } = (await import('../../../src/operator/OperatorPage.tsx')) as { OperatorPage: typeof OperatorPage };
    const { WithIntl } = await import('../components/intl.tsx');
    const { DialogProvider } = await import('../../../src/components/dialogs/DialogProvider.tsx');
    const calls = stubFetch(() => undefined);
    render(
      <WithIntl locale="en">
        <DialogProvider>
          <LivePage />
        </DialogProvider>
      </WithIntl>,
    );
    expect(screen.getByRole('status').textContent).toContain('Waiting for the operator feed…');
    expect(watch).toHaveBeenCalledWith(destinations.operator, expect.anything());
    act(() => feed.next(snapshot()));
    expect(tableRows('Markets and assets').map((row) => row[1])).toEqual(['Trading', 'Suspended']);
    const next = snapshot();
    act(() => feed.next({ ...next, markets: next.markets.map((market) => ({ ...market, phase: 'suspended' as const })) }));
    expect(tableRows('Markets and assets').map((row) => row[1])).toEqual(['Suspended', 'Suspended']);

    // Tabs: participants and health come from the same snapshot.
    fireEvent.click(screen.getByRole('tab', { name: 'Participants' }));
    expect(screen.getByRole('tab', { name: 'Participants' }).getAttribute('aria-selected')).toBe('true');
    expect(tableRows('Participants')).toHaveLength(3);
    fireEvent.click(screen.getByRole('tab', { name: 'Connections and health' }));
    expect(within(screen.getByRole('tabpanel')).getByRole('heading', { name: 'Connected users (2)' })).toBeTruthy();
    expect(calls).toHaveLength(0);
  });
});

describe('operator route', () => {
  function json(status: number, body: unknown): Response {
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  }
  let who = broker1;
  beforeEach(() => {
    endSession();
    sessionStorage.clear();
    clearReferenceCache();
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/session/api/user/info') return json(200, who);
        if (url === '/session/api/markets') return json(200, { markets: [], rings: [] });
        if (url === '/session/api/assets') return json(200, { assets: [] });
        return json(404, { error: { code: 'NOT_FOUND', params: {} } });
      }),
    );
  });
  afterEach(() => {
    cleanup();
    endSession();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  async function openAt(path: string) {
    startSession('tok', new Date(Date.now() + 1_800_000).toISOString());
    render(<App router={createAppRouter({ history: createMemoryHistory({ initialEntries: [path] }) })} realtime={false} />);
  }

  it('answers 403 to a signed-in non-administrator, in English and Romanian, and lists no Operator link', async () => {
    who = broker1;
    await openAt('/session/en/operator');
    expect(await screen.findByText('Only the exchange administrator may open this page.')).toBeTruthy();
    expect(screen.getByText('Error 403')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Operator console' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Operator' })).toBeNull();
    cleanup();
    await openAt('/session/operator');
    expect(await screen.findByText('Doar administratorul bursei poate deschide această pagină.')).toBeTruthy();
  });

  it('sends a signed-out visitor to sign in', async () => {
    render(<App router={createAppRouter({ history: createMemoryHistory({ initialEntries: ['/session/en/operator'] }) })} realtime={false} />);
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByText('Error 403')).toBeNull();
  });

  it('opens the console for the administrator, with the Operator link in the header', async () => {
    who = admin;
    await openAt('/session/en/operator');
    expect(await screen.findByRole('heading', { name: 'Operator console' })).toBeTruthy();
    const link = screen.getByRole('link', { name: 'Operator' });
    expect(link.getAttribute('href')).toBe('/session/en/operator');
    expect(link.getAttribute('aria-current')).toBe('page');
    // The administrator may replay sessions (docs/qa-replay.md): the QA player is in its bar too, before API.
    const replay = screen.getByRole('link', { name: 'Replay' });
    expect(replay.getAttribute('href')).toBe('/session/en/qa/replay');
    const bar = [...document.querySelectorAll('.main-nav .main-nav-link')].map((element) => element.textContent);
    expect(bar).toEqual(['Workspace', 'Trading account', 'My account', 'Operator', 'Replay', 'API']);
  });
});
