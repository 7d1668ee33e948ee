/**
 * npm run bench:ui — a broker's saved workspace in headless Chromium shows the books of its assets while
 * this driver pushes book deltas (UI_DELTAS_PER_S, 5,000/s) across them through the real STOMP channel
 * for UI_BENCH_SECONDS (30 s). Prints frames per second, the longest task, and the delay from a delta's
 * publication to its paint (p50/p99), then one line: `bench:ui fps=N longest_task_ms=N p50_ms=X p99_ms=X`.
 *
 * Books on screen: the app shows one workspace per page and a workspace holds the assets of one market;
 * the demo exchange's largest market (GAS-FWD) has 4 assets, so 4 books are shown, not 20. The bench
 * prints how many.
 *
 * The server runs in-process (startTestServer: in-memory store, frozen test clock, no simulator, so no
 * real order or expiry changes a book). Deltas are synthetic: published with server.gateway.publish on
 * /topic/book.<assetId>, each asset's seq contiguous from the server's current seq; the publisher's
 * snapshot() is made to answer with the synthetic book so a resubscription would stay consistent.
 *
 * How the delay is seen: every delta sets the best bid level's quantity to the asset's next counter
 * value (and changes one other level). The page notes, with a MutationObserver on the books, when the
 * best bid's quantity text changes, and takes the next requestAnimationFrame as its paint. A delta's
 * delay is the paint of the first shown counter value >= its own minus its publication time (Node's
 * and Chromium's wall clocks: same machine); deltas superseded before a frame count with the frame that
 * showed a newer value. Frames (requestAnimationFrame callbacks) and long tasks (PerformanceObserver
 * 'longtask') count over the load only; after it the bench waits until every book shows its last delta
 * so each delta's delay is known.
 *
 * Environment: UI_BENCH_SECONDS (30), UI_DELTAS_PER_S (5000), UI_BENCH_CPU_PROFILE (a file for the page's CPU profile).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { BookLevel, BookLevelChange, BookSnapshot } from '../protocol/index.ts';
import { destinations } from '../protocol/index.ts';
import { alignClock, newPage, signIn } from '../tests/e2e/app.ts';
import { launchChromium } from '../tests/e2e/browser.ts';
import { startTestServer } from '../tests/helpers/test-server.ts';
import { percentile } from './bench-server.ts';

const seconds = Number(process.env.UI_BENCH_SECONDS ?? 30);
const deltasPerSecond = Number(process.env.UI_DELTAS_PER_S ?? 5000);
const wantedBooks = 20;
const username = 'broker1';
const levelsPerSide = 20;
const probeBase = 1_000_000;

interface FixtureAsset {
  id: string;
  marketId: string;
  spec: { priceDecimals: number; quantityDecimals: number };
}
interface FixtureMarket {
  id: string;
  workspaceType: string;
}
const exchange = JSON.parse(readFileSync('fixtures/demo/exchange.json', 'utf8')) as { markets: FixtureMarket[]; assets: FixtureAsset[] };

/** The synthetic book of one asset, kept so snapshots agree with the deltas sent. */
interface SyntheticBook {
  assetId: string;
  seq: number;
  bid: Map<number, BookLevel>;
  ask: Map<number, BookLevel>;
  bidPrices: number[];
  askPrices: number[];
  probePrice: number;
  counter: number;
  /** Publication time (epoch ms) per counter value, from probeBase on. */
  publishedAt: number[];
}

const epochNow = () => performance.timeOrigin + performance.now();

function main(): Promise<void> {
  return run();
}

async function run(): Promise<void> {
  const t = await startTestServer({ clientDir: 'dist/client' });
  alignClock(t);
  const browser = await launchChromium();
  try {
    // The market with the most assets the broker sees: one workspace with all of them.
    const token = await t.login(username);
    const byMarket = exchange.markets
      .map((market) => ({ market, assets: exchange.assets.filter((asset) => asset.marketId === market.id) }))
      .sort((a, b) => b.assets.length - a.assets.length);
    let chosen: (typeof byMarket)[number] | undefined;
    for (const candidate of byMarket) {
      const created = await t.post(
        '/workspaces',
        { name: `UI bench ${candidate.market.id}`, type: candidate.market.workspaceType, marketId: candidate.market.id, assetIds: candidate.assets.map((a) => a.id), ringIds: [] },
        token,
      );
      if (created.status === 201) {
        chosen = candidate;
        break;
      }
    }
    if (!chosen) throw new Error('no workspace could be created');
    const assets = chosen.assets;
    console.log(`workspace: market ${chosen.market.id}, ${assets.length} books on screen (asked for ${wantedBooks}; one workspace per page, one market per workspace)`);

    // Synthetic books, starting after the server's current seq per asset.
    const books = new Map<string, SyntheticBook>();
    for (const asset of assets) {
      const current = t.server.marketData.snapshot(asset.id);
      const step = Math.max(1, 10 ** asset.spec.priceDecimals / 10);
      const probePrice = 150 * 10 ** asset.spec.priceDecimals;
      const book: SyntheticBook = { assetId: asset.id, seq: current.seq, bid: new Map(), ask: new Map(), bidPrices: [], askPrices: [], probePrice, counter: probeBase, publishedAt: [] };
      for (let i = 0; i < levelsPerSide; i++) {
        const bidPrice = probePrice - i * step;
        const askPrice = probePrice + (i + 1) * step;
        book.bidPrices.push(bidPrice);
        book.askPrices.push(askPrice);
        book.bid.set(bidPrice, { price: bidPrice, qty: i === 0 ? probeBase : 100 * (i + 1) * 10, orders: 1 + (i % 4) });
        book.ask.set(askPrice, { price: askPrice, qty: 100 * (i + 1) * 10, orders: 1 + (i % 4) });
      }
      books.set(asset.id, book);
    }
    let snapshotsServed = 0;
    const original = t.server.marketData.snapshot.bind(t.server.marketData);
    t.server.marketData.snapshot = (assetId: string): BookSnapshot => {
      const book = books.get(assetId);
      if (!book) return original(assetId);
      snapshotsServed++;
      return {
        type: 'snapshot',
        assetId,
        seq: book.seq,
        bids: [...book.bid.values()].sort((a, b) => b.price - a.price),
        asks: [...book.ask.values()].sort((a, b) => a.price - b.price),
        at: new Date().toISOString(),
      };
    };

    const { context, page } = await newPage(browser);
    // tsx (esbuild) names the functions it compiles with a __name helper the page does not have.
    await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
    await signIn(page, t, username, 'en');
    await page.goto(`${t.server.url}en/trading/workspace`);
    await page.locator(`[data-workspace] h2`, { hasText: `UI bench ${chosen.market.id}` }).waitFor({ timeout: 15_000 });
    await page.waitForFunction((count) => document.querySelectorAll('.workspace-book .order-book:not(.order-book-stale)').length === count, assets.length, { timeout: 15_000, polling: 50 });
    const shownBooks = await page.locator('.workspace-book').count();
    const snapshotsAtStart = snapshotsServed;
    await page.waitForTimeout(500);

    // Instruments: rAF frame count, long tasks, best-bid quantity text changes and their next frame.
    await page.evaluate(() => {
      const now = () => performance.timeOrigin + performance.now();
      const state = {
        frames: 0,
        running: true,
        longest: 0,
        longTasks: 0,
        seen: [] as Array<[string, string, number, number]>,
        startedAt: now(),
      };
      (window as unknown as { __uiBench: typeof state }).__uiBench = state;
      const frame = () => {
        if (!state.running) return;
        state.frames++;
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (!state.running) return;
          state.longTasks++;
          state.longest = Math.max(state.longest, entry.duration);
        }
      }).observe({ type: 'longtask' });
      const bookElements = [...document.querySelectorAll<HTMLElement>('.workspace-book .order-book')];
      const last = new Map<string, string>();
      let pending: Array<[string, string, number]> = [];
      let frameAsked = false;
      const read = () => {
        const at = now();
        for (const element of bookElements) {
          const assetId = element.dataset.asset ?? '';
          const qty = element.querySelector('.book-side-bid tbody tr.book-level')?.children[1]?.textContent ?? '';
          if (qty !== last.get(assetId)) {
            last.set(assetId, qty);
            pending.push([assetId, qty, at]);
          }
        }
        if (pending.length > 0 && !frameAsked) {
          frameAsked = true;
          requestAnimationFrame(() => {
            const painted = now();
            for (const [assetId, qty, mutated] of pending) state.seen.push([assetId, qty, mutated, painted]);
            pending = [];
            frameAsked = false;
          });
        }
      };
      read();
      const observer = new MutationObserver(() => {
        if (state.running) read();
      });
      for (const element of bookElements) observer.observe(element, { subtree: true, childList: true, characterData: true });
    });

    // UI_BENCH_CPU_PROFILE=file.cpuprofile: the page's CPU profile over the run (DevTools format).
    const profilePath = process.env.UI_BENCH_CPU_PROFILE;
    const cdp = profilePath ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }

    // The driver: deltas round-robin over the assets at the wanted rate, paced on a 2 ms timer.
    const order = [...books.values()];
    // Frames and long tasks count from here to the end of the load.
    await page.evaluate(() => {
      const state = (window as unknown as { __uiBench: { frames: number; running: boolean; longest: number; longTasks: number; seen: Array<[string, string, number, number]>; startedAt: number } }).__uiBench;
      state.frames = 0;
      state.longest = 0;
      state.longTasks = 0;
      state.startedAt = performance.timeOrigin + performance.now();
    });
    const startedAt = performance.now();
    const endAt = startedAt + seconds * 1000;
    let sent = 0;
    let next = 0;
    await new Promise<void>((resolve) => {
      const tick = () => {
        const elapsed = performance.now() - startedAt;
        const due = Math.min(Math.floor((elapsed / 1000) * deltasPerSecond), Math.floor(seconds * deltasPerSecond));
        while (sent < due) {
          const book = order[next]!;
          next = (next + 1) % order.length;
          publishDelta(book);
          sent++;
        }
        if (performance.now() >= endAt) resolve();
        else setTimeout(tick, 2);
      };
      tick();
    });
    const driveMs = performance.now() - startedAt;
    function publishDelta(book: SyntheticBook): void {
      const changes: BookLevelChange[] = [];
      book.counter++;
      const probe = { price: book.probePrice, qty: book.counter, orders: 1 };
      book.bid.set(probe.price, probe);
      changes.push({ side: 'bid', ...probe });
      // One other level: a new quantity, or gone, or back.
      const side = Math.random() < 0.5 ? 'bid' : 'ask';
      const prices = side === 'bid' ? book.bidPrices : book.askPrices;
      const price = prices[1 + Math.floor(Math.random() * (prices.length - 1))]!;
      const levels = book[side];
      const remove = levels.has(price) && Math.random() < 0.1;
      const qty = remove ? 0 : 10 * (1 + Math.floor(Math.random() * 500));
      const orders = remove ? 0 : 1 + Math.floor(Math.random() * 5);
      if (remove) levels.delete(price);
      else levels.set(price, { price, qty, orders });
      changes.push({ side, price, qty, orders });
      book.seq++;
      const at = epochNow();
      book.publishedAt.push(at);
      t.server.gateway.publish(destinations.book(book.assetId), { type: 'delta', assetId: book.assetId, seq: book.seq, changes, at: new Date(at).toISOString() });
    }

    const load = await page.evaluate(() => {
      const state = (window as unknown as { __uiBench: { frames: number; running: boolean; longest: number; longTasks: number; seen: Array<[string, string, number, number]>; startedAt: number } }).__uiBench;
      return { frames: state.frames, longest: state.longest, longTasks: state.longTasks, seconds: (performance.timeOrigin + performance.now() - state.startedAt) / 1000 };
    });

    // Then wait (up to 10 s) until every book shows its last delta, so every delta's delay is known.
    const finalCounters = Object.fromEntries(order.map((book) => [book.assetId, String(book.counter)]));
    const drained = await page
      .waitForFunction(
        (expected) =>
          [...document.querySelectorAll<HTMLElement>('.workspace-book .order-book')].every(
            (element) => (element.querySelector('.book-side-bid tbody tr.book-level')?.children[1]?.textContent ?? '').replace(/\D/g, '') === expected[element.dataset.asset ?? ''],
          ),
        finalCounters,
        { timeout: 10_000, polling: 20 },
      )
      .then(() => true, () => false);
    await page.waitForTimeout(100);
    const result = await page.evaluate(() => {
      const state = (window as unknown as { __uiBench: { frames: number; running: boolean; longest: number; longTasks: number; seen: Array<[string, string, number, number]>; startedAt: number } }).__uiBench;
      state.running = false;
      return state;
    });
    const resubscribes = snapshotsServed - snapshotsAtStart;
    if (cdp && profilePath) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(profilePath, JSON.stringify(profile));
      console.log(`page CPU profile: ${profilePath}`);
    }
    await context.close();

    // Delays: per delta, the first painted counter value at or beyond its own.
    const allDelays: number[] = [];
    const shownDelays: number[] = [];
    let unpainted = 0;
    for (const book of order) {
      const painted = result.seen
        .filter(([assetId]) => assetId === book.assetId)
        .map(([, text, , paintedAt]) => ({ counter: Number(text.replace(/\D/g, '')), paintedAt }))
        .filter((p) => Number.isFinite(p.counter) && p.counter > probeBase)
        .sort((a, b) => a.paintedAt - b.paintedAt);
      for (const p of painted) {
        const at = book.publishedAt[p.counter - probeBase - 1];
        if (at !== undefined) shownDelays.push(p.paintedAt - at);
      }
      let i = 0;
      for (let k = 0; k < book.publishedAt.length; k++) {
        const counter = probeBase + k + 1;
        while (i < painted.length && painted[i]!.counter < counter) i++;
        if (i >= painted.length) {
          unpainted++;
          continue;
        }
        allDelays.push(painted[i]!.paintedAt - book.publishedAt[k]!);
      }
    }
    allDelays.sort((a, b) => a - b);
    shownDelays.sort((a, b) => a - b);
    const fps = Math.round(load.frames / load.seconds);
    const longest = Math.round(load.longest);
    const p50 = percentile(allDelays, 50);
    const p99 = percentile(allDelays, 99);
    console.log(`books on screen: ${shownBooks} (${assets.map((a) => a.id).join(', ')})`);
    console.log(`deltas published: ${sent} in ${(driveMs / 1000).toFixed(1)} s (${Math.round(sent / (driveMs / 1000))}/s, wanted ${deltasPerSecond}/s), ${Math.round(sent / order.length)} per book`);
    console.log(`frames during the load: ${load.frames} in ${load.seconds.toFixed(1)} s = ${fps} fps (target >= 55)`);
    console.log(`long tasks during the load: ${load.longTasks}, longest ${longest} ms (target <= 50)`);
    console.log(`every book showed its last delta afterwards: ${drained ? 'yes' : 'no (within 10 s)'}`);
    console.log(`best-bid values painted: ${result.seen.length}; deltas covered by a paint: ${allDelays.length}, not yet painted at the end: ${unpainted}; resubscriptions: ${resubscribes}`);
    console.log(
      `delay publication -> paint, every delta: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${(allDelays.at(-1) ?? 0).toFixed(1)} ms (target p99 < 50)`,
    );
    console.log(
      `delay publication -> paint, values shown: p50 ${percentile(shownDelays, 50).toFixed(1)} ms, p99 ${percentile(shownDelays, 99).toFixed(1)} ms (n=${shownDelays.length})`,
    );
    console.log(`bench:ui fps=${fps} longest_task_ms=${longest} p50_ms=${p50.toFixed(1)} p99_ms=${p99.toFixed(1)}`);
  } finally {
    await browser.close();
    await t.server.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
