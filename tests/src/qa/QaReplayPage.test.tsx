// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endSession, startSession } from '../../../src/auth/session.ts';
import { DialogProvider } from '../../../src/components/dialogs/DialogProvider.tsx';
import { QaReplayPage } from '../../../src/qa/QaReplayPage.tsx';
import type { SessionExpectations } from '../../streams/session-stack.ts';
import { WithIntl } from '../components/intl.tsx';

// jsdom's URL is not node's: the fixtures' folder from the working directory (the repository).
const SESSIONS_DIR = `${process.cwd()}/fixtures/sessions/`;
const ordinary = readFileSync(`${SESSIONS_DIR}ordinary-trading.jsonl`, 'utf8');
const reconnect = readFileSync(`${SESSIONS_DIR}reconnect-gap-resync.jsonl`, 'utf8');
const expected = JSON.parse(readFileSync(`${SESSIONS_DIR}ordinary-trading.expected.json`, 'utf8')) as SessionExpectations;

function respond(path: string): Response {
  if (path.endsWith('/qa/recordings')) {
    const recordings = [
      { name: 'ordinary-trading', sizeBytes: ordinary.length },
      { name: 'reconnect-gap-resync', sizeBytes: reconnect.length },
    ];
    return new Response(JSON.stringify({ recordings }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }
  if (path.endsWith('/qa/recordings/ordinary-trading')) return new Response(ordinary, { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } });
  if (path.endsWith('/qa/recordings/reconnect-gap-resync')) return new Response(reconnect, { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } });
  return new Response(JSON.stringify({ error: { code: 'NOT_FOUND', params: { path } } }), { status: 404, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => respond(String(input))));
  startSession('tok', new Date(Date.now() + 1_800_000).toISOString());
});
afterEach(() => {
  cleanup();
  endSession();
  vi.unstubAllGlobals();
});

function renderPage(locale: 'en' | 'ro' = 'en') {
  return render(
    <WithIntl locale={locale}>
      <DialogProvider>
        <QaReplayPage withReference={false} />
      </DialogProvider>
    </WithIntl>,
  );
}

async function openOrdinary() {
  const select = await screen.findByRole('combobox', { name: 'Recorded sessions' });
  await screen.findByRole('option', { name: /ordinary-trading/ });
  fireEvent.change(select, { target: { value: 'ordinary-trading' } });
  fireEvent.click(screen.getByRole('button', { name: 'Open' }));
  await screen.findByText(/Playing ordinary-trading: 56 lines/);
}

const machine = (name: string) => document.querySelector(`[data-machine="${name}"]`)!.textContent;

describe('the QA player', () => {
  it('opens a recording from the server list and steps it frame by frame: the frames and machine states follow', async () => {
    renderPage();
    await openOrdinary();
    expect(document.querySelector('.qa-status')!.getAttribute('data-position')).toBe('0');
    expect(screen.getByText('No frame yet.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Next frame' }));
    await waitFor(() => expect(document.querySelector('.qa-status')!.getAttribute('data-position')).toBe('1'));
    const frames = screen.getByRole('table', { name: 'Frames as they pass' });
    expect(within(frames).getByText('CONNECTED')).toBeTruthy();
    await waitFor(() => expect(machine('connection')).toContain('connected'));

    // Step until the book snapshot and the phase have come.
    for (let i = 0; i < 4; i++) {
      fireEvent.click(screen.getByRole('button', { name: 'Next frame' }));
      await waitFor(() => expect(document.querySelector('.qa-status')!.getAttribute('data-position')).toBe(String(i + 2)));
    }
    expect(within(frames).getAllByText('/topic/book.GSPOT-DA').length).toBeGreaterThan(0);
    await waitFor(() => expect(machine('market-phase')).toBe('trading'));
    expect(machine('book')).toContain('seq 0');
    expect(document.querySelector('[data-replay-done="false"]')).toBeTruthy();
  });

  it('shows a stale book’s age on the recording’s clock: the same whenever the file is replayed', async () => {
    // The recording is days old: an age read from the wall clock would be hundreds of thousands of seconds.
    expect(Date.now() - Date.parse('2026-11-27T00:00:00Z')).toBeGreaterThan(0);
    {
      renderPage();
      const select = await screen.findByRole('combobox', { name: 'Recorded sessions' });
      await screen.findByRole('option', { name: /reconnect-gap-resync/ });
      fireEvent.change(select, { target: { value: 'reconnect-gap-resync' } });
      fireEvent.click(screen.getByRole('button', { name: 'Open' }));
      await screen.findByText(/Playing reconnect-gap-resync/);
      // Step to the dropped socket (its @close at 2.2 s): the book goes stale there.
      for (let step = 0; step < 60 && !document.querySelector('.badge-stale')?.textContent?.startsWith('Stale'); step++) {
        const position = document.querySelector('.qa-status')!.getAttribute('data-position');
        fireEvent.click(screen.getByRole('button', { name: 'Next frame' }));
        await waitFor(() => expect(document.querySelector('.qa-status')!.getAttribute('data-position')).not.toBe(position));
      }
      const badge = document.querySelector('.badge-stale');
      expect(badge?.textContent).toMatch(/^Stale: last update \d+ seconds? ago$/);
      expect(Number(/\d+/.exec(badge!.textContent!)![0])).toBeLessThan(10);
    }
  });

  it('plays at maximum speed to the end: the final dump is the headless replay’s (expected.json’s last step)', async () => {
    renderPage();
    await openOrdinary();
    fireEvent.click(screen.getByRole('radio', { name: 'Maximum' }));
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    await waitFor(() => expect(document.querySelector('[data-replay-done="true"]')).toBeTruthy(), { timeout: 10_000 });
    const dump = JSON.parse(document.querySelector('.qa-final-dump')!.getAttribute('data-final-dump')!);
    expect(dump).toEqual(expected.steps.at(-1)!.checkpoint);
    const position = document.querySelector('.qa-status')!.getAttribute('data-position');
    const length = document.querySelector('.qa-status')!.getAttribute('data-length');
    expect(position).toBe(length);
    expect(screen.getByText(`Frame ${position} of ${length}`)).toBeTruthy();
    expect(Number(length)).toBeGreaterThan(40);
    expect(screen.getByRole('button', { name: 'Download state' })).toBeTruthy();
    // The real views show the replayed session: broker1's orders and the book.
    expect(within(screen.getByTestId('qa-machines')).getByText('cancelled', { selector: 'code', exact: false })).toBeTruthy();
  });

  it('seeks forward to a time and pauses there, and back (replaying from the start)', async () => {
    renderPage();
    await openOrdinary();
    const seek = screen.getByRole('spinbutton', { name: 'Go to time (s)' });
    fireEvent.change(seek, { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    const seeked = () => document.querySelector('.qa-status')!.getAttribute('data-seeking') === 'false' && Number(document.querySelector('.qa-status')!.getAttribute('data-position')) > 0;
    await waitFor(() => expect(seeked(), document.querySelector('.qa-status')!.outerHTML).toBe(true), { timeout: 10_000 });
    expect(screen.getByText(/^1\.\d s of/)).toBeTruthy();
    const forward = Number(document.querySelector('.qa-status')!.getAttribute('data-position'));
    expect(forward).toBeGreaterThan(5);
    expect(forward).toBeLessThan(56);
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
    await act(async () => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(Number(document.querySelector('.qa-status')!.getAttribute('data-position'))).toBe(forward);

    fireEvent.change(seek, { target: { value: '0.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    await waitFor(() => expect(seeked() && Number(document.querySelector('.qa-status')!.getAttribute('data-position')) < forward).toBe(true), { timeout: 10_000 });
    expect(screen.getByText(/^0\.[5-9] s of/)).toBeTruthy();
    const back = Number(document.querySelector('.qa-status')!.getAttribute('data-position'));
    expect(back).toBeLessThan(forward);
    expect(back).toBeGreaterThan(0);
  });

  it('refuses an uploaded file that is not a recording with RECORDING_INVALID, naming the line', async () => {
    renderPage('ro');
    const input = (await screen.findByLabelText('Sau încărcați o înregistrare (.jsonl)')) as HTMLInputElement;
    const file = new File(['{"t":0,"command":"@open","headers":{},"body":"","socket":1}\nnot json\n'], 'bad.jsonl');
    fireEvent.change(input, { target: { files: [file] } });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Fișierul nu este o înregistrare validă a unei sesiuni (linia 2: not JSON).');
  });
});
