// @vitest-environment jsdom
/** The actions bar offers exactly what the machine offers the user, asks for a reason and a confirmation, and shows refusals. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { offeredActions, restoreWorkflow } from '../../../machines/workflows/workflow-definitions.ts';
import type { UserInfo } from '../../../protocol/auth.ts';
import { workflowRoutes, type WorkflowInstance } from '../../../protocol/workflows.ts';
import { workflowsEn, workflowsRo } from '../../../src/i18n/messages/workflows.ts';
import { actionLabels } from '../../../src/workflows/labels.ts';
import { WorkflowActionsBar } from '../../../src/workflows/WorkflowActionsBar.tsx';
import { signIn, signOut, stubApi } from '../pages/my-account/clearing-fixtures.tsx';
import { actorOf, admin, broker1, broker2, instance, renderWithDialogs, terminal1 } from './workflow-fixtures.tsx';

let currentUser: UserInfo | null = null;
vi.mock('../../../src/auth/use-auth.ts', () => ({ useUser: () => currentUser, useCanAct: () => currentUser !== null }));

beforeEach(signIn);
afterEach(() => {
  cleanup();
  signOut();
  currentUser = null;
  vi.unstubAllGlobals();
});

function offeredButtons(): string[] {
  const group = screen.queryByRole('group', { name: 'Actions' });
  return group ? within(group).getAllByRole('button').map((button) => button.getAttribute('data-action') ?? '') : [];
}

function renderBar(subject: WorkflowInstance, who: UserInfo, onChanged = vi.fn(), locale: 'en' | 'ro' = 'en') {
  currentUser = who;
  renderWithDialogs(locale, <WorkflowActionsBar instance={subject} onChanged={onChanged} />);
  return onChanged;
}

const otcAwaitingPartner = instance('otc', [['activate', broker1]]);
const transferAwaitingAdmin = instance('transfer', [['accept', broker2]]);
const contractAwaitingPartner = instance('contract', [['upload', broker1]]);

describe('the actions offered', () => {
  const cases: ReadonlyArray<[string, WorkflowInstance, UserInfo, string[]]> = [
    ['the OTC initiator, awaiting the partner', otcAwaitingPartner, broker1, ['delete']],
    ['the OTC partner, awaiting the partner', otcAwaitingPartner, broker2, ['acceptActivation', 'reject']],
    ['the administrator, awaiting the partner', otcAwaitingPartner, admin, ['reject']],
    ['a terminal holding neither side', otcAwaitingPartner, terminal1, []],
    ['the administrator, a transfer awaiting approval', transferAwaitingAdmin, admin, ['approve', 'approveWithoutChecks', 'reject']],
    ['the transfer requester, awaiting approval', transferAwaitingAdmin, broker1, ['cancel']],
    ['the transfer partner, awaiting approval', transferAwaitingAdmin, broker2, []],
    ['the uploader of a contract', contractAwaitingPartner, broker1, []],
    ['the other party of a contract', contractAwaitingPartner, broker2, ['accept', 'reject']],
  ];
  for (const [who, subject, user, expected] of cases) {
    it(`offers ${who} exactly what the machine offers: ${expected.join(', ') || 'nothing'}`, () => {
      renderBar(subject, user);
      // The same machine the server runs decides: the bar shows its answer and nothing more.
      expect(offeredActions(subject.kind, restoreWorkflow(subject.kind, subject.machineState), actorOf(user))).toEqual(expected);
      expect(offeredButtons()).toEqual(expected);
      if (expected.length === 0) expect(screen.getByText('Nothing here is yours to do now.')).toBeTruthy();
    });
  }
});

describe('an action', () => {
  it('asks for confirmation, then posts the action with the version seen and an idempotency key', async () => {
    const after = instance('otc', [['activate', broker1], ['acceptActivation', broker2]]);
    const fetchMock = stubApi({ [`POST ${workflowRoutes.action(otcAwaitingPartner.instanceId)}`]: { body: after } });
    const onChanged = renderBar(otcAwaitingPartner, broker2);
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    const dialog = await screen.findByRole('alertdialog');
    // Not a transaction yet: named by its kind and its two clients, never by the internal instance id.
    expect(dialog.textContent).toContain('OTC deal between RO-HIDRO and RO-TERMO, registered 20/11/2026, 10:00:00. Continue?');
    expect(dialog.textContent).not.toContain('WF-otc-1');
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledWith(after));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/session/api/workflows/WF-otc-1/actions');
    expect(JSON.parse(String(init?.body))).toEqual({ action: 'acceptActivation', version: otcAwaitingPartner.version });
    expect((init?.headers as Record<string, string>)['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('says what was done as a past participle, not the button label, in English and Romanian', async () => {
    const after = instance('otc', [['activate', broker1], ['acceptActivation', broker2]]);
    for (const [locale, button, expected] of [
      ['en', 'Accept', 'Accepted.'],
      ['ro', 'Acceptați', 'Acceptat.'],
    ] as const) {
      stubApi({ [`POST ${workflowRoutes.action(otcAwaitingPartner.instanceId)}`]: { body: after } });
      currentUser = broker2;
      renderWithDialogs(locale, <WorkflowActionsBar instance={otcAwaitingPartner} onChanged={vi.fn()} />);
      fireEvent.click(screen.getByRole('button', { name: button }));
      fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: button }));
      expect((await screen.findByRole('status')).textContent).toBe(expected);
      cleanup();
      vi.unstubAllGlobals();
    }
  });

  it('has a done message for every action, in both catalogues', () => {
    for (const catalogue of [workflowsEn, workflowsRo]) {
      for (const action of Object.keys(actionLabels)) expect(catalogue, action).toHaveProperty([`workflow.actionDone.${action}`]);
    }
  });

  it('names the item by its transaction number and its two clients in the confirmation, in English and Romanian', async () => {
    for (const [locale, approve, expected] of [
      ['en', 'Approve', 'Transfer to CCP of transaction 1001 between RO-HIDRO and RO-TERMO. Continue?'],
      ['ro', 'Aprobați', 'Transferul la CCP al tranzacției 1001 între RO-HIDRO și RO-TERMO. Continuați?'],
    ] as const) {
      stubApi({});
      currentUser = admin;
      renderWithDialogs(locale, <WorkflowActionsBar instance={transferAwaitingAdmin} onChanged={vi.fn()} />);
      fireEvent.click(screen.getByRole('button', { name: approve }));
      const dialog = await screen.findByRole('alertdialog');
      expect(dialog.textContent).toContain(expected);
      expect(dialog.textContent).not.toContain(transferAwaitingAdmin.instanceId);
      cleanup();
    }
  });

  it('is not sent when the confirmation is cancelled', async () => {
    const fetchMock = stubApi({});
    renderBar(otcAwaitingPartner, broker1);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reject requires a reason, then confirms it and sends it', async () => {
    const after = instance('otc', [['activate', broker1], ['reject', broker2, 'Price too high']]);
    const fetchMock = stubApi({ [`POST ${workflowRoutes.action(otcAwaitingPartner.instanceId)}`]: { body: after } });
    renderBar(otcAwaitingPartner, broker2);
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    const reasonDialog = await screen.findByRole('dialog', { name: 'Reject: why?' });
    fireEvent.click(within(reasonDialog).getByRole('button', { name: 'Continue' }));
    expect(within(reasonDialog).getByText('Give a reason.')).toBeTruthy();
    fireEvent.change(within(reasonDialog).getByLabelText('Reason'), { target: { value: '   ' } });
    fireEvent.click(within(reasonDialog).getByRole('button', { name: 'Continue' }));
    expect(within(reasonDialog).getByText('Give a reason.')).toBeTruthy();
    fireEvent.change(within(reasonDialog).getByLabelText('Reason'), { target: { value: 'x'.repeat(501) } });
    expect(within(reasonDialog).getByText('At most 500 characters.')).toBeTruthy();
    fireEvent.change(within(reasonDialog).getByLabelText('Reason'), { target: { value: '  Price too high ' } });
    fireEvent.click(within(reasonDialog).getByRole('button', { name: 'Continue' }));
    expect(fetchMock).not.toHaveBeenCalled();
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Reason: Price too high');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]?.body))).toEqual({ action: 'reject', reason: 'Price too high', version: otcAwaitingPartner.version });
  });

  it('shows a refusal in the user language, and retrying the same intent sends the same key', async () => {
    const fetchMock = stubApi({ [`POST ${workflowRoutes.action(transferAwaitingAdmin.instanceId)}`]: { status: 422, body: { error: { code: 'TRANSFER_PARTNER_INSUFFICIENT_FUNDS', params: { transactionId: '1001' } } } } });
    currentUser = admin;
    renderWithDialogs('ro', <WorkflowActionsBar instance={transferAwaitingAdmin} onChanged={vi.fn()} />);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      fireEvent.click(screen.getByRole('button', { name: 'Aprobați' }));
      fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Aprobați' }));
      await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(attempt + 1));
    }
    expect((await screen.findByRole('alert')).textContent).toMatch(/1001/);
    const keys = fetchMock.mock.calls.map(([, init]) => (init?.headers as Record<string, string>)['Idempotency-Key']);
    expect(keys[0]).toBe(keys[1]);
  });

  it('reloads the instance after WORKFLOW_CONFLICT, so the user decides on what is there now', async () => {
    const now = instance('transfer', [['accept', broker2], ['approve', admin]]);
    stubApi({
      [`POST ${workflowRoutes.action(transferAwaitingAdmin.instanceId)}`]: { status: 409, body: { error: { code: 'WORKFLOW_CONFLICT', params: { instanceId: 'WF-transfer-1', version: 3 } } } },
      [`GET ${workflowRoutes.instance(transferAwaitingAdmin.instanceId)}`]: { body: now },
    });
    const onChanged = renderBar(transferAwaitingAdmin, admin);
    fireEvent.click(screen.getByRole('button', { name: 'Approve without checks' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Approve without checks' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledWith(now));
    // Said with the item's name, as its row shows it, not the instance id the catalogue message quotes.
    expect(screen.getByRole('alert').textContent).toBe('Transfer to CCP of transaction 1001 between RO-HIDRO and RO-TERMO: someone else acted on it in the meantime.');
    expect(screen.getByRole('status').textContent).toContain('Reloaded as it is now');
  });

  it('says an item that no longer exists by its name, in Romanian', async () => {
    stubApi({
      [`POST ${workflowRoutes.action(transferAwaitingAdmin.instanceId)}`]: { status: 404, body: { error: { code: 'WORKFLOW_NOT_FOUND', params: { instanceId: 'WF-transfer-1' } } } },
    });
    renderBar(transferAwaitingAdmin, admin, vi.fn(), 'ro');
    fireEvent.click(screen.getByRole('button', { name: 'Aprobați fără verificări' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Aprobați fără verificări' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Transferul la CCP al tranzacției 1001 între RO-HIDRO și RO-TERMO: nu mai există.');
  });
});
