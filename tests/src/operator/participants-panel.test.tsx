// @vitest-environment jsdom
/** Participants: filters; suspend asks a reason then confirmation and calls the suspend route; reinstate; refusals in ro and en. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ParticipantsPanel } from '../../../src/operator/ParticipantsPanel.tsx';
import { signIn, signOut, tableRows } from '../pages/my-account/clearing-fixtures.tsx';
import { renderWithDialogs } from '../workflows/workflow-fixtures.tsx';
import { participant, participants, refusal, stubFetch } from './operator-fixtures.tsx';

vi.mock('../../../src/auth/use-auth.ts', () => ({ useCanAct: () => true }));

beforeEach(() => signIn());
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('participants panel', () => {
  it('lists clients and brokers, the suspended first with by whom and why, and filters by kind, state and text', () => {
    renderWithDialogs('en', <ParticipantsPanel participants={participants} />);
    const rows = tableRows('Participants');
    expect(rows.map((row) => row[1])).toEqual(['RO-TERMO', 'RO-HIDRO', 'U-broker1']);
    expect(rows[0]).toEqual(expect.arrayContaining(['Client', 'Termo SA', 'Suspended', 'U-admin', 'Garanții expirate', 'Reinstate']));
    expect(rows[2]).toEqual(expect.arrayContaining(['Broker', 'Active', 'Suspend']));

    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'broker' } });
    expect(tableRows('Participants').map((row) => row[1])).toEqual(['U-broker1']);
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('State'), { target: { value: 'active' } });
    expect(tableRows('Participants').map((row) => row[1])).toEqual(['RO-HIDRO', 'U-broker1']);
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'hidro' } });
    expect(tableRows('Participants').map((row) => row[1])).toEqual(['RO-HIDRO']);
  });

  it('suspends with a required reason, then confirmation, with POST /admin/participants/:kind/:id/suspend', async () => {
    const calls = stubFetch((call) =>
      call.method === 'POST' ? { body: { participant: participant({ suspended: true, suspendedAt: '2026-11-27T10:00:00.000Z', suspendedBy: 'U-admin', reason: 'Garanție neplătită' }), cancelledOrders: 3 } } : undefined,
    );
    renderWithDialogs('en', <ParticipantsPanel participants={participants} />);
    fireEvent.click(screen.getByRole('button', { name: 'Suspend Hidroelectrica SA (RO-HIDRO)' }));
    const reasonDialog = await screen.findByRole('dialog', { name: 'Suspend Hidroelectrica SA (RO-HIDRO): why?' });
    // No reason: refused here, nothing sent.
    fireEvent.click(within(reasonDialog).getByRole('button', { name: 'Continue' }));
    expect(within(reasonDialog).getByRole('alert').textContent).toBe('Give a reason.');
    fireEvent.change(within(reasonDialog).getByLabelText('Reason'), { target: { value: '  Garanție neplătită ' } });
    fireEvent.click(within(reasonDialog).getByRole('button', { name: 'Continue' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Suspend Client Hidroelectrica SA?');
    expect(confirm.textContent).toContain('Reason: Garanție neplătită');
    expect(calls).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/admin/participants/client/RO-HIDRO/suspend', body: { reason: 'Garanție neplătită' } });
    expect((await screen.findByRole('status')).textContent).toBe('Hidroelectrica SA is suspended; 3 orders were cancelled.');
  });

  it('reinstates after confirmation, and shows a refusal with its message in Romanian and English', async () => {
    let answer = refusal(409, 'PARTICIPANT_NOT_SUSPENDED', { participant: 'RO-TERMO' });
    const calls = stubFetch(() => answer);
    renderWithDialogs('ro', <ParticipantsPanel participants={participants} />);
    fireEvent.click(screen.getByRole('button', { name: 'Reactivați Termo SA (RO-TERMO)' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Reactivați' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Participantul RO-TERMO nu este suspendat.');
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/admin/participants/client/RO-TERMO/reinstate' });
    cleanup();

    renderWithDialogs('en', <ParticipantsPanel participants={participants} />);
    fireEvent.click(screen.getByRole('button', { name: 'Reinstate Termo SA (RO-TERMO)' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Reinstate' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Participant RO-TERMO is not suspended.');

    answer = { body: { participant: participant({ id: 'RO-TERMO', name: 'Termo SA' }), cancelledOrders: 0 } };
    fireEvent.click(screen.getByRole('button', { name: 'Reinstate Termo SA (RO-TERMO)' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Reinstate' }));
    expect((await screen.findByRole('status')).textContent).toBe('Termo SA is reinstated.');
  });
});
