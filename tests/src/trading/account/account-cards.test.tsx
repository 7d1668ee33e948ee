// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../../../src/api/errors.ts';
import type { AccountFigures, FiguresState } from '../../../../src/trading/account/account-figures.ts';
import { ClientAccountsCard, LimitsCard, PositionsCard } from '../../../../src/trading/account/AccountFigures.tsx';
import { WithIntl } from '../../components/intl.tsx';
import { asset } from '../fixtures.ts';
import { limits, plain, position } from './fixtures.ts';

afterEach(cleanup);

const data: AccountFigures = {
  positions: { amountDecimals: 2, items: [position()], at: '2026-11-22T10:00:00.000Z' },
  limits: { amountDecimals: 2, items: [limits({ code: 'RO-HIDRO' }), limits({ code: 'RO-GAZEST', client: { code: 'RO-GAZEST', name: 'Gaz Est Distributie SRL', acerCode: 'A0002345Y.RO', agencyId: 'AG-NORD', active: false } })], at: '2026-11-22T10:00:00.000Z' },
};

function figures(state: Partial<FiguresState<AccountFigures>> = {}) {
  return { status: 'ready' as const, data, error: undefined, reload: vi.fn(), ...state };
}

describe('account cards', () => {
  it('show the client general accounts, when the figures were taken and in which currency', () => {
    const state = figures();
    render(
      <WithIntl>
        <ClientAccountsCard figures={state} />
        <LimitsCard figures={state} />
        <PositionsCard figures={state} assets={[asset]} />
      </WithIntl>,
    );
    const accounts = screen.getByRole('table', { name: 'Client accounts' });
    const gazest = within(accounts).getAllByRole('row').find((row) => row.textContent?.includes('RO-GAZEST'))!;
    expect(within(gazest).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['Gaz Est Distributie SRL', 'RO-GAZEST', 'A0002345Y.RO', 'Inactive']);
    // 10:00 UTC is 12:00 in Bucharest in November.
    const meta = screen.getAllByText(/Amounts in RON/).map((node) => plain(node.textContent));
    expect(meta).toHaveLength(2);
    expect(meta[0]).toContain('12:00:00');
    expect(screen.getByRole('table', { name: 'Positions' })).toBeTruthy();
  });

  it('keep the last figures under a refusal, in the reader’s language, with a retry', () => {
    const state = figures({ status: 'error', error: new ApiRequestError('ACCOUNT_CLIENT_FORBIDDEN', { clientCode: 'RO-TERMO' }, 403) });
    render(
      <WithIntl locale="ro">
        <LimitsCard figures={state} />
      </WithIntl>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Nu puteți vedea contul clientului RO-TERMO.');
    expect(screen.getByRole('table', { name: 'Limite financiare' }).textContent).toContain('RO-HIDRO');
    fireEvent.click(within(screen.getByRole('alert')).getByRole('button'));
    expect(state.reload).toHaveBeenCalledTimes(1);
  });
});
