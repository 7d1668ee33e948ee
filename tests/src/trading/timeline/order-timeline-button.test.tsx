// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderTimeline } from '../../../../protocol/order-timeline.ts';
import { OrderTimelineButton } from '../../../../src/trading/timeline/OrderTimelineButton.tsx';
import { WithIntl } from '../../components/intl.tsx';
import { asset, order } from '../fixtures.ts';

const timeline: OrderTimeline = {
  order: order({ orderId: '12', price: 15000, qty: 100 }),
  amountDecimals: 2,
  readModel: { seq: 3, behindBy: 0 },
  entries: [{ seq: 1, at: '2026-11-22T09:01:01.000Z', kind: 'entered', price: 15000, qty: 100, validityType: 'GTC', validity: null, suspended: true }],
};
const fetchOrderTimeline = vi.hoisted(() => vi.fn());
vi.mock('../../../../src/trading/timeline/order-timeline.api.ts', () => ({ fetchOrderTimeline }));

afterEach(cleanup);

describe('OrderTimelineButton', () => {
  it('opens the order\'s timeline from a row action (icon, named) and closes it', async () => {
    fetchOrderTimeline.mockResolvedValue(timeline);
    render(
      <WithIntl locale="en">
        <OrderTimelineButton orderId="12" assets={[asset]} variant="icon" />
      </WithIntl>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchOrderTimeline).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Timeline of order 12' }));
    const dialog = await screen.findByRole('dialog', { name: 'Timeline of order 12' });
    expect(fetchOrderTimeline).toHaveBeenCalledWith('12', expect.any(AbortSignal));
    const entry = within(await within(dialog).findByRole('list', { name: 'Order timeline' })).getByRole('listitem');
    expect(entry.textContent).toContain('Entered suspended (off the book).');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is a worded button in Romanian where there is room', () => {
    render(
      <WithIntl locale="ro">
        <OrderTimelineButton orderId="12" assets={[asset]} />
      </WithIntl>,
    );
    const button = screen.getByRole('button', { name: 'Cronologia ordinului 12' });
    expect(button.textContent).toBe('Cronologie');
  });
});
