// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerHealth } from '../../../protocol/health.ts';
import { ServerHealthBadge, useServerHealth } from '../../../src/components/ServerHealthBadge.tsx';
import { WithIntl } from './intl.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ok: ServerHealth = { status: 'ok', readModels: { status: 'ok', behindBy: 0, writtenSeq: 10 }, journal: { status: 'ok', lastSeq: 10 } };
const databaseAway: ServerHealth = { status: 'degraded', readModels: { status: 'degraded', behindBy: 7, writtenSeq: 10 }, journal: { status: 'ok', lastSeq: 17 } };
const journalDown: ServerHealth = { status: 'degraded', readModels: { status: 'ok', behindBy: 0, writtenSeq: 17 }, journal: { status: 'unavailable', lastSeq: 17 } };

function Probe({ enabled = true }: { enabled?: boolean }) {
  return <ServerHealthBadge health={useServerHealth(enabled, 20)} />;
}

/** GET /session/api/health answers the given bodies in turn (the last one from then on). */
function serverAnswers(...bodies: Array<ServerHealth | 'down'>) {
  let call = 0;
  const fetchMock = vi.fn(async (url: string) => {
    expect(url).toBe('/session/api/health');
    const body = bodies[Math.min(call++, bodies.length - 1)]!;
    if (body === 'down') throw new TypeError('fetch failed');
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('the degraded badge in the header', () => {
  it('shows while the server reports degraded read models, in Romanian, and goes when it is ok again', async () => {
    serverAnswers(ok, databaseAway, databaseAway, ok);
    render(
      <WithIntl locale="ro">
        <Probe />
      </WithIntl>,
    );
    const badge = await screen.findByRole('status');
    expect(badge.textContent).toContain('Serviciu degradat');
    expect(badge.getAttribute('title')).toBe('Tranzacționarea continuă; istoricul ordinelor, tranzacțiile și statisticile se actualizează (7 actualizări în urmă).');
    expect(badge.className).toContain('chip-warning');
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });

  it('says that new orders are refused while the journal cannot be written, in English', async () => {
    serverAnswers(journalDown);
    render(
      <WithIntl locale="en">
        <Probe />
      </WithIntl>,
    );
    const badge = await screen.findByRole('status');
    expect(badge.textContent).toContain('Degraded service');
    expect(badge.getAttribute('aria-label')).toBe('New orders are refused for the moment while the exchange recovers; orders already confirmed are safe.');
  });

  it('keeps the last answer through a failed request, and asks nothing while signed out', async () => {
    serverAnswers(databaseAway, 'down');
    render(
      <WithIntl locale="en">
        <Probe />
      </WithIntl>,
    );
    await screen.findByRole('status');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.getByRole('status').textContent).toContain('Degraded service');
    cleanup();

    const fetchMock = serverAnswers(databaseAway);
    render(
      <WithIntl locale="en">
        <Probe enabled={false} />
      </WithIntl>,
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
