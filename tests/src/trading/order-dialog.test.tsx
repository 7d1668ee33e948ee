// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storedClientMemory, type ClientMemory } from '../../../machines/client-memory.ts';
import type { PhasePermissions } from '../../../machines/session-phase.machine.ts';
import { ApiCallError, type OrderSubmission, type OrdersApi } from '../../../streams/api.ts';
import { OrderDialog, type OrderTicketRequest } from '../../../src/trading/OrderDialog.tsx';
import { WithIntl } from '../components/intl.tsx';
import { asset, order } from './fixtures.ts';

afterEach(cleanup);

const trading: PhasePermissions = { phase: 'trading', canPlace: true, canModify: true, canChangePrice: true, canCancel: true, canSuspend: true, canActivate: true };
const suspended: PhasePermissions = { phase: 'suspended', canPlace: false, canModify: false, canChangePrice: false, canCancel: false, canSuspend: false, canActivate: false };

function Harness({
  api,
  initial,
  permissions = trading,
  onAccepted,
  locale = 'en',
  fundsOf = async () => null,
  clientMemory = null,
}: {
  api: OrdersApi;
  initial: OrderTicketRequest;
  permissions?: PhasePermissions | null;
  onAccepted?: () => void;
  locale?: 'en' | 'ro';
  fundsOf?: (clientCode: string) => Promise<number | null>;
  clientMemory?: ClientMemory | null;
}) {
  const [request, setRequest] = useState<OrderTicketRequest | null>(initial);
  return (
    <WithIntl locale={locale}>
      <span data-testid="open">{request ? 'open' : 'closed'}</span>
      <OrderDialog
        request={request}
        onClose={() => setRequest(null)}
        api={api}
        clientCodes={['RO-HIDRO', 'RO-GAZEST']}
        permissions={permissions}
        keyPrefix="test-key"
        fundsOf={fundsOf}
        clientMemory={clientMemory}
        {...(onAccepted ? { onAccepted } : {})}
      />
    </WithIntl>
  );
}

function fakeApi(result: (submission: OrderSubmission) => Promise<unknown>) {
  const submit = vi.fn(result);
  return { api: { submit } as unknown as OrdersApi, submit };
}

describe('order dialog', () => {
  it('shows the client\'s available funds and warns when the margin exceeds them (both languages)', async () => {
    const { api } = fakeApi(async () => order());
    const fundsOf = vi.fn(async (clientCode: string) => (clientCode === 'RO-GAZEST' ? 10_000 : null));
    const { unmount } = render(<Harness api={api} fundsOf={fundsOf} initial={{ mode: 'add', asset, defaults: { way: 'bid', price: '151.00', qty: '12.0' } }} />);
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByTestId('available-funds')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Client code'), { target: { value: 'RO-GAZEST' } });
    expect((await within(dialog).findByTestId('available-funds')).textContent).toBe('100.00 RON');
    // Margin 181.20 RON (10% of 1,812.00) against 100.00 available: 81.20 short.
    expect(within(dialog).getByTestId('funds-shortfall').textContent).toBe('The margin exceeds the available funds: the exchange will refuse the order unless 81.20 RON more is deposited.');
    fireEvent.change(within(dialog).getByLabelText('Quantity (MWh)'), { target: { value: '5.0' } });
    expect(within(dialog).queryByTestId('funds-shortfall')).toBeNull();
    unmount();

    render(<Harness api={api} locale="ro" fundsOf={fundsOf} initial={{ mode: 'add', asset, defaults: { way: 'bid', price: '151.00', qty: '12.0', clientCode: 'RO-GAZEST' } }} />);
    dialog = await screen.findByRole('dialog');
    expect((await within(dialog).findByTestId('funds-shortfall')).textContent).toBe('Marja depășește fondurile disponibile: bursa va refuza ordinul dacă nu se depun încă 81,20 RON.');
  });

  it('shows the SPEC messages for an incomplete form and the rule for an invalid one, and sends nothing', async () => {
    const { api, submit } = fakeApi(async () => order());
    render(<Harness api={api} initial={{ mode: 'add', asset, defaults: { way: 'bid' } }} />);
    const dialog = await screen.findByRole('dialog', { name: 'New order: Gas day-ahead' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send order' }));
    expect(await within(dialog).findByText('Price is required!')).toBeTruthy();
    // Quantity and client code both missing.
    expect(within(dialog).getAllByText('Field required!')).toHaveLength(2);
    expect(within(dialog).getByLabelText('Price (RON)').getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(within(dialog).getByLabelText('Price (RON)'), { target: { value: '150.005' } });
    fireEvent.change(within(dialog).getByLabelText('Quantity (MWh)'), { target: { value: '0.5' } }); // below the minimum of 1.0
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send order' }));
    expect(await within(dialog).findByText('Price must be a multiple of 0.01 RON')).toBeTruthy();
    expect(within(dialog).getByText('Quantity must be between 1.0 and 10,000.0 MWh')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Quantity (MWh)'), { target: { value: '2.5' } }); // off the 1.0 step
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send order' }));
    expect(await within(dialog).findByText('Quantity must be a multiple of 1.0 MWh')).toBeTruthy();
    expect(submit).not.toHaveBeenCalled();
  });

  it('starts a new order with the client last used on the asset (per user, kept in localStorage)', async () => {
    localStorage.clear();
    const { api } = fakeApi(async () => order());
    const first = render(<Harness api={api} clientMemory={storedClientMemory('broker1')} initial={{ mode: 'add', asset, defaults: { way: 'bid', price: '151.00', qty: '2.0' } }} />);
    let dialog = await screen.findByRole('dialog');
    const client = () => (within(dialog).getByLabelText('Client code') as HTMLSelectElement).value;
    expect(client()).toBe(''); // two clients, none remembered yet: the user picks
    fireEvent.change(within(dialog).getByLabelText('Client code'), { target: { value: 'RO-GAZEST' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send order' }));
    await waitFor(() => expect(screen.getByTestId('open').textContent).toBe('closed'));
    first.unmount();
    expect(JSON.parse(localStorage.getItem('exchange.ticket.lastClient.broker1') ?? '{}')).toEqual({ 'GSPOT-DA': 'RO-GAZEST' });

    const again = render(<Harness api={api} clientMemory={storedClientMemory('broker1')} initial={{ mode: 'add', asset, defaults: { way: 'ask' } }} />);
    dialog = await screen.findByRole('dialog');
    expect(client()).toBe('RO-GAZEST');
    again.unmount();
    // Another asset, and another user on the same asset, start without it.
    const other = render(<Harness api={api} clientMemory={storedClientMemory('broker1')} initial={{ mode: 'add', asset: { ...asset, id: 'GSPOT-WD' }, defaults: { way: 'ask' } }} />);
    dialog = await screen.findByRole('dialog');
    expect(client()).toBe('');
    other.unmount();
    render(<Harness api={api} clientMemory={storedClientMemory('agency1')} initial={{ mode: 'add', asset, defaults: { way: 'ask' } }} />);
    dialog = await screen.findByRole('dialog');
    expect(client()).toBe('');
  });

  it('states the rule in Romanian with Romanian numbers', async () => {
    const { api, submit } = fakeApi(async () => order());
    render(<Harness api={api} locale="ro" initial={{ mode: 'add', asset, defaults: { way: 'bid', clientCode: 'RO-HIDRO', price: '150.005', qty: '20000' } }} />);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Trimite ordinul' }));
    expect(await within(dialog).findByText('Prețul trebuie să fie multiplu de 0,01 RON')).toBeTruthy();
    expect(within(dialog).getByText('Cantitatea trebuie să fie între 1,0 și 10.000,0 MWh')).toBeTruthy();
    expect(submit).not.toHaveBeenCalled();
  });

  it('sends a valid order with Enter, in minor units, shows the order value, and closes', async () => {
    const { api, submit } = fakeApi(async () => order());
    const onAccepted = vi.fn();
    render(<Harness api={api} onAccepted={onAccepted} initial={{ mode: 'add', asset, defaults: { way: 'ask', price: '151.00' } }} />);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Quantity (MWh)'), { target: { value: '12.0' } });
    fireEvent.change(within(dialog).getByLabelText('Client code'), { target: { value: 'RO-GAZEST' } });
    expect(within(dialog).getByTestId('order-value').textContent).toBe('1,812.00 RON');
    // 10% of the value, as the engine will block it (marginBps 1000).
    expect(within(dialog).getByTestId('order-margin').textContent).toBe('181.20 RON');
    fireEvent.keyDown(within(dialog).getByLabelText('Quantity (MWh)'), { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('open').textContent).toBe('closed'));
    expect(submit).toHaveBeenCalledTimes(1);
    const submission = submit.mock.calls[0]![0] as Extract<OrderSubmission, { mode: 'add' }>;
    expect(submission.request).toMatchObject({
      idempotencyKey: 'test-key-1',
      assetId: 'GSPOT-DA',
      way: 'ask',
      price: 15100,
      qty: 120,
      validityType: 'day',
      executionType: 'normal',
      clientCode: 'RO-GAZEST',
    });
    expect(onAccepted).toHaveBeenCalledTimes(1);
  });

  it('shows a refusal of the server translated with its parameters, in both languages', async () => {
    const refusal = () => Promise.reject(new ApiCallError('ORDER_SESSION_MIN_PRICE', { bound: '1120.50', currency: 'RON' }, 422));
    const { api } = fakeApi(refusal);
    render(<Harness api={api} initial={{ mode: 'add', asset, defaults: { way: 'bid', price: '100.00', qty: '1.0', clientCode: 'RO-HIDRO' } }} />);
    let dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send order' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The price is below the session minimum of 1,120.50 RON.');
    expect(screen.getByTestId('open').textContent).toBe('open');
    cleanup();

    render(<Harness locale="ro" api={fakeApi(refusal).api} initial={{ mode: 'add', asset, defaults: { way: 'bid', price: '100.00', qty: '1.0', clientCode: 'RO-HIDRO' } }} />);
    dialog = await screen.findByRole('dialog', { name: 'Ordin nou: Gaze naturale ziua următoare' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Trimite ordinul' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Prețul este sub minimul sesiunii de 1.120,50 RON.');
  });

  it('blocks an action the session phase forbids with the server code, without a request', async () => {
    const { api, submit } = fakeApi(async () => order());
    render(<Harness api={api} permissions={suspended} initial={{ mode: 'cancel', asset, order: order({ orderId: 'O-77' }) }} />);
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order O-77?' });
    expect(within(dialog).getByText('Bid 10.0 MWh at 150.00, for RO-HIDRO')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The session is suspended.');
    expect(submit).not.toHaveBeenCalled();
  });

  it('cancels, suspends and modifies the order it was opened for', async () => {
    const { api, submit } = fakeApi(async () => order());
    render(<Harness api={api} initial={{ mode: 'suspend', asset, order: order({ orderId: 'O-9' }) }} />);
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Suspend order' }));
    await waitFor(() => expect(submit).toHaveBeenCalledWith({ mode: 'suspend', orderId: 'O-9' }, expect.anything()));
    cleanup();

    render(<Harness api={api} initial={{ mode: 'modify', asset, order: order({ orderId: 'O-9' }) }} />);
    const dialog = await screen.findByRole('dialog', { name: 'Modify order O-9' });
    expect((within(dialog).getByLabelText('Price (RON)') as HTMLInputElement).value).toBe('150.00');
    expect((within(dialog).getByLabelText('Direction') as HTMLSelectElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Price (RON)'), { target: { value: '149.50' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(2));
    expect(submit.mock.calls[1]![0]).toMatchObject({ mode: 'modify', orderId: 'O-9', request: { price: 14950, qty: 100, validityType: 'day' } });
  });

  it('moves a new order to another asset of the market with the asset select, keeping way and client', async () => {
    const { api } = fakeApi(async () => order());
    const onAssetChange = vi.fn();
    const withinDay = { ...asset, id: 'GSPOT-WD', code: 'GSPOT-WD', name: 'Gas within-day' };
    render(
      <WithIntl>
        <OrderDialog
          request={{ mode: 'add', asset, defaults: { way: 'ask', clientCode: 'RO-HIDRO', price: '150.00' } }}
          onClose={() => undefined}
          api={api}
          clientCodes={['RO-HIDRO']}
          permissions={trading}
          markets={[{ id: 'GAS-SPOT', name: 'Gas spot', names: { ro: 'Gaze naturale spot', en: 'Gas spot' }, commodity: 'gas', kind: 'spot', workspaceType: 'gas', currency: 'RON' }]}
          assets={[asset, withinDay, { ...asset, id: 'EL-1', marketId: 'EL-SPOT', code: 'EL-1' }]}
          onAssetChange={onAssetChange}
        />
      </WithIntl>,
    );
    const dialog = await screen.findByRole('dialog');
    const select = within(dialog).getByLabelText('Asset') as HTMLSelectElement;
    expect([...select.options].map((option) => option.value)).toEqual(['GSPOT-DA', 'GSPOT-WD']); // the market's assets only
    fireEvent.change(select, { target: { value: 'GSPOT-WD' } });
    expect(onAssetChange).toHaveBeenCalledWith(withinDay, { way: 'ask', clientCode: 'RO-HIDRO', validityType: 'day', executionType: 'normal' });
  });

  it('closes with Escape without sending', async () => {
    const { api, submit } = fakeApi(async () => order());
    render(<Harness api={api} initial={{ mode: 'add', asset, defaults: { way: 'bid' } }} />);
    const dialog = await screen.findByRole('dialog');
    fireEvent.keyDown(within(dialog).getByLabelText('Price (RON)'), { key: 'Escape' });
    await waitFor(() => expect(screen.getByTestId('open').textContent).toBe('closed'));
    expect(submit).not.toHaveBeenCalled();
  });
});
