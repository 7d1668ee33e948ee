// @vitest-environment jsdom
/** Workflows: every instance with state, age and whom it waits on; filters; live from the approvals queue; the app's workflow actions. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { NEVER, Subject, type Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../../protocol/auth.ts';
import { destinations } from '../../../protocol/destinations.ts';
import type { WorkflowChange } from '../../../protocol/workflows.ts';
import type { Connection } from '../../../streams/connection.ts';
import { WorkflowsPanel } from '../../../src/operator/WorkflowsPanel.tsx';
import { signIn, signOut, tableRows } from '../pages/my-account/clearing-fixtures.tsx';
import { admin, broker1, broker2, instance, renderWithDialogs } from '../workflows/workflow-fixtures.tsx';
import { stubFetch } from './operator-fixtures.tsx';

let currentUser: UserInfo | null = admin;
vi.mock('../../../src/auth/use-auth.ts', () => ({ useUser: () => currentUser, useCanAct: () => currentUser !== null }));
const approvals = new Subject<WorkflowChange>();
const watch = vi.fn((destination: string): Observable<unknown> => (destination === destinations.workflowApprovals ? approvals : NEVER));
let connection = { watch$: watch } as unknown as Connection;
vi.mock('../../../src/realtime/RealtimeProvider.tsx', () => ({ useRealtime: () => ({ connection }) }));

const otc = instance('otc', [['activate', broker1], ['acceptActivation', broker2]], { instanceId: 'WF-OTC-7' });
const transfer = instance('transfer', [], { instanceId: 'WF-TR-3' });
const whitelist = instance('whitelist', [['approve', broker2]], { instanceId: 'WF-WL-1' });

beforeEach(() => {
  connection = { watch$: watch } as unknown as Connection;
  currentUser = admin;
  signIn();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-20T12:30:00.000Z'));
});
afterEach(() => {
  cleanup();
  signOut();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const ids = () => tableRows('Workflows').map((row) => row[0]);

describe('workflows panel', () => {
  it('lists every instance (GET /workflows without a queue), waiting on the administrator first, with state, age and whom it waits on', async () => {
    const calls = stubFetch((call) => (call.path === '/workflows' ? { body: { instances: [otc, transfer, whitelist] } } : call.path === '/assets' ? { body: { assets: [] } } : undefined));
    renderWithDialogs('en', <WorkflowsPanel />);
    await waitFor(() => expect(ids()).toEqual(['WF-OTC-7']));
    expect(calls.find((call) => call.path === '/workflows')!.query.toString()).toBe('');
    const [row] = tableRows('Workflows');
    expect(row).toEqual(expect.arrayContaining(['OTC deal', 'RO-HIDRO', 'RO-TERMO']));
    // The deal is not a transaction yet: no number beside its instance id.
    expect(row![1]).toBe('—');
    expect(row![3]).toContain('Waiting on the administrator');
    // Created 08:00 UTC, now 12:30 UTC.
    expect(row![6]).toBe('4 h 30 min');

    fireEvent.change(screen.getByLabelText('Waiting on'), { target: { value: '' } });
    expect([...ids()].sort()).toEqual(['WF-OTC-7', 'WF-TR-3', 'WF-WL-1']);
    expect(screen.getByText('3 of 3 shown')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'whitelist' } });
    expect(ids()).toEqual(['WF-WL-1']);
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Waiting on'), { target: { value: 'partner' } });
    expect(ids()).toEqual(['WF-TR-3']);
    fireEvent.change(screen.getByLabelText('Waiting on'), { target: { value: 'none' } });
    fireEvent.change(screen.getByLabelText('State'), { target: { value: whitelist.status } });
    expect(ids()).toEqual(['WF-WL-1']);
  });

  it('shows the transaction number brokers quote beside the internal instance id, in English and Romanian', async () => {
    const contract = instance('contract', [], { instanceId: 'WF-C-5' });
    for (const [locale, instanceHeader, transactionHeader] of [
      ['en', 'Instance', 'Transaction'],
      ['ro', 'Instanță', 'Tranzacție'],
    ] as const) {
      stubFetch((call) => (call.path === '/workflows' ? { body: { instances: [otc, transfer, whitelist, contract] } } : call.path === '/assets' ? { body: { assets: [] } } : undefined));
      renderWithDialogs(locale, <WorkflowsPanel />);
      const table = await screen.findByRole('table', { name: locale === 'en' ? 'Workflows' : 'Fluxuri' });
      const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
      expect(headers.slice(0, 2)).toEqual([expect.stringContaining(instanceHeader), expect.stringContaining(transactionHeader)]);
      fireEvent.change(screen.getByLabelText(locale === 'en' ? 'Waiting on' : 'Așteaptă pe'), { target: { value: '' } });
      const byInstance = Object.fromEntries(within(table).getAllByRole('row').slice(1).map((tr) => {
        const cells = within(tr).getAllByRole('cell').map((cell) => cell.textContent);
        return [cells[0], cells[1]];
      }));
      // A transfer's and a contract's transaction; none for a whitelist request or a deal not yet a transaction.
      expect(byInstance).toEqual({ 'WF-OTC-7': '—', 'WF-TR-3': '1001', 'WF-WL-1': '—', 'WF-C-5': '1003' });
      cleanup();
    }
  });

  it('follows the approvals queue live and approves a deal with the app workflow actions, after confirmation', async () => {
    const approved = instance('otc', [['activate', broker1], ['acceptActivation', broker2], ['approve', admin]], { instanceId: 'WF-OTC-7' });
    const calls = stubFetch((call) =>
      call.path === '/workflows' ? { body: { instances: [otc] } } : call.path === '/workflows/WF-OTC-7/actions' ? { body: approved } : call.path === '/assets' ? { body: { assets: [] } } : undefined,
    );
    renderWithDialogs('en', <WorkflowsPanel />);
    await waitFor(() => expect(ids()).toEqual(['WF-OTC-7']));
    // A new transfer reaches the administrator's queue: it shows without a reload.
    const queued = instance('transfer', [['accept', broker2]], { instanceId: 'WF-TR-9' });
    act(() => approvals.next({ instance: queued, event: queued.history.at(-1)! }));
    expect(ids()).toEqual(['WF-OTC-7', 'WF-TR-9']);

    fireEvent.click(screen.getByRole('button', { name: 'Details: OTC deal between RO-HIDRO and RO-TERMO, registered 20/11/2026, 10:00:00' }));
    const panel = screen.getByRole('region', { name: 'OTC deal between RO-HIDRO and RO-TERMO, registered 20/11/2026, 10:00:00' });
    fireEvent.click(within(within(panel).getByRole('group', { name: 'Actions' })).getByRole('button', { name: 'Approve' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({ path: '/workflows/WF-OTC-7/actions', body: { action: 'approve', version: otc.version } });
    // Approved: it waits on nobody, so it leaves the default filter.
    await waitFor(() => expect(ids()).toEqual(['WF-TR-9']));
    expect(calls.filter((call) => call.path === '/workflows')).toHaveLength(1);
  });
});
