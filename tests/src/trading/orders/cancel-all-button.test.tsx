// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CancelAllRequest, CancelAllResult } from '../../../../protocol/orders.ts';
import { ApiRequestError } from '../../../../src/api/errors.ts';
import { DialogProvider } from '../../../../src/components/dialogs/DialogProvider.tsx';
import { CancelAllButton } from '../../../../src/trading/orders/CancelAllButton.tsx';
import { WithIntl } from '../../components/intl.tsx';

afterEach(cleanup);

const answer: CancelAllResult = { seq: 12, cancelled: ['1', '2'], refused: [{ orderId: '3', code: 'SESSION_SUSPENDED', params: {} }] };

function renderButton(cancelAll: (filter: CancelAllRequest, key: string) => Promise<CancelAllResult>, props: { assetId?: string; count?: number } = {}, locale: 'en' | 'ro' = 'en') {
  return render(
    <WithIntl locale={locale}>
      <DialogProvider>
        <CancelAllButton count={props.count ?? 3} cancelAll={cancelAll} {...(props.assetId ? { assetId: props.assetId } : {})} />
      </DialogProvider>
    </WithIntl>,
  );
}

describe('cancel all my orders', () => {
  it('asks first, then shows how many were cancelled and why each refused one stayed', async () => {
    const cancelAll = vi.fn(async () => answer);
    renderButton(cancelAll);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel all my orders' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('3 shown here');
    expect(cancelAll).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel them all' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('2 orders cancelled, 1 left:');
    expect(status.textContent).toContain('Order 3: The session is suspended.');
    expect(cancelAll).toHaveBeenCalledTimes(1);
    const [filter, key] = cancelAll.mock.calls[0] as unknown as [CancelAllRequest, string];
    expect(filter).toEqual({});
    expect(key).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  });

  it('a dismissed confirmation sends nothing; on an asset page only that asset is asked for', async () => {
    const cancelAll = vi.fn(async () => ({ seq: 1, cancelled: ['5'], refused: [] }));
    renderButton(cancelAll, { assetId: 'GSPOT-DA', count: 1 });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel all my orders on this asset' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(cancelAll).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel all my orders on this asset' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel them all' }));
    expect((await screen.findByRole('status')).textContent).toBe('1 order cancelled.');
    expect(cancelAll).toHaveBeenCalledWith({ assetId: 'GSPOT-DA' }, expect.any(String));
  });

  it('in Romanian, and a refusal of the whole call goes to the error dialog', async () => {
    const cancelAll = vi.fn(async (): Promise<CancelAllResult> => {
      throw new ApiRequestError('FORBIDDEN', { scope: 'trading:write' }, 403);
    });
    renderButton(cancelAll, {}, 'ro');
    fireEvent.click(screen.getByRole('button', { name: 'Anulează toate ordinele mele' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Anulează-le pe toate' }));
    await waitFor(() => expect(cancelAll).toHaveBeenCalled());
    expect(screen.queryByRole('status')).toBeNull();
    await waitFor(() => expect(document.body.textContent).toContain('Nu aveți dreptul să efectuați această operațiune (drept necesar: trading:write).'));
  });

  it('nothing to cancel: the button is disabled', () => {
    renderButton(vi.fn(), { count: 0 });
    expect((screen.getByRole('button', { name: 'Cancel all my orders' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
