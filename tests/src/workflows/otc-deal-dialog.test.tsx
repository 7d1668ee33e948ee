// @vitest-environment jsdom
/** The "Register OTC deal" dialog: validation in both languages, the exposure simulator from the server's figures, and the server's refusal. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assetSpecificationSchema, type AssetSpecification } from '../../../protocol/reference.ts';
import { otcSimulationSchema, workflowRoutes, type OtcSimulation } from '../../../protocol/workflows.ts';
import { OtcDealDialog } from '../../../src/workflows/OtcDealDialog.tsx';
import { OTC_SIMULATION_DEBOUNCE_MS } from '../../../src/workflows/OtcSimulator.tsx';
import { signIn, signOut, stubApi } from '../pages/my-account/clearing-fixtures.tsx';
import { instance, renderWithDialogs } from './workflow-fixtures.tsx';

const gas: AssetSpecification = assetSpecificationSchema.parse({
  id: 'GSPOT-DA',
  marketId: 'GAS-SPOT',
  ringId: null,
  code: 'GSPOT-DA',
  name: 'Gas day ahead',
  names: { ro: 'Gaz ziua următoare', en: 'Gas day ahead' },
  type: 'day',
  unit: 'MWh',
  currency: 'RON',
  priceDecimals: 2,
  quantityDecimals: 3,
  priceStep: 1,
  quantityStep: 1000,
  minQuantity: 1000,
  maxQuantity: 1_000_000_000,
  minPrice: 1,
  maxPrice: 1_000_000,
  deliveryStart: '2026-12-01',
  deliveryEnd: '2026-12-31',
  tradingStart: '2026-11-01T00:00:00.000Z',
  tradingEnd: '2026-12-31T00:00:00.000Z',
  documents: [],
  marginBps: 1000,
});

const simulation = (partial: Partial<OtcSimulation> = {}): OtcSimulation =>
  otcSimulationSchema.parse({
    currency: 'RON',
    value: 4_650_000,
    initiator: { clientCode: 'RO-HIDRO', margin: 465_000, availableFunds: 1_000_000, sufficient: true },
    partner: { clientCode: 'RO-GAZEST', margin: 465_000, availableFunds: 100_000, sufficient: false },
    settlementPrice: 148_00,
    maxVariationPercent: 25,
    minPrice: 111_00,
    maxPrice: 185_00,
    priceWithinBand: true,
    ...partial,
  });

beforeEach(signIn);
afterEach(() => {
  cleanup();
  signOut();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function open(locale: 'en' | 'ro', onRegistered = vi.fn()) {
  renderWithDialogs(locale, <OtcDealDialog open onClose={vi.fn()} clientCodes={['RO-HIDRO', 'RO-GAZEST']} assets={[gas]} onRegistered={onRegistered} />);
  return onRegistered;
}

const change = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

function fillEnglish(overrides: Record<string, string> = {}) {
  const values: Record<string, string> = {
    'Own client': 'RO-HIDRO',
    'Partner client code': 'RO-GAZEST',
    Asset: 'GSPOT-DA',
    'Quantity (MWh)': '31',
    'Price (RON)': '150',
    'First delivery date': '2026-12-01',
    'Last delivery date': '2026-12-31',
    ...overrides,
  };
  for (const label of ['Own client', 'Partner client code', 'Asset', 'Quantity (MWh)', 'Price (RON)', 'First delivery date', 'Last delivery date']) change(label, values[label]!);
}

describe('OTC deal dialog', () => {
  it('says what is missing or wrong, in English', () => {
    stubApi({});
    open('en');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getAllByText('Field required!').length).toBeGreaterThanOrEqual(6);
    fillEnglish({ 'Partner client code': 'RO-HIDRO', 'Quantity (MWh)': '1.5', 'Price (RON)': '0', 'Last delivery date': '2026-11-30' });
    expect(screen.getByText('The partner must be another client.')).toBeTruthy();
    expect(screen.getByText('Quantity must be a multiple of 1.000 MWh')).toBeTruthy();
    expect(screen.getByText('Price must be at least 0.01 RON')).toBeTruthy();
    expect(screen.getByText('The last delivery date cannot be before the first.')).toBeTruthy();
  });

  it('says it in Romanian, the numbers the Romanian way', () => {
    stubApi({});
    renderWithDialogs('ro', <OtcDealDialog open onClose={vi.fn()} clientCodes={['RO-HIDRO']} assets={[gas]} onRegistered={vi.fn()} />);
    change('Activ', 'GSPOT-DA');
    change('Cantitate (MWh)', '1,5');
    change('Preț (RON)', '-3');
    change('Codul clientului partener', 'RO HIDRO');
    fireEvent.click(screen.getByRole('button', { name: 'Înregistrați' }));
    expect(screen.getByText('Cantitatea trebuie să fie multiplu de 1,000 MWh')).toBeTruthy();
    expect(screen.getByText('Prețul trebuie să fie de cel puțin 0,01 RON')).toBeTruthy();
    expect(screen.getByText(/Un cod de client are litere/)).toBeTruthy();
    expect(screen.getAllByText('Câmp obligatoriu!').length).toBeGreaterThanOrEqual(2);
  });

  it('simulates the draft as the user types (debounced) and shows each side, its funds and the price band', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = stubApi({ [`POST ${workflowRoutes.otcSimulation}`]: { body: simulation() } });
    open('en');
    expect(screen.getByText('Fill in the deal to see the margin it would block.')).toBeTruthy();
    fillEnglish();
    // The delivery days follow the dates until the user writes their own.
    expect((screen.getByLabelText('Delivery days') as HTMLInputElement).value).toBe('31');
    change('Price (RON)', '150.5');
    change('Price (RON)', '150');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(OTC_SIMULATION_DEBOUNCE_MS + 50);
    });
    const simulator = await screen.findByRole('region', { name: 'OTC exposure simulator' });
    await waitFor(() => expect(within(simulator).getByText('Insufficient')).toBeTruthy());
    const calls = fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/workflows/otc/simulation'));
    expect(calls).toHaveLength(1);
    expect(JSON.parse(String(calls[0]![1]?.body))).toEqual({
      clientCode: 'RO-HIDRO',
      partnerClientCode: 'RO-GAZEST',
      assetId: 'GSPOT-DA',
      way: 'bid',
      qty: 31_000,
      price: 150_00,
      firstDeliveryDate: '2026-12-01',
      lastDeliveryDate: '2026-12-31',
      noDeliveryDays: 31,
    });
    const initiatorRow = simulator.querySelector('tr[data-side="initiator"]')!;
    expect(initiatorRow.textContent).toContain('Own client RO-HIDRO');
    expect(initiatorRow.textContent).toContain('Sufficient');
    expect(initiatorRow.textContent?.replace(/\u00a0/g, ' ')).toContain('4,650.00');
    expect(simulator.querySelector('tr[data-side="partner"]')!.textContent).toContain('Insufficient');
    expect(within(simulator).getByText(/Allowed price: 111\.00 RON to 185\.00 RON \(settlement price 148\.00 RON ± 25%\)/)).toBeTruthy();
    expect(within(simulator).getByText('The price is within the band.')).toBeTruthy();
  });

  it('shows an out-of-band price, and the server refusal OTC_PRICE_VARIATION with the bound', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = stubApi({
      [`POST ${workflowRoutes.otcSimulation}`]: { body: simulation({ priceWithinBand: false, partner: null }) },
      [`POST ${workflowRoutes.otc}`]: { status: 422, body: { error: { code: 'OTC_PRICE_VARIATION', params: { maxPercent: 25, settlementPrice: '148.00' } } } },
    });
    const onRegistered = open('en');
    fillEnglish({ 'Price (RON)': '200' });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(OTC_SIMULATION_DEBOUNCE_MS + 50);
    });
    expect(await screen.findByText('The price is outside the band: the deal would be refused.')).toBeTruthy();
    expect(screen.getByText('The partner’s funds are checked when it accepts.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The price differs by more than 25% from the settlement price of 148.00.');
    expect(onRegistered).not.toHaveBeenCalled();
    const post = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/workflows/otc'))!;
    expect((post[1]?.headers as Record<string, string>)['Idempotency-Key']).toBeTruthy();
  });

  it('registers a valid deal and hands the new instance over', async () => {
    const created = instance('otc');
    stubApi({ [`POST ${workflowRoutes.otc}`]: { body: created }, [`POST ${workflowRoutes.otcSimulation}`]: { body: simulation() } });
    const onRegistered = open('en');
    fillEnglish();
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(onRegistered).toHaveBeenCalledWith(created));
  });
});
