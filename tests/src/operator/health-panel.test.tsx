// @vitest-environment jsdom
/** Connections and health: the gateway's and engine's figures, connected users and clearing status, numbers in the locale's format. */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HealthPanel } from '../../../src/operator/HealthPanel.tsx';
import { renderIn, tableRows } from '../pages/my-account/clearing-fixtures.tsx';
import { snapshot } from './operator-fixtures.tsx';

afterEach(cleanup);

const figures = (heading: string) => {
  const section = screen.getByRole('region', { name: heading });
  return [...section.querySelectorAll('dl > div')].map((row) => [row.querySelector('dt')!.textContent, (row.querySelector('dd')!.textContent ?? '').replace(/[\u00a0\u202f]/g, ' ')]);
};

describe('health panel', () => {
  it('shows the figures in English number format', () => {
    renderIn('en', <HealthPanel snapshot={snapshot()} />);
    expect(figures('Gateway')).toEqual([
      ['Connections', '1,520'],
      ['Subscriptions', '48,210'],
      ['Slow consumers dropped', '3'],
      ['Messages per second', '12,345.7'],
    ]);
    expect(figures('Engine')).toEqual([
      ['Orders per second', '1,050.5'],
      ['Journal sync p99', '2.8 ms'],
      ['Last journal sequence', '1,234,567'],
      ['Read models behind by', '12'],
      // 09:00 UTC is 11:00 in Bucharest.
      ['Last snapshot', '27/11/2026, 11:00:00 (sequence 1,200,000)'],
    ]);
    expect(screen.getByRole('heading', { name: 'Connected users (2)' })).toBeTruthy();
    expect(tableRows('Connected users')[0]).toEqual(expect.arrayContaining(['Admin', 'administrator', '1', '3']));
    expect(tableRows('Connected users')[1]).toEqual(expect.arrayContaining(['Broker Unu', '2', '1,234']));
    expect(tableRows('Last settlement runs')[0]).toEqual(['GAS-FWD', '2026-11-26', 'completed', '26/11/2026, 18:05:00']);
    expect(tableRows('Open margin calls')[0]).toEqual(['RO-TERMO', '1,234,567.89 RON']);
  });

  it('shows them in Romanian number format, and says when there is nothing', () => {
    renderIn('ro', <HealthPanel snapshot={snapshot({ connectedUsers: [], clearing: { lastRuns: [], openMarginCalls: [] }, engine: { ordersPerSecond: 0, journalSyncP99Ms: null, journalLastSeq: 0, readModelBehindBy: 0, lastSnapshotAt: null, lastSnapshotSeq: null } })} />);
    expect(figures('Gateway')).toEqual([
      ['Conexiuni', '1.520'],
      ['Abonamente', '48.210'],
      ['Consumatori lenți deconectați', '3'],
      ['Mesaje pe secundă', '12.345,7'],
    ]);
    expect(figures('Motorul de tranzacționare')[1]).toEqual(['Sincronizarea jurnalului, p99', '—']);
    expect(screen.getByRole('table', { name: 'Utilizatori conectați' }).textContent).toContain('Nu este conectat nimeni.');
    expect(screen.getByRole('table', { name: 'Apeluri în marjă deschise' }).textContent).toContain('Niciun apel în marjă deschis.');
  });
});
