// @vitest-environment jsdom
/** Markets and assets: phase, schedule and countdown; suspend, resume and phase change behind the confirmation dialog, to the right route; refusals in ro and en. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketsPanel } from '../../../src/operator/MarketsPanel.tsx';
import { signIn, signOut, tableRows } from '../pages/my-account/clearing-fixtures.tsx';
import { renderWithDialogs } from '../workflows/workflow-fixtures.tsx';
import { refusal, snapshot, stubFetch } from './operator-fixtures.tsx';

vi.mock('../../../src/auth/use-auth.ts', () => ({ useCanAct: () => true }));

beforeEach(() => signIn());
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

const { markets } = snapshot();

async function confirmIn(name: string) {
  const dialog = await screen.findByRole('alertdialog');
  fireEvent.click(within(dialog).getByRole('button', { name }));
}

describe('markets panel', () => {
  it('shows each market with its phase, since, next phase with a countdown, and the assets apart from the market', () => {
    renderWithDialogs('en', <MarketsPanel markets={markets} />);
    const [gas, power] = tableRows('Markets and assets');
    expect(gas![0]).toContain('Gas spot');
    expect(gas![1]).toBe('Trading');
    // Exchange time: 07:00 UTC is 09:00 in Bucharest; the next phase's time over its countdown.
    expect(gas![2]).toBe('09:00:00');
    expect(gas![4]).toMatch(/^Closing at 17:00:00\d+:\d\d:\d\d$/);
    expect(gas![5]).toBe('2 assets');
    expect(power![1]).toBe('Suspended');
    expect(power![4]).toBe('Nothing more scheduled today');
    // The hour-7 asset is closed while its market is suspended: shown apart.
    expect(power![5]).toContain('ELSPOT-H7');
    expect(power![5]).toContain('Closed');
    expect(power![5]).not.toContain('ELSPOT-DA');
    expect(screen.getByRole('timer')).toBeTruthy();
    // Suspend where trading; Resume where suspended.
    expect(screen.getByRole('button', { name: 'Suspend Gas spot' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resume Electricity spot' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resume Gas spot' })).toBeNull();
  });

  it('suspends a market only once confirmed, with POST /admin/markets/:marketId/suspend', async () => {
    const calls = stubFetch((call) => (call.method === 'POST' ? { status: 204 } : undefined));
    renderWithDialogs('en', <MarketsPanel markets={markets} />);
    fireEvent.click(screen.getByRole('button', { name: 'Suspend Gas spot' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Suspend Gas spot?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Suspend Gas spot' }));
    await confirmIn('Suspend');
    await waitFor(() => expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /admin/markets/GAS-SPOT/suspend']));
  });

  it('resumes with POST /admin/markets/:marketId/resume and changes a phase with POST /admin/markets/:marketId/phase', async () => {
    const calls = stubFetch((call) => (call.method === 'POST' ? { status: 204 } : undefined));
    renderWithDialogs('en', <MarketsPanel markets={markets} />);
    fireEvent.click(screen.getByRole('button', { name: 'Resume Electricity spot' }));
    await confirmIn('Resume');
    await waitFor(() => expect(calls.map((call) => call.path)).toEqual(['/admin/markets/EL-SPOT/resume']));

    fireEvent.change(screen.getByLabelText('New phase of Gas spot'), { target: { value: 'closing' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change the phase of Gas spot' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Move Gas spot to Closing?');
    await confirmIn('Change phase');
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toMatchObject({ method: 'POST', path: '/admin/markets/GAS-SPOT/phase', body: { phase: 'closing', assetId: null } });
  });

  it("shows a refusal on its market's row with the code's message, in Romanian and in English", async () => {
    stubFetch(() => refusal(409, 'MARKET_PHASE_CHANGE_NOT_ALLOWED', { marketId: 'GAS-SPOT', phase: 'trading' }));
    renderWithDialogs('ro', <MarketsPanel markets={markets} />);
    fireEvent.click(screen.getByRole('button', { name: 'Suspendați Gas spot' }));
    await confirmIn('Suspendați');
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Piața GAS-SPOT nu poate fi modificată astfel cât timp este în faza /);
    cleanup();
    renderWithDialogs('en', <MarketsPanel markets={markets} />);
    fireEvent.click(screen.getByRole('button', { name: 'Suspend Gas spot' }));
    await confirmIn('Suspend');
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Market GAS-SPOT cannot be changed this way while it is in the /);
  });
});
