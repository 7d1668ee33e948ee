// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Market, Ring } from '../../../protocol/reference.ts';
import { WorkspaceDialog, type WorkspaceReference } from '../../../src/trading/Workspaces.tsx';
import { WithIntl } from '../components/intl.tsx';
import { asset } from './fixtures.ts';

afterEach(cleanup);

const market: Market = { id: 'GAS-SPOT', name: 'Gas spot', names: { ro: 'Gaze naturale spot', en: 'Gas spot' }, commodity: 'gas', kind: 'spot', workspaceType: 'gas', currency: 'RON' };
const rings: Ring[] = [
  { id: 'R-GAS-DAY', marketId: 'GAS-SPOT', name: 'Day ring', names: { ro: 'Ring zilnic', en: 'Day ring' } },
  { id: 'R-GAS-WE', marketId: 'GAS-SPOT', name: 'Weekend ring', names: { ro: 'Ring de weekend', en: 'Weekend ring' } },
];
const reference: WorkspaceReference = {
  markets: [market],
  rings,
  assets: [
    asset,
    { ...asset, id: 'GSPOT-ID', code: 'GSPOT-ID', ringId: 'R-GAS-DAY' },
    { ...asset, id: 'GSPOT-WE', code: 'GSPOT-WE', ringId: 'R-GAS-WE' },
  ],
};

function renderDialog(onSave = vi.fn(), locale: 'en' | 'ro' = 'en') {
  render(
    <WithIntl locale={locale}>
      <WorkspaceDialog open initial={null} reference={reference} busy={false} error={null} onSave={onSave} onClose={() => {}} />
    </WithIntl>,
  );
  return onSave;
}

describe('WorkspaceDialog rings', () => {
  it('a picked ring checks and locks its assets, and is saved as a ring', () => {
    const onSave = renderDialog();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Day desk' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Day ring' }));
    const day = screen.getByRole('checkbox', { name: 'GSPOT-DA' }) as HTMLInputElement;
    const intraday = screen.getByRole('checkbox', { name: 'GSPOT-ID' }) as HTMLInputElement;
    const weekend = screen.getByRole('checkbox', { name: 'GSPOT-WE' }) as HTMLInputElement;
    expect([day.checked, day.disabled, intraday.checked, intraday.disabled]).toEqual([true, true, true, true]);
    expect([weekend.checked, weekend.disabled]).toEqual([false, false]);
    fireEvent.click(weekend);
    fireEvent.click(screen.getByRole('button', { name: 'Save workspace' }));
    expect(onSave).toHaveBeenCalledWith({ name: 'Day desk', type: 'gas', marketId: 'GAS-SPOT', assetIds: ['GSPOT-WE'], ringIds: ['R-GAS-DAY'] });
  });

  it('unpicking the ring frees its assets again (Romanian)', () => {
    renderDialog(vi.fn(), 'ro');
    const ring = screen.getByRole('checkbox', { name: 'Ring zilnic' });
    fireEvent.click(ring);
    fireEvent.click(ring);
    const day = screen.getByRole('checkbox', { name: 'GSPOT-DA' }) as HTMLInputElement;
    expect([day.checked, day.disabled]).toEqual([false, false]);
    expect(screen.getByText('Un ring ales afișează toate activele sale, inclusiv cele adăugate ulterior.')).toBeTruthy();
  });
});
