// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AssetInfoView } from '../../../../src/trading/session/AssetInfo.tsx';
import { WithIntl } from '../../components/intl.tsx';
import { asset } from '../fixtures.ts';

afterEach(cleanup);

const market = { id: 'GAS-SPOT', name: 'Gas spot', names: { ro: 'Gaze naturale spot', en: 'Gas spot' }, commodity: 'gas', kind: 'spot', workspaceType: 'gas', currency: 'RON' } as const;
const ring = { id: 'R-GAS-DAY', marketId: 'GAS-SPOT', name: 'Gas day ring', names: { ro: 'Ring gaze zilnic', en: 'Gas day ring' } };
const withDocuments = { ...asset, documents: [{ title: 'Contract specification', fileName: 'GSPOT-DA-specification.pdf', url: '/session/api/assets/GSPOT-DA/documents/GSPOT-DA-specification.pdf' }] };

const value = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

describe('trading asset info', () => {
  it('shows type, market, ring, periods, steps and limits in the asset units, and the documents to download (en)', () => {
    render(
      <WithIntl locale="en">
        <AssetInfoView asset={withDocuments} market={market} ring={ring} />
      </WithIntl>,
    );
    expect(screen.getByRole('heading', { name: 'Trading asset' })).toBeTruthy();
    expect(value('Type')).toBe('Day');
    expect(value('Market')).toBe('Gas spot · Spot');
    expect(value('Ring')).toBe('Gas day ring');
    expect(value('Delivery period')).toBe('23 Nov 2026');
    expect(value('Unit and currency')).toBe('MWh · RON');
    expect(value('Price step')).toBe('0.01 RON');
    expect(value('Quantity step')).toBe('1.0 MWh');
    expect(value('Minimum quantity')).toBe('1.0 MWh');
    expect(value('Price limits')).toBe('0.01 – 5,000.00 RON');
    const link = screen.getByRole('link', { name: 'Contract specification' });
    expect(link.getAttribute('href')).toBe('/session/api/assets/GSPOT-DA/documents/GSPOT-DA-specification.pdf');
    expect(link.getAttribute('download')).toBe('GSPOT-DA-specification.pdf');
  });

  it('speaks Romanian, without a ring or documents', () => {
    render(
      <WithIntl locale="ro">
        <AssetInfoView asset={{ ...asset, ringId: null }} market={market} ring={null} />
      </WithIntl>,
    );
    expect(screen.getByRole('heading', { name: 'Activ tranzacționat' })).toBeTruthy();
    expect(value('Ring')).toBe('Niciunul');
    expect(value('Piață')).toBe('Gaze naturale spot · Spot');
    expect(value('Tip')).toBe('Zi');
    expect(value('Limite de preț')).toBe('0,01 – 5.000,00 RON');
  });
});
