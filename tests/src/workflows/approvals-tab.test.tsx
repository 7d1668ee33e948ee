// @vitest-environment jsdom
/** The administrator's approval queues: listed and shown to the administrator only; live; each row with its history and the machine's actions. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { NEVER, Subject, type Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../../protocol/auth.ts';
import { destinations } from '../../../protocol/destinations.ts';
import { workflowRoutes, type WorkflowChange } from '../../../protocol/workflows.ts';
import type { Connection } from '../../../streams/connection.ts';
import { clearReferenceCache } from '../../../src/api/reference.ts';
import { ApprovalsTab, mayApprove } from '../../../src/pages/my-account/ApprovalsTab.tsx';
import { listedAccountTabs } from '../../../src/pages/my-account/tabs.ts';
import { signIn, signOut, stubApi, tableRows } from '../pages/my-account/clearing-fixtures.tsx';
import { admin, broker1, broker2, instance, renderWithDialogs, terminal1 } from './workflow-fixtures.tsx';

let currentUser: UserInfo | null = null;
vi.mock('../../../src/auth/use-auth.ts', () => ({ useUser: () => currentUser, useCanAct: () => currentUser !== null }));
const approvalsQueue = new Subject<WorkflowChange>();
const watch = vi.fn((destination: string): Observable<unknown> => (destination === destinations.workflowApprovals ? approvalsQueue : NEVER));
let connection = { watch$: watch } as unknown as Connection;
vi.mock('../../../src/realtime/RealtimeProvider.tsx', () => ({ useRealtime: () => ({ connection }) }));

beforeEach(() => {
  connection = { watch$: watch } as unknown as Connection;
  watch.mockClear();
  clearReferenceCache();
  signIn();
});
afterEach(() => {
  cleanup();
  signOut();
  currentUser = null;
  vi.unstubAllGlobals();
});

const otcQueued = instance('otc', [['activate', broker1], ['acceptActivation', broker2]], { instanceId: 'WF-OTC-7' });
const transferQueued = instance('transfer', [['accept', broker2]], { instanceId: 'WF-TR-3' });

/** The administrator's queue with otcQueued, its action answered with `answer`, and its panel opened (by the name it has without a transaction). */
async function openQueuedDeal(locale: 'en' | 'ro', answer: unknown): Promise<void> {
  stubApi({
    [workflowRoutes.list]: { body: { instances: [otcQueued] } },
    '/assets': { body: { assets: [] } },
    [`POST ${workflowRoutes.action('WF-OTC-7')}`]: { body: answer },
  });
  currentUser = admin;
  renderWithDialogs(locale, <ApprovalsTab />);
  fireEvent.click(await screen.findByRole('button', { name: locale === 'en' ? 'Details: OTC deal between RO-HIDRO and RO-TERMO, registered 20/11/2026, 10:00:00' : 'Detalii: Tranzacția OTC între RO-HIDRO și RO-TERMO, din 20.11.2026, 10:00:00' }));
}


describe('approvals tab', () => {
  it('is listed only for a user the machines call administrator', () => {
    for (const who of [broker1, broker2, terminal1]) {
      expect(mayApprove(who)).toBe(false);
      expect(listedAccountTabs(mayApprove(who)).map((tab) => tab.slug)).not.toContain('approvals');
    }
    expect(mayApprove(admin)).toBe(true);
    expect(listedAccountTabs(true).map((tab) => tab.slug)).toContain('approvals');
    // An administrator without the approval scope is not one for the workflows.
    expect(mayApprove({ ...admin, scopes: ['admin'] })).toBe(false);
  });

  it('tells a non-administrator opening its URL that it is not allowed, and asks nothing of the server', () => {
    const fetchMock = stubApi({});
    currentUser = broker1;
    renderWithDialogs('ro', <ApprovalsTab />);
    expect(screen.getByRole('alert').textContent).toBe('Doar administratorul bursei poate vedea cozile de aprobare.');
    expect(screen.queryByRole('table')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the queues waiting on the administrator, live, with each row history and the approve actions', async () => {
    const fetchMock = stubApi({ [workflowRoutes.list]: { body: { instances: [otcQueued, transferQueued] } }, '/assets': { body: { assets: [] } } });
    currentUser = admin;
    renderWithDialogs('en', <ApprovalsTab />);
    await waitFor(() => expect(tableRows('OTC deals')[0]).toEqual(expect.arrayContaining(['RO-HIDRO', 'RO-TERMO', 'GSPOT-DA', '150.00'])));
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/session/api/workflows?awaiting=administrator');
    expect(tableRows('Transfers to CCP')[0]).toEqual(expect.arrayContaining(['RO-HIDRO', 'RO-TERMO', '1001']));
    expect(screen.getByRole('table', { name: 'Margin exposure activations' }).textContent).toContain('Nothing waits on you here.');

    // A transfer opens to its history and the administrator's three actions.
    fireEvent.click(screen.getByRole('button', { name: 'Details: Transfer to CCP of transaction 1001' }));
    const panel = screen.getByRole('region', { name: 'Transfer to CCP of transaction 1001' });
    expect(within(panel).getByRole('group', { name: 'Actions' }).textContent).toBe('ApproveApprove without checksReject');
    const history = within(panel).getByRole('region', { name: 'History' });
    expect(within(history).getAllByRole('listitem')).toHaveLength(2);
    expect(history.textContent).toContain('Awaiting partner acceptance → Awaiting administrator approval');
    // EET: 09:00 UTC on 20 November is 11:00 in Bucharest.
    expect(history.textContent).toContain('11:00:00');

    // A live change moves the deal out of the queue (approved elsewhere) and brings a new one in.
    act(() => approvalsQueue.next({ instance: instance('otc', [['activate', broker1], ['acceptActivation', broker2], ['approve', admin]], { instanceId: 'WF-OTC-7' }), event: otcQueued.history[0]! }));
    const contract = instance('contract', [['upload', broker1], ['accept', broker2]], { instanceId: 'WF-C-1' });
    act(() => approvalsQueue.next({ instance: contract, event: contract.history.at(-1)! }));
    expect(screen.getByRole('table', { name: 'OTC deals' }).textContent).toContain('Nothing waits on you here.');
    expect(tableRows('Transaction contracts')[0]).toEqual(expect.arrayContaining(['1003']));
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('/workflows'))).toHaveLength(1);
  });

  it('says what was approved once the approved item has left its queue, by its transaction number, in English and Romanian', async () => {
    // The approved deal became transaction 1004; its internal instance id means nothing to the user.
    const approved = instance('otc', [['activate', broker1], ['acceptActivation', broker2], ['approve', admin]], { instanceId: 'WF-OTC-7' });
    if (approved.kind !== 'otc') throw new Error('an OTC deal');
    approved.data = { ...approved.data, transactionId: '1004', txDate: '2026-11-20', txTime: '2026-11-20T11:00:00.000Z' };
    for (const [locale, approve, expected] of [
      ['en', 'Approve', 'Approved: OTC deal between RO-HIDRO and RO-TERMO (transaction 1004).'],
      ['ro', 'Aprobați', 'Aprobare efectuată. Tranzacția OTC între RO-HIDRO și RO-TERMO (tranzacția 1004).'],
    ] as const) {
      await openQueuedDeal(locale, approved);
      fireEvent.click(screen.getByRole('button', { name: approve }));
      const dialog = await screen.findByRole('alertdialog');
      fireEvent.click(within(dialog).getByRole('button', { name: approve }));
      // The deal leaves the queue, and its panel with it; the card names what was done.
      const done = await screen.findByRole('status');
      expect(done.textContent).toContain(expected);
      expect(done.textContent).not.toContain('WF-OTC-7');
      expect(screen.queryByRole('region', { name: locale === 'en' ? 'OTC deal between RO-HIDRO and RO-TERMO, registered 20/11/2026, 10:00:00' : 'Tranzacția OTC între RO-HIDRO și RO-TERMO, din 20.11.2026, 10:00:00' })).toBeNull();
      expect(screen.queryByRole('button', { name: locale === 'en' ? 'Details: OTC deal between RO-HIDRO and RO-TERMO, registered 20/11/2026, 10:00:00' : 'Detalii: Tranzacția OTC între RO-HIDRO și RO-TERMO, din 20.11.2026, 10:00:00' })).toBeNull();
      fireEvent.click(within(done).getByRole('button'));
      expect(screen.queryByRole('status')).toBeNull();
      cleanup();
    }
  });
  it('names a rejected deal that never became a transaction as its panel did, with its registration time, in English and Romanian', async () => {
    const rejected = instance('otc', [['activate', broker1], ['acceptActivation', broker2], ['reject', admin, 'Price off the band']], { instanceId: 'WF-OTC-7' });
    for (const [locale, reject, expected] of [
      ['en', 'Reject', 'Rejected: OTC deal between RO-HIDRO and RO-TERMO, registered 20/11/2026, 10:00:00.'],
      ['ro', 'Respingeți', 'Respingere efectuată. Tranzacția OTC între RO-HIDRO și RO-TERMO, din 20.11.2026, 10:00:00.'],
    ] as const) {
      await openQueuedDeal(locale, rejected);
      fireEvent.click(screen.getByRole('button', { name: reject }));
      const reasonDialog = await screen.findByRole('dialog');
      fireEvent.change(within(reasonDialog).getByRole('textbox'), { target: { value: 'Price off the band' } });
      fireEvent.click(within(reasonDialog).getAllByRole('button').at(-1)!);
      fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: reject }));
      const done = await screen.findByRole('status');
      expect(done.textContent).toContain(expected);
      expect(done.textContent).not.toContain('WF-OTC-7');
      cleanup();
    }
  });
  it('names a rejected transfer by the transaction its queue row shows, not by its instance id', async () => {
    const rejected = instance('transfer', [['accept', broker2], ['reject', admin, 'Limit date too close']], { instanceId: 'WF-TR-3' });
    stubApi({
      [workflowRoutes.list]: { body: { instances: [transferQueued] } },
      '/assets': { body: { assets: [] } },
      [`POST ${workflowRoutes.action('WF-TR-3')}`]: { body: rejected },
    });
    currentUser = admin;
    renderWithDialogs('en', <ApprovalsTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Details: Transfer to CCP of transaction 1001' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    const reasonDialog = await screen.findByRole('dialog', { name: 'Reject: why?' });
    fireEvent.change(within(reasonDialog).getByLabelText('Reason'), { target: { value: 'Limit date too close' } });
    fireEvent.click(within(reasonDialog).getByRole('button', { name: 'Continue' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Reject' }));
    const done = await screen.findByRole('status');
    expect(done.textContent).toContain('Rejected: Transfer to CCP between RO-HIDRO and RO-TERMO (transaction 1001).');
    expect(done.textContent).not.toContain('WF-TR-3');
  });
});
