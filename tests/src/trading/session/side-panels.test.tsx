// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { sessionPhaseMachineFrom } from '../../../../machines/session-phase.machine.ts';
import type { Connection } from '../../../../streams/connection.ts';
import type { SessionStats } from '../../../../protocol/market-data.ts';
import type { AssetSpecification, Market, PhaseUpdate } from '../../../../protocol/reference.ts';
import { assetPhase, foldMarketSession, sessionPhaseUpdates, type MarketSession } from '../../../../src/trading/session/session-live.ts';
import { changeBps, SideAssetsView } from '../../../../src/trading/session/SideAssets.tsx';
import { SidePanel } from '../../../../src/trading/session/SidePanel.tsx';
import { SideSessionRow, SideSessionView } from '../../../../src/trading/session/SideSession.tsx';
import type { PhaseInfo } from '../../../../src/trading/session/PhaseWidget.tsx';
import { WithIntl } from '../../components/intl.tsx';
import { asset } from '../fixtures.ts';

const NOW = Date.parse('2026-11-22T08:00:00.000Z');

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
  window.localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const update = (phase: PhaseUpdate['phase'], assetId: string | null = null, partial: Partial<PhaseUpdate> = {}): PhaseUpdate => ({
  marketId: 'GAS-SPOT',
  assetId,
  phase,
  sessionDate: '2026-11-22',
  at: '2026-11-22T07:00:00.000Z',
  nextPhase: 'closing',
  nextPhaseAt: '2026-11-22T21:40:00.000Z',
  ...partial,
});

describe("a market's session folded from its phase topic", () => {
  it('keeps the assets apart from the market until the next market-level update', () => {
    const fold = foldMarketSession('GAS-SPOT');
    let session: MarketSession | null = fold(null, update('suspended', 'GSPOT-WD'));
    expect(session).toBeNull();
    session = fold(session, update('trading'));
    session = fold(session, update('suspended', 'GSPOT-WD'));
    session = fold(session, update('closed', null, { marketId: 'OTHER' }));
    expect(assetPhase(session, 'GSPOT-WD')).toBe('suspended');
    expect(assetPhase(session, 'GSPOT-DA')).toBe('trading');
    expect(session).toMatchObject({ phase: 'trading', nextPhase: 'closing', nextPhaseAt: '2026-11-22T21:40:00.000Z' });
    // The operator resumes it: back to the market's phase.
    session = fold(session, update('trading', 'GSPOT-WD'));
    expect(session!.assets.size).toBe(0);
    session = fold(session, update('suspended', 'GSPOT-WD'));
    // The market closes: every asset with it.
    session = fold(session, update('closed', null, { nextPhase: 'opening', nextPhaseAt: '2026-11-22T22:00:00.000Z' }));
    expect(assetPhase(session, 'GSPOT-WD')).toBe('closed');
    expect(session).toMatchObject({ phase: 'closed', nextPhase: 'opening' });
    expect(assetPhase(null, 'GSPOT-DA')).toBeNull();
  });
});

describe('session-phase machines fed from the shared fold', () => {
  it('gives the market and each asset their phase and next phase over one subscription of the phase topic', () => {
    const topic = new Subject<PhaseUpdate>();
    const watch = vi.fn(() => topic.asObservable());
    const connection = { watch$: watch } as unknown as Connection;
    const market = createActor(sessionPhaseMachineFrom(sessionPhaseUpdates(connection, 'GAS-SPOT', null)), { input: { marketId: 'GAS-SPOT' } }).start();
    const weekend = createActor(sessionPhaseMachineFrom(sessionPhaseUpdates(connection, 'GAS-SPOT', 'GSPOT-WD')), { input: { marketId: 'GAS-SPOT', assetId: 'GSPOT-WD' } }).start();
    topic.next(update('trading'));
    topic.next(update('suspended', 'GSPOT-WD'));
    expect(market.getSnapshot().context).toMatchObject({ phase: 'trading', nextPhase: 'closing', nextPhaseAt: '2026-11-22T21:40:00.000Z' });
    expect(weekend.getSnapshot().context).toMatchObject({ phase: 'suspended', nextPhase: 'closing' });
    topic.next(update('closed', null, { nextPhase: 'opening', nextPhaseAt: '2026-11-22T22:00:00.000Z' }));
    expect(weekend.getSnapshot().context).toMatchObject({ phase: 'closed', nextPhase: 'opening' });
    expect(watch).toHaveBeenCalledTimes(1);
    market.stop();
    weekend.stop();
  });
});

describe('side assets', () => {
  const weekend: AssetSpecification = { ...asset, id: 'GSPOT-WD', code: 'GSPOT-WD', name: 'Gas weekend', type: 'weekend' };
  const within2: AssetSpecification = { ...asset, id: 'GSPOT-WDA', code: 'GSPOT-WDA', name: 'Gas within-day', type: 'within-day' };
  const stats = (assetId: string, lastPrice: number | null, settlementPrice: number | null): SessionStats => ({
    assetId,
    sessionDate: '2026-11-22',
    minPrice: null,
    maxPrice: null,
    lastPrice,
    volume: 0,
    transactions: 0,
    closingPrice: null,
    tradeableQty: null,
    surplusQty: null,
    settlementPrice,
    at: '2026-11-22T08:00:00.000Z',
  });
  const statsOf = (assetId: string) =>
    ({ 'GSPOT-DA': stats('GSPOT-DA', 15250, 15000), 'GSPOT-WD': stats('GSPOT-WD', 14800, 15000), 'GSPOT-WDA': stats('GSPOT-WDA', null, 15000) })[assetId] ?? null;
  let session: MarketSession | null = null;
  session = foldMarketSession('GAS-SPOT')(session, update('trading'));
  session = foldMarketSession('GAS-SPOT')(session, update('suspended', 'GSPOT-WD'));
  const opened: string[] = [];
  const TestLink = ({ asset: a, current, children }: { asset: AssetSpecification; current: boolean; children: ReactNode }) => (
    <button type="button" className="side-asset-link" aria-current={current ? 'page' : undefined} onClick={() => opened.push(a.id)}>
      {children}
    </button>
  );

  it('computes the change in basis points against the reference price', () => {
    expect(changeBps(15250, 15000)).toBe(167);
    expect(changeBps(14800, 15000)).toBe(-133);
    expect(changeBps(null, 15000)).toBeNull();
    expect(changeBps(15000, null)).toBeNull();
  });

  it("lists the market's assets with phase, last price and change; a click opens one (en)", () => {
    render(
      <WithIntl locale="en">
        <SideAssetsView assets={[asset, weekend, within2]} currentAssetId={asset.id} session={session} statsOf={statsOf} AssetLink={TestLink} />
      </WithIntl>,
    );
    const list = screen.getByRole('list', { name: 'Market assets' });
    const rows = within(list).getAllByRole('button').map((button) => button.textContent);
    expect(rows).toEqual(['GSPOT-DATradingDay152.50+1.67%', 'GSPOT-WDSuspendedweekend148.00-1.33%', 'GSPOT-WDATradingwithin-day——']);
    expect(within(list).getAllByRole('button')[0]!.getAttribute('aria-current')).toBe('page');
    expect(list.querySelector('.change-down')?.textContent).toBe('-1.33%');
    fireEvent.click(within(list).getAllByRole('button')[1]!);
    expect(opened).toEqual(['GSPOT-WD']);
  });

  it('speaks Romanian', () => {
    render(
      <WithIntl locale="ro">
        <SideAssetsView assets={[asset, weekend]} currentAssetId={asset.id} session={session} statsOf={statsOf} AssetLink={TestLink} />
      </WithIntl>,
    );
    const list = screen.getByRole('list', { name: 'Activele pieței' });
    expect(within(list).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'GSPOT-DATranzacționareZi152,50+1,67\u00a0%',
      'GSPOT-WDSuspendatăweekend148,00-1,33\u00a0%',
    ]);
  });
});

describe('side panel', () => {
  it('collapses and expands, unmounting its content, and remembers the choice', () => {
    const renderPanel = () =>
      render(
        <WithIntl locale="en">
          <SidePanel id="side-test" side="left" title="Market assets">
            <p>content</p>
          </SidePanel>
        </WithIntl>,
      );
    const first = renderPanel();
    expect(screen.getByText('content')).toBeTruthy();
    const toggle = screen.getByRole('button', { name: 'Hide Market assets' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(toggle);
    expect(screen.queryByText('content')).toBeNull();
    expect(screen.getByRole('button', { name: 'Show Market assets' }).getAttribute('aria-expanded')).toBe('false');
    first.unmount();
    renderPanel();
    expect(screen.queryByText('content')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show Market assets' }));
    expect(screen.getByText('content')).toBeTruthy();
  });
});

describe('side session', () => {
  const markets: Market[] = [
    { id: 'GAS-SPOT', name: 'Gas spot', names: { ro: 'Gaze naturale spot', en: 'Gas spot' }, commodity: 'gas', kind: 'spot', workspaceType: 'gas', currency: 'RON' },
    { id: 'EL-PMC', name: 'Electricity PMC', names: { ro: 'Energie electrică PMC', en: 'Electricity PMC' }, commodity: 'electricity', kind: 'pmc', workspaceType: 'energy', currency: 'RON' },
  ];
  const infos: Record<string, PhaseInfo> = {
    'GAS-SPOT': { phase: 'trading', sessionDate: '2026-11-22', since: null, nextPhase: 'closing', nextPhaseAt: '2026-11-22T08:10:00.000Z' },
    'EL-PMC': { phase: 'closed', sessionDate: '2026-11-21', since: null, nextPhase: null, nextPhaseAt: null },
  };
  const view = (locale: 'en' | 'ro') =>
    render(
      <WithIntl locale={locale}>
        <SideSessionView markets={markets} currentMarketId="GAS-SPOT" row={(market, current) => <SideSessionRow key={market.id} market={market} info={infos[market.id]!} current={current} />} />
      </WithIntl>,
    );

  it("shows every market's phase, session date and a ticking countdown to its next phase (en)", () => {
    view('en');
    const list = screen.getByRole('list', { name: 'Sessions' });
    const [spot, pmc] = within(list).getAllByRole('listitem');
    expect(spot!.getAttribute('aria-current')).toBe('true');
    expect(spot!.textContent).toContain('Gas spot');
    expect(spot!.textContent).toContain('Session 22 Nov 2026');
    expect(within(spot!).getByRole('timer').textContent).toBe('10:00');
    act(() => vi.advanceTimersByTime(61_000));
    expect(within(spot!).getByRole('timer').textContent).toBe('08:59');
    expect(pmc!.textContent).toContain('Closed');
    expect(pmc!.textContent).toContain('No phase change scheduled');
  });

  it('speaks Romanian', () => {
    view('ro');
    const list = screen.getByRole('list', { name: 'Ședințe' });
    const [spot] = within(list).getAllByRole('listitem');
    expect(spot!.textContent).toContain('Ședința 22 nov. 2026');
    expect(spot!.textContent).toContain('Închidere în 10:00');
  });
});
