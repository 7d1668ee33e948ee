// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { NEVER, Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientMemoryKey } from '../../../../machines/client-memory.ts';
import type { UserInfo } from '../../../../protocol/auth.ts';
import type { BookLevel } from '../../../../protocol/market-data.ts';
import { destinations } from '../../../../protocol/destinations.ts';
import type { AssetSpecification } from '../../../../protocol/reference.ts';
import type { WorkflowChange } from '../../../../protocol/workflows.ts';
import { endSession, startSession } from '../../../../src/auth/session.ts';
import { AssetOrderBook } from '../../../../src/trading/bilateral/AssetOrderBook.tsx';
import { partnersOnlyKey } from '../../../../src/trading/bilateral/partners-only.ts';
import { TRADEABLE_DEBOUNCE_MS } from '../../../../src/trading/bilateral/tradeable-feed.ts';
import type { BookView } from '../../../../streams/book.ts';
import { WithIntl } from '../../components/intl.tsx';
import { asset as plainAsset, book } from '../fixtures.ts';

let currentUser: UserInfo | null = null;
vi.mock('../../../../src/auth/use-auth.ts', () => ({ useUser: () => currentUser, useCanAct: () => currentUser !== null }));
/** The connection's private workflow queue, when a test gives the page a connection. */
let workflowQueue: Subject<WorkflowChange> | null = null;
const watched: string[] = [];
const realtime = {
  connection: {
    watch$: (destination: string) => {
      watched.push(destination);
      return destination === destinations.workflows ? workflowQueue : NEVER;
    },
  },
};
vi.mock('../../../../src/realtime/RealtimeProvider.tsx', () => ({ useRealtime: () => (workflowQueue === null ? null : realtime) }));

function user(username: string, clientCodes: string[]): UserInfo {
  return {
    userId: `u-${username}`,
    username,
    name: username,
    roles: ['broker'],
    scopes: ['trading:read', 'trading:write'],
    broker: null,
    agency: null,
    terminal: null,
    clientCodes,
    marketIds: ['GAS-FWD'],
    passwordExpiresAt: '2027-01-01T00:00:00.000Z',
    preferences: { language: 'en', theme: 'light', notifications: true, soundNotifications: false },
  };
}

const bilateral: AssetSpecification = { ...plainAsset, id: 'GBIL-M-2027-01', code: 'GBIL-M-2027-01', marketId: 'GAS-FWD', bilateral: true };

const levels = {
  bids: [
    { price: 15000, qty: 100, orders: 2 },
    { price: 14990, qty: 50, orders: 1 },
  ],
  asks: [
    { price: 15100, qty: 70, orders: 1 },
    { price: 15200, qty: 200, orders: 3 },
  ],
};
/** What the server says the clients may trade with: part of 150.00, none of 149.90, all of 151.00, none of 152.00. */
const partners = {
  assetId: bilateral.id,
  bids: [
    { price: 15000, qty: 40, orders: 1 },
    { price: 14990, qty: 0, orders: 0 },
  ],
  asks: [
    { price: 15100, qty: 70, orders: 1 },
    { price: 15200, qty: 0, orders: 0 },
  ],
};

interface Pending {
  url: string;
  answer: (body: unknown, status?: number) => void;
}

/** fetch answered by the test: every request waits in `requests` until answered. */
function stubFetch() {
  const requests: Pending[] = [];
  const fetchMock = vi.fn(
    (url: string) =>
      new Promise<Response>((resolve) => {
        requests.push({ url, answer: (body, status = 200) => resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })) });
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, requests };
}

const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

function view(asset: AssetSpecification, bookView: BookView, locale: 'en' | 'ro' = 'en', workflowChanges$?: Subject<WorkflowChange>) {
  return (
    <WithIntl locale={locale}>
      <AssetOrderBook asset={asset} book={bookView} ownOrders={[]} workflowChanges$={workflowChanges$} />
    </WithIntl>
  );
}

function rowsOf(name: string): HTMLElement[] {
  return within(screen.getByRole('table', { name })).getAllByRole('row').slice(1);
}
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
const bookAt = (seq: number, sides: { bids: BookLevel[]; asks: BookLevel[] } = levels) => book({ ...sides, assetId: bilateral.id, seq });

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  startSession('tok', new Date(Date.now() + 1_800_000).toISOString());
  currentUser = user('broker1', ['RO-HIDRO', 'RO-GAZEST']);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('book-scroll') ? 280 : 0;
  });
});
afterEach(() => {
  cleanup();
  workflowQueue = null;
  watched.length = 0;
  endSession();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('bilateral order book', () => {
  it('marks the quantity the clients may not trade with, says the asset is bilateral, and asks for all clients', async () => {
    const { requests } = stubFetch();
    render(view(bilateral, bookAt(5)));
    expect(screen.getByRole('note', { name: 'Bilateral: trades only with whitelist partners' }).textContent).toBe('Bilateral');
    await wait(TRADEABLE_DEBOUNCE_MS);
    expect(requests.map((request) => request.url)).toEqual(['/session/api/assets/GBIL-M-2027-01/tradeable-levels']);
    requests[0]!.answer(partners);
    await wait(0);
    expect(screen.getByText('Quantities for all your clients')).toBeTruthy();
    const [partial, none] = rowsOf('Bids');
    // The partners' part, then the whole level; marked with the reason.
    expect(cells(partial!)).toEqual(['2', '4.0 / 10.0', '⊘150.00']);
    expect(partial!.className).toContain('book-level-partial');
    expect(within(partial!).getByRole('img', { name: 'Not tradeable with your client: no whitelist relation' }).getAttribute('title')).toBe('Not tradeable with your client: no whitelist relation');
    expect(cells(none!)).toEqual(['1', '0.0 / 5.0', '⊘149.90']);
    expect(none!.className).toContain('book-level-foreign');
    const [all, foreign] = rowsOf('Asks');
    expect(cells(all!)).toEqual(['1', '7.0', '151.00']);
    expect(within(all!).queryByRole('img')).toBeNull();
    expect(all!.className).not.toMatch(/foreign|partial/);
    expect(foreign!.className).toContain('book-level-foreign');
  });

  it("says it in Romanian, for the ticket's last client on the asset", async () => {
    localStorage.setItem(clientMemoryKey('broker1'), JSON.stringify({ [bilateral.id]: 'RO-GAZEST' }));
    const { requests } = stubFetch();
    render(view(bilateral, bookAt(5), 'ro'));
    await wait(TRADEABLE_DEBOUNCE_MS);
    expect(requests[0]!.url).toBe('/session/api/assets/GBIL-M-2027-01/tradeable-levels?clientCode=RO-GAZEST');
    requests[0]!.answer(partners);
    await wait(0);
    expect(screen.getByRole('note', { name: 'Bilateral: tranzacționează doar cu partenerii din lista albă' })).toBeTruthy();
    expect(screen.getByText('Cantități pentru clientul RO-GAZEST')).toBeTruthy();
    const [partial] = rowsOf('Cumpărare');
    expect(within(partial!).getByRole('img', { name: 'Netranzacționabil pentru clientul dumneavoastră: nicio relație în lista albă' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Doar ordinele partenerilor' })).toBeTruthy();
  });

  it("'Only partners' orders' hides the quantity they may not trade with, and is remembered per user", async () => {
    const { requests } = stubFetch();
    const { unmount } = render(view(bilateral, bookAt(5)));
    await wait(TRADEABLE_DEBOUNCE_MS);
    requests[0]!.answer(partners);
    await wait(0);
    const toggle = screen.getByRole('checkbox', { name: "Only partners' orders" });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    fireEvent.click(toggle);
    expect(rowsOf('Bids').map(cells)).toEqual([['1', '4.0', '150.00']]);
    expect(rowsOf('Asks').map(cells)).toEqual([['1', '7.0', '151.00']]);
    expect(screen.queryByRole('img', { name: /Not tradeable/ })).toBeNull();
    expect(localStorage.getItem(partnersOnlyKey('broker1'))).toBe('true');
    unmount();

    // Back on the page: still on for broker1, off for another user of the same browser.
    const next = stubFetch();
    const { unmount: unmountAgain } = render(view(bilateral, bookAt(5)));
    expect((screen.getByRole('checkbox', { name: "Only partners' orders" }) as HTMLInputElement).checked).toBe(true);
    await wait(TRADEABLE_DEBOUNCE_MS);
    next.requests[0]!.answer(partners);
    await wait(0);
    expect(rowsOf('Bids')).toHaveLength(1);
    fireEvent.click(screen.getByRole('checkbox', { name: "Only partners' orders" }));
    expect(rowsOf('Bids')).toHaveLength(2);
    expect(localStorage.getItem(partnersOnlyKey('broker1'))).toBe('false');
    unmountAgain();
    localStorage.setItem(partnersOnlyKey('broker1'), 'true');
    currentUser = user('broker2', ['RO-GAZEST']);
    render(view(bilateral, bookAt(5)));
    expect((screen.getByRole('checkbox', { name: "Only partners' orders" }) as HTMLInputElement).checked).toBe(false);
  });

  it('asks again once the book has been quiet for the debounce, one request at a time, and shows the newest answer', async () => {
    const { requests } = stubFetch();
    const { rerender } = render(view(bilateral, bookAt(5)));
    await wait(TRADEABLE_DEBOUNCE_MS);
    expect(requests).toHaveLength(1);
    // Deltas while the first request is out: no second request until it is back.
    for (let seq = 6; seq <= 8; seq++) {
      rerender(view(bilateral, bookAt(seq)));
      await wait(100);
    }
    await wait(TRADEABLE_DEBOUNCE_MS * 2);
    expect(requests).toHaveLength(1);
    requests[0]!.answer(partners);
    await wait(0);
    expect(rowsOf('Bids')[1]!.className).toContain('book-level-foreign');
    await wait(TRADEABLE_DEBOUNCE_MS);
    expect(requests).toHaveLength(2);
    // A whitelist relation made meanwhile: 149.90 is a partner's now.
    requests[1]!.answer({ ...partners, bids: [partners.bids[0], { price: 14990, qty: 50, orders: 1 }] });
    await wait(0);
    expect(rowsOf('Bids')[1]!.className).not.toContain('book-level-foreign');
    expect(cells(rowsOf('Bids')[1]!)).toEqual(['1', '5.0', '149.90']);

    // A burst of changes makes one request, DEBOUNCE_MS after the last.
    for (let seq = 9; seq <= 12; seq++) {
      rerender(view(bilateral, bookAt(seq)));
      await wait(50);
    }
    expect(requests).toHaveLength(2);
    await wait(TRADEABLE_DEBOUNCE_MS - 50);
    expect(requests).toHaveLength(3);
    await wait(TRADEABLE_DEBOUNCE_MS * 4);
    expect(requests).toHaveLength(3);
  });

  it("drops an answer for the asset the book showed before: the latest asset's wins", async () => {
    const { requests } = stubFetch();
    const other: AssetSpecification = { ...bilateral, id: 'GBIL-M-2027-02', code: 'GBIL-M-2027-02' };
    const { rerender } = render(view(bilateral, bookAt(5)));
    await wait(TRADEABLE_DEBOUNCE_MS);
    rerender(view(other, book({ ...levels, assetId: other.id, seq: 1 })));
    await wait(TRADEABLE_DEBOUNCE_MS);
    expect(requests.map((request) => request.url)).toEqual([
      '/session/api/assets/GBIL-M-2027-01/tradeable-levels',
      '/session/api/assets/GBIL-M-2027-02/tradeable-levels',
    ]);
    requests[1]!.answer({ ...partners, assetId: other.id, bids: [{ price: 15000, qty: 100, orders: 2 }, { price: 14990, qty: 50, orders: 1 }] });
    await wait(0);
    requests[0]!.answer(partners); // late, and for the other asset
    await wait(0);
    expect(rowsOf('Bids').map((row) => row.className).join(' ')).not.toMatch(/foreign|partial/);
    expect(cells(rowsOf('Bids')[0]!)).toEqual(['2', '10.0', '150.00']);
  });

  it('asks again on a whitelist change, not on other workflow changes', async () => {
    const { requests } = stubFetch();
    const changes = new Subject<WorkflowChange>();
    render(view(bilateral, bookAt(5), 'en', changes));
    await wait(TRADEABLE_DEBOUNCE_MS);
    requests[0]!.answer(partners);
    await wait(0);
    act(() => changes.next({ instance: { kind: 'otc' } } as unknown as WorkflowChange));
    await wait(TRADEABLE_DEBOUNCE_MS * 2);
    expect(requests).toHaveLength(1);
    act(() => changes.next({ instance: { kind: 'whitelist' } } as unknown as WorkflowChange));
    await wait(TRADEABLE_DEBOUNCE_MS);
    expect(requests).toHaveLength(2);
  });

  it("follows the connection's workflow queue by itself, only for a bilateral book", async () => {
    const { requests } = stubFetch();
    workflowQueue = new Subject<WorkflowChange>();
    const { unmount } = render(view(plainAsset, book({ ...levels, seq: 5 })));
    await wait(TRADEABLE_DEBOUNCE_MS);
    expect(workflowQueue.observed).toBe(false);
    unmount();
    render(view(bilateral, bookAt(5)));
    await wait(TRADEABLE_DEBOUNCE_MS);
    expect(watched).toEqual([destinations.workflows]);
    expect(requests).toHaveLength(1);
    requests[0]!.answer(partners);
    await wait(0);
    act(() => workflowQueue!.next({ instance: { kind: 'whitelist' } } as unknown as WorkflowChange));
    await wait(TRADEABLE_DEBOUNCE_MS);
    expect(requests).toHaveLength(2);
  });

  it('keeps the book unmarked when the request fails, and says so', async () => {
    const { requests } = stubFetch();
    render(view(bilateral, bookAt(5)));
    await wait(TRADEABLE_DEBOUNCE_MS);
    requests[0]!.answer({ error: { code: 'ASSET_NOT_FOUND', params: { assetId: bilateral.id } } }, 404);
    await wait(0);
    expect(screen.getByText("Partners' quantities could not be loaded")).toBeTruthy();
    expect(screen.queryByRole('img', { name: /Not tradeable/ })).toBeNull();
    expect(cells(rowsOf('Bids')[0]!)).toEqual(['2', '10.0', '150.00']);
  });

  it('asks nothing for an asset that is not bilateral, and shows neither badge nor filter', async () => {
    const { fetchMock } = stubFetch();
    const plainBook = (seq: number) => book({ ...levels, seq });
    const { rerender } = render(view(plainAsset, plainBook(5)));
    for (let seq = 6; seq < 10; seq++) {
      rerender(view(plainAsset, plainBook(seq)));
      await wait(TRADEABLE_DEBOUNCE_MS * 2);
    }
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(cells(rowsOf('Bids')[1]!)).toEqual(['1', '5.0', '149.90']);
  });

  it('asks nothing for a user without clients (nothing they could trade), and offers no filter', async () => {
    const { fetchMock } = stubFetch();
    currentUser = user('terminal1', []);
    render(view(bilateral, bookAt(5)));
    await wait(TRADEABLE_DEBOUNCE_MS * 4);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByRole('note', { name: 'Bilateral: trades only with whitelist partners' })).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});
