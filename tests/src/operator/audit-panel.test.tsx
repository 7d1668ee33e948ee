// @vitest-environment jsdom
/** Audit: GET /admin/audit with the filters, paging 'a-b of c', the CSV of the same filters with the bearer token, refusals in ro and en. */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuditPanel } from '../../../src/operator/AuditPanel.tsx';
import { renderIn, signIn, signOut, tableRows } from '../pages/my-account/clearing-fixtures.tsx';
import { auditEntry, refusal, stubFetch, type Call } from './operator-fixtures.tsx';

beforeEach(() => signIn());
afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const entries = Array.from({ length: 60 }, (_, index) =>
  auditEntry({ id: 60 - index, subject: `S-${60 - index}`, ...(index === 0 ? { category: 'security', action: 'signIn.failed', actorUserId: null, actorRole: null, outcome: 'refused', code: 'AUTH_CREDENTIALS_INVALID', details: {} } : {}) }),
);

/** The server's filter and paging, over `entries`. */
function answer(call: Call) {
  if (call.path === '/admin/audit.csv') return { text: 'id,at\n60,2026-11-27T09:45:00.000Z\n' };
  if (call.path !== '/admin/audit') return undefined;
  const matching = entries.filter((entry) => (call.query.get('category') ?? entry.category) === entry.category && (call.query.get('q') ? entry.subject.includes(call.query.get('q')!) : true));
  const offset = Number(call.query.get('offset') ?? 0);
  const limit = Number(call.query.get('limit') ?? 100);
  return { body: { items: matching.slice(offset, offset + limit), total: matching.length } };
}

const range = () => (document.querySelector('.data-table-range')?.textContent ?? '').replace(/[\u00a0\u202f]/g, ' ');

describe('audit panel', () => {
  it('shows the first page with its entries, and pages through with a-b of c', async () => {
    const calls = stubFetch(answer);
    renderIn('en', <AuditPanel />);
    await waitFor(() => expect(range()).toBe('1-25 of 60'));
    expect(calls[0]!.query.toString()).toBe('offset=0&limit=25');
    const rows = tableRows('Audit');
    expect(rows[0]).toEqual(['27/11/2026, 11:45:00', 'Security', 'Failed sign-in', 'System', 'S-60', 'Refused', 'AUTH_CREDENTIALS_INVALID', '10.0.0.5']);
    expect(rows[1]).toEqual(expect.arrayContaining(['Operator', 'Market suspended', 'U-admin', 'S-59', 'Done', 'phase: trading']));

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(range()).toBe('26-50 of 60'));
    fireEvent.click(screen.getByRole('button', { name: 'Last page' }));
    await waitFor(() => expect(range()).toBe('51-60 of 60'));
    expect(calls.at(-1)!.query.get('offset')).toBe('50');
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '100' } });
    await waitFor(() => expect(range()).toBe('1-60 of 60'));
  });

  it('filters by category, action, outcome, text and dates (back to the first page), and exports the CSV of the same filters with the bearer token', async () => {
    const calls = stubFetch(answer);
    renderIn('en', <AuditPanel />);
    await waitFor(() => expect(range()).toBe('1-25 of 60'));
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(range()).toBe('26-50 of 60'));
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'security' } });
    await waitFor(() => expect(range()).toBe('1-1 of 1'));
    expect(calls.at(-1)!.query.toString()).toBe('category=security&offset=0&limit=25');
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'signIn.failed' } });
    fireEvent.change(screen.getByLabelText('Outcome'), { target: { value: 'refused' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-30' } });
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: ' S-6 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls.at(-1)!.query.get('q')).toBe('S-6'));
    expect(Object.fromEntries(calls.at(-1)!.query)).toEqual({ category: 'security', action: 'signIn.failed', outcome: 'refused', from: '2026-11-01', to: '2026-11-30', q: 'S-6', offset: '0', limit: '25' });

    let saved: Blob | null = null;
    let fileName = '';
    URL.createObjectURL = (value: Blob | MediaSource) => {
      saved = value as Blob;
      return 'blob:csv';
    };
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      fileName = this.download;
    });
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).not.toBeNull());
    const csv = calls.find((call) => call.path === '/admin/audit.csv')!;
    expect(Object.fromEntries(csv.query)).toEqual({ category: 'security', action: 'signIn.failed', outcome: 'refused', from: '2026-11-01', to: '2026-11-30', q: 'S-6' });
    expect(csv.headers['Authorization']).toBe('Bearer tok');
    expect(fileName).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(await saved!.text()).toContain('60,2026-11-27T09:45:00.000Z');
  });

  it("shows a refusal with its code's message in Romanian and English", async () => {
    stubFetch(() => refusal(403, 'FORBIDDEN', { scope: 'admin' }));
    renderIn('ro', <AuditPanel />);
    const ro = await screen.findByRole('alert');
    cleanup();
    renderIn('en', <AuditPanel />);
    const en = await screen.findByRole('alert');
    expect(ro.textContent).toBe('Nu aveți dreptul să efectuați această operațiune (drept necesar: admin). Încercați din nou');
    expect(en.textContent).toBe('You are not allowed to do this (required scope: admin). Try again');
  });
});
