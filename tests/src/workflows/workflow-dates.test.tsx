// @vitest-environment jsdom
/**
 * Dates in a workflow's details panel (its facts and its history) are never month-first in English:
 * the app formats English as en-GB (docs/i18n.md, "Dates and times"). 6 December 2026 would read
 * 12/6/26 in American English, the same digits as 12 June.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WorkflowEventRecord } from '../../../protocol/workflows.ts';
import { WorkflowFacts } from '../../../src/workflows/WorkflowFacts.tsx';
import { WorkflowTimeline } from '../../../src/workflows/WorkflowTimeline.tsx';
import { WithIntl } from '../components/intl.tsx';
import { instance } from './workflow-fixtures.tsx';

beforeEach(() => {
  vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new Error('no server in this test'))));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A contract opened on 20 November and uploaded on 6 December 2026, 05:37:01 UTC (07:37:01 in Bucharest). */
function contract() {
  const base = instance('contract');
  const opened = base.history[0]!;
  const uploaded: WorkflowEventRecord = { ...opened, seq: 2, action: 'upload', fromStatus: opened.toStatus, toStatus: opened.toStatus, at: '2026-12-06T05:37:01.000Z' };
  const data = { ...(base.data as Extract<typeof base, { kind: 'contract' }>['data']), uploadedAt: '2026-12-06T05:37:01.000Z' };
  return { ...base, data, history: [opened, uploaded] } as typeof base;
}

function renderDetails(locale: 'en' | 'ro') {
  const item = contract();
  render(
    <WithIntl locale={locale}>
      <WorkflowFacts instance={item} />
      <WorkflowTimeline instance={item} />
    </WithIntl>,
  );
  const history = within(screen.getByRole('region')).getAllByRole('listitem').map((entry) => entry.querySelector('time')?.textContent ?? '');
  return { history, text: document.body.textContent ?? '' };
}

/** Every d/d/yy(yy) in a text whose second number cannot be a month (so the first one is). */
function monthFirst(text: string): string[] {
  return [...text.matchAll(/\b(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})\b/g)].filter((m) => Number(m[2]) > 12).map((m) => m[0]);
}

describe('dates in a workflow’s details', () => {
  it('are day-first in English: the history and the upload time read 06/12/2026, 07:37:01, not 12/6/26', () => {
    const { history, text } = renderDetails('en');
    expect(history).toEqual(['20/11/2026, 10:00:00', '06/12/2026, 07:37:01']);
    expect(text).toContain('Uploaded at06/12/2026, 07:37:01');
    expect(text).not.toContain('12/6/26');
    expect(monthFirst(text)).toEqual([]);
    expect(text).not.toMatch(/\b(AM|PM)\b/);
  });

  it('are unchanged in Romanian', () => {
    const { history, text } = renderDetails('ro');
    expect(history).toEqual(['20.11.2026, 10:00:00', '06.12.2026, 07:37:01']);
    expect(monthFirst(text)).toEqual([]);
  });
});
