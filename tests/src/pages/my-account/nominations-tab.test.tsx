// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearingRoutes, nominationSchema } from '../../../../protocol/clearing.ts';
import { isNominationOpen, NominationsTab } from '../../../../src/pages/my-account/NominationsTab.tsx';
import { exportCsv, filterFrom, list, nomination, renderIn, signIn, signOut, sortBy, stubApi, tableRows } from './clearing-fixtures.tsx';

const open = nomination();
const locked = nomination({ nominationId: 'NOM2', transactionId: 'T-201', deliveryDay: '2026-11-20', nominatedQty: 100_000, contractedQty: 120_000, deadline: '2026-11-19T12:00:00.000Z', locked: true, updatedBy: 'broker1' });

beforeEach(signIn);
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

/** The row's quantity input (the table's only text box; the From/To date fields are text boxes too). */
async function quantityBox(): Promise<HTMLElement> {
  return within(await screen.findByRole('table')).findByRole('textbox');
}

describe('nominations tab', () => {
  it('edits an open nomination: the PUT carries the quantity in minor units and the row shows what the server saved', async () => {
    const saved = { ...open, nominatedQty: 180_500, updatedAt: '2098-12-31T11:00:00.000Z', updatedBy: 'broker1' };
    const fetchMock = stubApi({
      [clearingRoutes.nominations]: list([open, locked]),
      [`PUT ${clearingRoutes.nominations}/NOM1`]: { body: nominationSchema.parse(saved) },
    });
    renderIn('en', <NominationsTab />);
    const input = await screen.findByRole('textbox', { name: 'Nominated quantity of GSPOT-DA for 2099-01-02' });
    expect((input as HTMLInputElement).value).toBe('240.000');
    fireEvent.change(input, { target: { value: '180.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const [url, init] = fetchMock.mock.calls.find(([, call]) => call?.method === 'PUT')!;
    expect(url).toBe('/session/api/clearing/nominations/NOM1');
    expect(JSON.parse(String(init?.body))).toEqual({ nominatedQty: 180_500 });
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Nominated quantity of GSPOT-DA for 2099-01-02' }) as HTMLInputElement).value).toBe('180.500'));
  });

  it('does not offer a locked row for editing, and says it is locked', async () => {
    stubApi({ [clearingRoutes.nominations]: list([open, locked]) });
    renderIn('ro', <NominationsTab />);
    await waitFor(() => expect(tableRows('Nominalizări')).toHaveLength(2));
    const lockedRow = screen.getByRole('table', { name: 'Nominalizări' }).querySelector('tr[data-row-key="NOM2"]') as HTMLElement;
    expect(within(lockedRow).queryByRole('textbox')).toBeNull();
    expect(within(lockedRow).queryByRole('button')).toBeNull();
    expect(lockedRow.textContent).toContain('100,000');
    expect(lockedRow.textContent).toContain('Blocată');
    // The deadline in exchange time: 12:00 UTC is 14:00 in Bucharest in November.
    expect(lockedRow.textContent).toContain('14:00:00');
    expect(isNominationOpen({ ...open, deadline: '2020-01-01T00:00:00.000Z' }, Date.now())).toBe(false);
  });

  it('writes the quantity the Romanian way and takes either decimal mark', async () => {
    const fetchMock = stubApi({
      [clearingRoutes.nominations]: list([open]),
      [`PUT ${clearingRoutes.nominations}/NOM1`]: { body: nominationSchema.parse({ ...open, nominatedQty: 99_250, updatedAt: '2098-12-31T12:00:00.000Z' }) },
    });
    renderIn('ro', <NominationsTab />);
    const input = (await quantityBox()) as HTMLInputElement;
    expect(input.value).toBe('240,000');
    fireEvent.change(input, { target: { value: '99,25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvați' }));
    await waitFor(() => expect((within(screen.getByRole('table')).getByRole('textbox') as HTMLInputElement).value).toBe('99,250'));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(JSON.parse(String(put[1]?.body))).toEqual({ nominatedQty: 99_250 });
    // Too many decimals for the asset: not sent.
    fireEvent.change(within(screen.getByRole('table')).getByRole('textbox'), { target: { value: '1,2345' } });
    expect((screen.getByRole('button', { name: 'Salvați' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(screen.getByRole('table')).getByRole('textbox').getAttribute('aria-invalid')).toBe('true');
  });

  it('shows the server’s refusal beside the row', async () => {
    stubApi({
      [clearingRoutes.nominations]: list([open]),
      [`PUT ${clearingRoutes.nominations}/NOM1`]: { status: 403, body: { error: { code: 'ACCOUNT_CLIENT_FORBIDDEN', params: { clientCode: 'RO-HIDRO' } } } },
    });
    renderIn('ro', <NominationsTab />);
    fireEvent.change(await quantityBox(), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvați' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Nu puteți vedea contul clientului RO-HIDRO.');
  });

  it('sorts, filters by delivery day, pages and exports', async () => {
    stubApi({ [clearingRoutes.nominations]: list([open, locked]) });
    renderIn('en', <NominationsTab />);
    await waitFor(() => expect(tableRows('Nominations')).toHaveLength(2));
    expect(tableRows('Nominations').map((cells) => cells[1])).toEqual(['T-201', 'T-200']);
    sortBy('Nominations', 'Contracted quantity');
    sortBy('Nominations', 'Contracted quantity');
    expect(tableRows('Nominations').map((cells) => cells[1])).toEqual(['T-200', 'T-201']);
    const file = await exportCsv();
    expect(file.text).toBe(
      '\uFEFFDelivery day,Transaction,Client,Asset,Side,Contracted quantity,Nominated quantity,Unit,Nomination deadline,Status,Updated at\r\n' +
        '2099-01-02,T-200,RO-HIDRO,GSPOT-DA,bid,240.000,240.000,MWh,2099-01-01T12:00:00.000Z,open,2098-12-31T10:00:00.000Z\r\n' +
        '2026-11-20,T-201,RO-HIDRO,GSPOT-DA,bid,120.000,100.000,MWh,2026-11-19T12:00:00.000Z,locked,2098-12-31T10:00:00.000Z\r\n',
    );
    filterFrom('From', '2027-01-01');
    expect(screen.getByText('1-1 of 1')).toBeTruthy();
  });
});
