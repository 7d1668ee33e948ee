// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatCountdown } from '../../../../src/trading/session/clock.ts';
import { Countdown } from '../../../../src/trading/session/Countdown.tsx';
import { PhaseWidgetView, type PhaseInfo } from '../../../../src/trading/session/PhaseWidget.tsx';
import { WithIntl } from '../../components/intl.tsx';

// 10:00:00 in Bucharest (EET, UTC+2).
const NOW = Date.parse('2026-11-22T08:00:00.000Z');

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const info: PhaseInfo = {
  phase: 'trading',
  sessionDate: '2026-11-22',
  since: '2026-11-21T22:10:00.000Z',
  nextPhase: 'closing',
  // 1 h 2 min 5 s from NOW
  nextPhaseAt: '2026-11-22T09:02:05.000Z',
};

describe('countdown format', () => {
  it('shows mm:ss under an hour and hh:mm:ss from one hour, rounding whole seconds up and stopping at 00:00', () => {
    expect(formatCountdown(59_001)).toBe('01:00');
    expect(formatCountdown(59_000)).toBe('00:59');
    expect(formatCountdown(3_599_000)).toBe('59:59');
    expect(formatCountdown(3_600_000)).toBe('01:00:00');
    expect(formatCountdown(36_125_000)).toBe('10:02:05');
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-5_000)).toBe('00:00');
  });
});

describe('phase widget', () => {
  it('counts down to the next phase every second (en)', () => {
    render(
      <WithIntl locale="en">
        <PhaseWidgetView info={info} />
      </WithIntl>,
    );
    expect(screen.getByRole('heading', { name: 'Session' })).toBeTruthy();
    expect(screen.getByText('Trading')).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toBe('01:02:05');
    expect(screen.getByText('at 11:02')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer').textContent).toBe('01:02:04');
    act(() => vi.advanceTimersByTime(2 * 60_000 + 4_000));
    expect(screen.getByRole('timer').textContent).toBe('01:00:00');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer').textContent).toBe('59:59');
    expect(screen.getByText('Closing', { selector: 'strong' })).toBeTruthy();
  });

  it('says so in Romanian, with the session date', () => {
    render(
      <WithIntl locale="ro">
        <PhaseWidgetView info={info} />
      </WithIntl>,
    );
    expect(screen.getByRole('heading', { name: 'Ședință' })).toBeTruthy();
    expect(screen.getByText('Data ședinței')).toBeTruthy();
    expect(screen.getByText('22 nov. 2026')).toBeTruthy();
    expect(screen.getByText('Închidere', { selector: 'strong' }).parentElement?.textContent).toContain('Închidere în 01:02:05');
  });

  it('shows that nothing is scheduled, and waits while the phase is unknown', () => {
    const { rerender } = render(
      <WithIntl locale="en">
        <PhaseWidgetView info={{ ...info, nextPhase: null, nextPhaseAt: null }} />
      </WithIntl>,
    );
    expect(screen.getByText('No phase change scheduled')).toBeTruthy();
    expect(screen.queryByRole('timer')).toBeNull();
    rerender(
      <WithIntl locale="en">
        <PhaseWidgetView info={{ phase: null, sessionDate: null, since: null, nextPhase: null, nextPhaseAt: null }} />
      </WithIntl>,
    );
    expect(document.querySelector('[data-phase-waiting]')).not.toBeNull();
  });

  it('re-renders only the countdown each second, not what contains it', () => {
    let pageRenders = 0;
    function Page() {
      pageRenders += 1;
      return <PhaseWidgetView info={info} />;
    }
    render(
      <WithIntl locale="en">
        <Page />
      </WithIntl>,
    );
    const timer = screen.getByRole('timer');
    for (let second = 0; second < 5; second++) act(() => vi.advanceTimersByTime(1000));
    expect(timer.textContent).toBe('01:02:00');
    expect(screen.getByRole('timer')).toBe(timer);
    expect(pageRenders).toBe(1);
  });

  it('stops at 00:00 when the phase is due', () => {
    render(
      <WithIntl locale="en">
        <Countdown until={NOW + 2_000} />
      </WithIntl>,
    );
    expect(screen.getByRole('timer').textContent).toBe('00:02');
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.getByRole('timer').textContent).toBe('00:00');
  });
});
