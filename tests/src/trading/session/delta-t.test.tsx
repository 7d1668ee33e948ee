// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AssetActivity } from '../../../../protocol/market-data.ts';
import { DeltaTRowBadgeView, DeltaTWidgetView } from '../../../../src/trading/session/DeltaTWidget.tsx';
import { deltaTFrom, type DeltaTPeriod } from '../../../../src/trading/session/session-live.ts';
import { WithIntl } from '../../components/intl.tsx';
import { asset } from '../fixtures.ts';

// 10:00:00 in Bucharest.
const NOW = Date.parse('2026-11-22T08:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const activity = (partial: Partial<AssetActivity>): AssetActivity => ({
  assetId: asset.id,
  type: 'orderCreated',
  orderId: 'O-1',
  price: 15000,
  qty: 100,
  endsAt: null,
  at: iso(NOW),
  ...partial,
});

/** The widget fed by an activity stream, as the live widget is. */
function Harness({ activities }: { activities: Subject<AssetActivity> }) {
  const [period, setPeriod] = useState<DeltaTPeriod | null>(null);
  useEffect(() => {
    const subscription = deltaTFrom(activities).subscribe(setPeriod);
    return () => subscription.unsubscribe();
  }, [activities]);
  return <DeltaTWidgetView asset={asset} period={period} />;
}

function renderIn(locale: 'en' | 'ro') {
  const activities = new Subject<AssetActivity>();
  render(
    <WithIntl locale={locale}>
      <Harness activities={activities} />
    </WithIntl>,
  );
  return activities;
}

describe('delta-T widget', () => {
  it('counts down from a deltaTStart activity with the match price, restarts on a new one, then goes idle (en)', () => {
    const activities = renderIn('en');
    expect(screen.getByText('No delta-T period running.')).toBeTruthy();
    act(() => activities.next(activity({ type: 'orderCreated' })));
    expect(screen.queryByRole('timer')).toBeNull();

    act(() => activities.next(activity({ type: 'deltaTStart', orderId: null, qty: null, price: 15050, endsAt: iso(NOW + 30_000) })));
    expect(screen.getByText('Delta-T period running')).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toBe('00:30');
    expect(screen.getByText('150.50 RON')).toBeTruthy();
    expect(screen.getByText('10:00:30')).toBeTruthy();
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByRole('timer').textContent).toBe('00:20');

    // A competing order restarts the period at a better price.
    act(() => activities.next(activity({ type: 'deltaTStart', orderId: null, qty: null, price: 15060, endsAt: iso(NOW + 40_000), at: iso(NOW + 10_000) })));
    expect(screen.getByRole('timer').textContent).toBe('00:30');
    expect(screen.getByText('150.60 RON')).toBeTruthy();
    // Order activity during the period does not end it.
    act(() => activities.next(activity({ type: 'orderCreated', orderId: 'O-9' })));
    expect(screen.getByRole('timer')).toBeTruthy();

    act(() => vi.advanceTimersByTime(30_000));
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByText(/No delta-T period running\./).textContent).toContain('The last period ended at 10:00:40.');
  });

  it('ends the period at the first trade of the asset, its match, even when the local clock is behind', () => {
    const activities = renderIn('en');
    act(() => activities.next(activity({ type: 'deltaTStart', orderId: null, qty: null, price: 15050, endsAt: iso(NOW + 30_000) })));
    // a trade from before the period is old news
    act(() => activities.next(activity({ type: 'orderTraded', at: iso(NOW - 5_000) })));
    expect(screen.getByRole('timer').textContent).toBe('00:30');
    act(() => vi.advanceTimersByTime(2_000));
    act(() => activities.next(activity({ type: 'orderTradedPartially', at: iso(NOW + 31_000) })));
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByText(/The last period ended at 10:00:31\./)).toBeTruthy();
  });

  it('speaks Romanian', () => {
    const activities = renderIn('ro');
    expect(screen.getByText('Nicio perioadă delta T în desfășurare.')).toBeTruthy();
    act(() => activities.next(activity({ type: 'deltaTStart', orderId: null, qty: null, price: 15050, endsAt: iso(NOW + 65_000) })));
    expect(screen.getByText('Perioadă delta T în desfășurare')).toBeTruthy();
    expect(screen.getByText('Preț de tranzacționare')).toBeTruthy();
    expect(screen.getByText('150,50 RON')).toBeTruthy();
    expect(screen.getByRole('timer').parentElement?.textContent).toBe('Tranzacționare în 01:05');
  });

  it('shows nothing running for a period already over when it arrives', () => {
    const activities = renderIn('en');
    act(() => activities.next(activity({ type: 'deltaTStart', orderId: null, qty: null, price: 15050, endsAt: iso(NOW - 1_000) })));
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByText(/The last period ended at 09:59:59\./)).toBeTruthy();
  });
});

describe('delta-T badge of a market watch row', () => {
  function BadgeHarness({ activities }: { activities: Subject<AssetActivity> }) {
    const [period, setPeriod] = useState<DeltaTPeriod | null>(null);
    useEffect(() => {
      const subscription = deltaTFrom(activities).subscribe(setPeriod);
      return () => subscription.unsubscribe();
    }, [activities]);
    return <DeltaTRowBadgeView period={period} />;
  }

  for (const [locale, hint] of [
    ['en', 'Delta-T period: the book may show crossing prices until the match at 10:00:30'],
    ['ro', 'Perioadă delta T: registrul poate arăta prețuri care se încrucișează până la tranzacționarea de la 10:00:30'],
  ] as const) {
    it(`says why the row's book may cross while the period runs, then goes (${locale})`, () => {
      const activities = new Subject<AssetActivity>();
      const { container } = render(
        <WithIntl locale={locale}>
          <BadgeHarness activities={activities} />
        </WithIntl>,
      );
      expect(container.textContent).toBe('');
      act(() => activities.next(activity({ type: 'deltaTStart', orderId: null, qty: null, price: 15050, endsAt: iso(NOW + 30_000) })));
      expect(screen.getByLabelText(hint).textContent).toBe('Δt 00:30');
      act(() => vi.advanceTimersByTime(30_000));
      expect(container.textContent).toBe('');
    });
  }
});
