// @vitest-environment jsdom
/** The transfers to CCP under the transactions tab: where the partner of a transfer answers it. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../../../protocol/auth.ts';
import { workflowRoutes } from '../../../../protocol/workflows.ts';
import { clearReferenceCache } from '../../../../src/api/reference.ts';
import { TransferRequestsCard } from '../../../../src/pages/my-account/TransferRequestsCard.tsx';
import { asset } from '../../trading/fixtures.ts';
import { broker1, broker2, instance, renderWithDialogs } from '../../workflows/workflow-fixtures.tsx';
import { signIn, signOut, stubApi, tableRows } from './clearing-fixtures.tsx';

let currentUser: UserInfo | null = null;
vi.mock('../../../../src/auth/use-auth.ts', () => ({ useUser: () => currentUser, useCanAct: () => currentUser !== null }));
vi.mock('../../../../src/realtime/RealtimeProvider.tsx', () => ({ useRealtime: () => null }));

beforeEach(() => {
  clearReferenceCache();
  signIn();
});
afterEach(() => {
  cleanup();
  signOut();
  currentUser = null;
  vi.unstubAllGlobals();
});

describe('transfers to CCP card', () => {
  it('lists the transfers of the user, the other party as partner, and offers the partner accept and reject', async () => {
    const requested = instance('transfer', [], { instanceId: 'WF-T-1' });
    const fetchMock = stubApi({ [workflowRoutes.list]: { body: { instances: [requested] } }, '/assets': { body: { assets: [asset] } } });
    currentUser = broker2;
    renderWithDialogs('en', <TransferRequestsCard />);
    await waitFor(() => expect(tableRows('Transfers to CCP')).toHaveLength(1));
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/session/api/workflows?kind=transfer');
    // broker2 holds the partner side: the other party is RO-HIDRO.
    expect(tableRows('Transfers to CCP')[0]).toEqual(expect.arrayContaining(['1001', 'GSPOT-DA', 'RO-HIDRO', 'Awaiting partner acceptance']));
    fireEvent.click(screen.getByRole('button', { name: 'Details: Transfer to CCP of transaction 1001' }));
    const panel = screen.getByRole('region', { name: 'Transfer to CCP of transaction 1001' });
    expect(within(panel).getByRole('group', { name: 'Actions' }).textContent).toBe('AcceptReject');
  });

  it('offers the initiator its cancel only, in Romanian, and says when there is none', async () => {
    stubApi({ [workflowRoutes.list]: { body: { instances: [instance('transfer', [], { instanceId: 'WF-T-2' })] } }, '/assets': { body: { assets: [asset] } } });
    currentUser = broker1;
    renderWithDialogs('ro', <TransferRequestsCard />);
    await waitFor(() => expect(tableRows('Transferuri la CCP')).toHaveLength(1));
    expect(tableRows('Transferuri la CCP')[0]).toEqual(expect.arrayContaining(['RO-TERMO']));
    fireEvent.click(screen.getByRole('button', { name: 'Detalii: Transferul la CCP al tranzacției 1001' }));
    expect(within(screen.getByRole('region', { name: 'Transferul la CCP al tranzacției 1001' })).getByRole('group', { name: 'Acțiuni' }).textContent).toBe('Anulați cererea');
    cleanup();
    stubApi({ [workflowRoutes.list]: { body: { instances: [] } }, '/assets': { body: { assets: [asset] } } });
    renderWithDialogs('en', <TransferRequestsCard />);
    await screen.findByText('No transfers to CCP yet: request one from a transaction’s row.');
  });
});
