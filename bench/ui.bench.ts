/**
 * npm run bench:ui — a broker's saved workspace in headless Chromium shows the books of its assets while
 * this driver pushes book deltas (UI_DELTAS_PER_S, 5,000/s in total, round-robin) across them through the
 * real STOMP channel for UI_BENCH_SECONDS (30 s). Prints frames per second, the longest task, and the
 * delay from a delta's publication to its paint (p50/p99), then one line:
 * `bench:ui fps=N longest_task_ms=N p50_ms=X p99_ms=X`.
 *
 * Books: UI_BENCH_BOOKS (20) assets of the demo market with the most assets (EL-SPOT: the day-ahead base
 * and peak products and the hourly products H01..H24), in one workspace (the app shows one workspace
 * per page, one market per workspace). The market watch above them fills the first screen, so the page
 * is scrolled to the first book, as a trader watching them would; how many books are then in view
 * depends on the viewport (the e2e 1366 x 860, or UI_BENCH_VIEWPORT=WxH, e.g. 2560x1440).
 *
 * The server runs in-process (startTestServer: in-memory store, frozen test clock, no simulator, so no
 * real order or expiry changes a book) and serves the app built into UI_BENCH_CLIENT_DIR
 * (dist/bench-client; `npm run bench:ui` builds it there, never into dist/client). Deltas are synthetic:
 * level changes fed to the server's market-data publisher exactly as the engine's level events are, so
 * they reach the page as the product sends them: conflated per book over CONFLATE_MS (20 ms), each
 * delta carrying every level changed in its window at its latest value, contiguous seqs, snapshots from
 * the published levels (UI_BENCH_PATH=direct instead publishes one STOMP MESSAGE frame per delta with
 * server.gateway.publish, bypassing the conflation, with snapshot() answering from the synthetic book).
 * A delta's delay counts from when the driver made it, so the conflation wait is inside the figure.
 *
 * The browser: Debian's Chromium with the e2e flags, driven over a bare DevTools socket that uses
 * Runtime only (Profiler and Tracing when asked); the session is put in localStorage from a sign-in
 * over the API. UI_BENCH_DRIVER=playwright drives it through Playwright instead, as the e2e tests do;
 * Playwright keeps the DevTools Network domain on, so Chromium copies every WebSocket frame to the
 * driver, a cost per message no trader's browser pays.
 *
 * How the delay is seen: every delta sets the best bid level's quantity to the asset's next counter
 * value (and changes one other level). The page notes, with a MutationObserver on the books, when the
 * best bid's quantity text changes; its paint is the end of the first rendering update after it (each
 * frame's requestAnimationFrame callback posts a MessageChannel message, whose task runs once that
 * frame's style, layout and paint are done; a change made in a rAF callback of that frame is in it).
 * Compositing and display follow on other threads, a few ms the figure leaves out. A delta's
 * delay is the paint of the first shown counter value >= its own minus its publication time (Node's
 * and Chromium's wall clocks: same machine); deltas superseded before a frame count with the frame that
 * showed a newer value. The p50/p99 of the summary line are
 * those of the books in view (only they are painted); the delay to the DOM of all books is printed too
 * (a book out of view redraws its levels every 1-2 s, its own period). Frames (requestAnimationFrame callbacks) and
 * long tasks (PerformanceObserver 'longtask') count over the load only; after it the bench waits until
 * every book shows its last delta so each delta's delay is known.
 *
 * Environment: UI_BENCH_SECONDS (30), UI_DELTAS_PER_S (5000), UI_BENCH_BOOKS (20), UI_BENCH_PATH (server,
 * or direct), CONFLATE_MS (20), UI_BENCH_CLIENT_DIR,
 * UI_BENCH_VIEWPORT, UI_BENCH_DRIVER (bare, or playwright), UI_BENCH_SCREENSHOT (a PNG at the end of the
 * load), UI_BENCH_CPU_PROFILE (a file for the page's CPU profile), UI_BENCH_TRACE (a file for a Chromium
 * performance trace of the load; the bench prints the renderer main thread's time by kind).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import WebSocket from 'ws';
import type { BookLevel, BookLevelChange, BookSnapshot } from '../protocol/index.ts';
import { destinations } from '../protocol/index.ts';
import { alignClock, newPage, signIn, viewport } from '../tests/e2e/app.ts';
import { launchChromium } from '../tests/e2e/browser.ts';
import { demoUser, startTestServer, type TestServer } from '../tests/helpers/test-server.ts';
import { percentile } from './bench-server.ts';

const seconds = Number(process.env.UI_BENCH_SECONDS ?? 30);
const deltasPerSecond = Number(process.env.UI_DELTAS_PER_S ?? 5000);
const wantedBooks = Number(process.env.UI_BENCH_BOOKS ?? 20);
const clientDir = process.env.UI_BENCH_CLIENT_DIR ?? 'dist/bench-client';
const viewportOverride = /^(\d+)x(\d+)$/.exec(process.env.UI_BENCH_VIEWPORT ?? '');
const viewportSize = viewportOverride ? { width: Number(viewportOverride[1]), height: Number(viewportOverride[2]) } : viewport;
/** 'bare' (default): Chromium over a bare DevTools socket; 'playwright': through Playwright, as the e2e tests. */
const driver = process.env.UI_BENCH_DRIVER === 'playwright' ? 'playwright' : 'bare';
/**
 * 'server' (default): the driver's level changes enter the server's market-data publisher, as the
 * engine's level events do, and reach the browser conflated over CONFLATE_MS (20 ms, the server's
 * default): what a trader's browser receives. 'direct': one STOMP frame per delta, bypassing it.
 */
const deltaPath = process.env.UI_BENCH_PATH === 'direct' ? 'direct' : 'server';
const conflateMs = Number(process.env.CONFLATE_MS ?? 20);
const traceCategories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'];
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

/** What the bench needs of a page; two ways to drive one. */
interface BenchPage {
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** Polls `fn` every 20-50 ms until it is true; false after `timeoutMs`. */
  waitFor<A>(fn: (arg: A) => boolean, arg: A, timeoutMs: number): Promise<boolean>;
  startProfile(): Promise<void>;
  stopProfile(): Promise<unknown>;
  startTrace(): Promise<void>;
  stopTrace(): Promise<string>;
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

// tsx (esbuild) names the functions it compiles with a __name helper the page does not have.
const nameHelper = 'globalThis.__name = globalThis.__name || ((fn) => fn);';

/**
 * Playwright, as the e2e tests drive Chromium. Playwright keeps the DevTools Network domain on, so
 * Chromium also copies every WebSocket frame to the driver: thousands of events a second that a
 * trader's browser does not pay for.
 */
async function openWithPlaywright(t: TestServer, path: string): Promise<BenchPage> {
  const browser: Browser = await launchChromium();
  const { context, page } = await newPage(browser);
  await page.setViewportSize(viewportSize);
  await context.addInitScript({ content: nameHelper });
  await signIn(page, t, username, 'en');
  await page.goto(`${t.server.url}${path}`);
  const cdp = await context.newCDPSession(page);
  let tracing: Promise<Buffer> | null = null;
  return {
    evaluate: (fn, arg) => page.evaluate(fn as never, arg as never) as never,
    waitFor: (fn, arg, timeoutMs) => page.waitForFunction(fn as never, arg as never, { timeout: timeoutMs, polling: 20 }).then(() => true, () => false),
    async startProfile() {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    },
    stopProfile: async () => (await cdp.send('Profiler.stop')).profile,
    async startTrace() {
      await browser.startTracing(page, { categories: traceCategories });
      tracing = null;
    },
    async stopTrace() {
      tracing = browser.stopTracing();
      return (await tracing).toString('utf8');
    },
    screenshot: async (path) => {
      await page.screenshot({ path });
    },
    close: () => browser.close(),
  };
}

/** A minimal DevTools protocol client: commands and events over the browser's socket (flat sessions). */
class DevTools {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: any) => void; reject: (error: Error) => void }>(); // eslint-disable-line @typescript-eslint/no-explicit-any -- CDP replies and events differ per method
  readonly listeners = new Map<string, (params: any) => void>(); // eslint-disable-line @typescript-eslint/no-explicit-any -- CDP replies and events differ per method

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string }; method?: string; params?: unknown };
      if (message.id !== undefined) {
        const waiter = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(message.error.message));
        else waiter?.resolve(message.result);
      } else if (message.method) this.listeners.get(message.method)?.(message.params);
    });
  }

  static async connect(url: string): Promise<DevTools> {
    const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 1024 * 1024 * 1024 });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new DevTools(socket);
  }

  send<R = any>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<R> { // eslint-disable-line @typescript-eslint/no-explicit-any -- CDP replies and events differ per method
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  close(): void {
    this.socket.close();
  }
}

/**
 * Debian's Chromium started by the bench with the e2e flags and a DevTools socket of which only
 * Runtime (and, when asked, Profiler and Tracing) is used: no domain that instruments the network.
 * The session is the one the app keeps in localStorage (src/auth/session.ts), from a sign-in over
 * the API.
 */
async function openBare(t: TestServer, path: string): Promise<BenchPage> {
  const profileDir = mkdtempSync(join(tmpdir(), 'ui-bench-chromium-'));
  const chromium: ChildProcess = spawn(
    process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--remote-debugging-port=0',
      `--user-data-dir=${profileDir}`,
      `--window-size=${viewportSize.width},${viewportSize.height}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${text}`)), 20_000);
    chromium.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    chromium.once('exit', (code) => reject(new Error(`Chromium exited (${code}): ${text}`)));
  });
  const devtools = await DevTools.connect(endpoint);
  const { targetId } = await devtools.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await devtools.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  await devtools.send('Emulation.setDeviceMetricsOverride', { width: viewportSize.width, height: viewportSize.height, deviceScaleFactor: 1, mobile: false }, sessionId);
  const evaluate = async <A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> => {
    const expression = `${nameHelper}(${fn.toString()})(${arg === undefined ? '' : JSON.stringify(arg)})`;
    const reply = await devtools.send<{ result: { value?: R }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
      'Runtime.evaluate',
      { expression, awaitPromise: true, returnByValue: true },
      sessionId,
    );
    if (reply.exceptionDetails) throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
    return reply.result.value as R;
  };
  const waitFor = async <A>(fn: (arg: A) => boolean, arg: A, timeoutMs: number): Promise<boolean> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const ok = await evaluate(fn, arg).catch(() => false);
      if (ok) return true;
      if (Date.now() > until) return false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const navigate = async (url: string): Promise<void> => {
    await devtools.send('Page.navigate', { url }, sessionId);
    await waitFor(() => document.readyState === 'complete', null, 15_000);
  };
  // A token for the page: the app restores a session kept in localStorage.
  t.clock.nextTotpStep();
  const login = await t.post('/login', { username, password: demoUser(username).password, code: t.codeFor(username) });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  await navigate(`${t.server.url}en/login`);
  await evaluate((session) => localStorage.setItem('exchange.session', JSON.stringify(session)), { token: login.body.token as string, expiresAt: login.body.expiresAt as string });
  await navigate(`${t.server.url}${path}`);
  let traceChunks: unknown[] = [];
  let traceDone: Promise<void> | null = null;
  return {
    evaluate,
    waitFor,
    async startProfile() {
      await devtools.send('Profiler.enable', {}, sessionId);
      await devtools.send('Profiler.start', {}, sessionId);
    },
    stopProfile: async () => (await devtools.send<{ profile: unknown }>('Profiler.stop', {}, sessionId)).profile,
    async startTrace() {
      traceChunks = [];
      devtools.listeners.set('Tracing.dataCollected', (params: { value: unknown[] }) => traceChunks.push(...params.value));
      traceDone = new Promise((resolve) => devtools.listeners.set('Tracing.tracingComplete', () => resolve()));
      await devtools.send('Tracing.start', { traceConfig: { includedCategories: traceCategories }, transferMode: 'ReportEvents' });
    },
    async stopTrace() {
      await devtools.send('Tracing.end');
      await traceDone;
      return JSON.stringify({ traceEvents: traceChunks });
    },
    async screenshot(path) {
      const { data } = await devtools.send<{ data: string }>('Page.captureScreenshot', { format: 'png' }, sessionId);
      writeFileSync(path, Buffer.from(data, 'base64'));
    },
    async close() {
      devtools.close();
      chromium.kill('SIGTERM');
      await new Promise((resolve) => (chromium.exitCode !== null ? resolve(null) : chromium.once('exit', resolve)));
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

async function run(): Promise<void> {
  const t = await startTestServer({ clientDir, conflateMs: deltaPath === 'server' ? conflateMs : 0 });
  alignClock(t);
  let page: BenchPage | null = null;
  try {
    // The market with the most assets the broker sees: one workspace with all of them.
    const token = await t.login(username);
    const byMarket = exchange.markets
      .map((market) => ({ market, assets: exchange.assets.filter((asset) => asset.marketId === market.id).slice(0, wantedBooks) }))
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
    console.log(`workspace: market ${chosen.market.id}, ${assets.length} books (asked for ${wantedBooks}; one workspace per page, one market per workspace)`);
    if (assets.length < wantedBooks) console.log(`warning: the largest market has only ${assets.length} assets`);

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
    // When the server sent each book's deltas: the part of a delay spent in the conflation window.
    const sentAt = new Map<string, number[]>();
    const publish = t.server.gateway.publish.bind(t.server.gateway);
    t.server.gateway.publish = ((destination: string, body: unknown, ...rest: unknown[]) => {
      const book = books.get(destination.startsWith('/topic/book.') ? destination.slice('/topic/book.'.length) : '');
      if (book) sentAt.set(book.assetId, [...(sentAt.get(book.assetId) ?? []), epochNow()]);
      return (publish as (...args: unknown[]) => unknown)(destination, body, ...rest);
    }) as typeof t.server.gateway.publish;
    if (deltaPath === 'server') {
      // The starting levels enter like any others; the publisher's own snapshots then serve them.
      for (const book of books.values()) {
        t.server.marketData.onEvents(
          (['bid', 'ask'] as const).flatMap((way) => [...book[way].values()].map((level) => ({ type: 'level' as const, assetId: book.assetId, way, ...level }))),
          0,
        );
      }
      t.server.marketData.flush();
    }
    t.server.marketData.snapshot = (assetId: string): BookSnapshot => {
      const book = books.get(assetId);
      if (!book) return original(assetId);
      snapshotsServed++;
      if (deltaPath === 'server') return original(assetId);
      return {
        type: 'snapshot',
        assetId,
        seq: book.seq,
        bids: [...book.bid.values()].sort((a, b) => b.price - a.price),
        asks: [...book.ask.values()].sort((a, b) => a.price - b.price),
        at: new Date().toISOString(),
      };
    };

    page = driver === 'bare' ? await openBare(t, 'en/trading/workspace') : await openWithPlaywright(t, 'en/trading/workspace');
    const workspaceName = `UI bench ${chosen.market.id}`;
    const shown = await page.waitFor(
      ({ name, count }) =>
        [...document.querySelectorAll('[data-workspace] h2')].some((h) => h.textContent === name) &&
        document.querySelectorAll('.workspace-book .order-book:not(.order-book-stale)').length === count,
      { name: workspaceName, count: assets.length },
      20_000,
    );
    if (!shown) {
      // What the page showed instead, so a failure can be read without rerunning.
      const seen = await page.evaluate(() => ({
        path: location.pathname,
        headings: [...document.querySelectorAll('[data-workspace] h2')].map((h) => h.textContent),
        books: document.querySelectorAll('.workspace-book').length,
        liveBooks: document.querySelectorAll('.workspace-book .order-book:not(.order-book-stale)').length,
        staleBooks: document.querySelectorAll('.workspace-book .order-book-stale').length,
      }));
      await page.screenshot(join(tmpdir(), 'ui-bench-failure.png'));
      throw new Error(`the workspace with ${assets.length} live books did not show: ${JSON.stringify(seen)} (screenshot ${join(tmpdir(), 'ui-bench-failure.png')})`);
    }
    const shownBooks = await page.evaluate(() => document.querySelectorAll('.workspace-book').length);
    // The market watch fills the first screen: scroll the books into view, as a trader watching them would.
    const inView = new Set(
      await page.evaluate(() => {
        document.querySelector('.workspace-book')?.scrollIntoView({ block: 'start' });
        return [...document.querySelectorAll<HTMLElement>('.workspace-book .order-book')]
          .filter((e) => {
            const box = e.getBoundingClientRect();
            return box.bottom > 0 && box.top < innerHeight;
          })
          .map((e) => e.dataset.asset ?? '');
      }),
    );
    console.log(`deltas: ${deltaPath === 'server' ? `through the server's market-data publisher, conflated over ${conflateMs} ms` : 'one STOMP frame each (UI_BENCH_PATH=direct)'}`);
    console.log(`driver: ${driver}; viewport ${viewportSize.width}x${viewportSize.height}: ${inView.size} of ${shownBooks} books in view (at least partly)`);
    const snapshotsAtStart = snapshotsServed;
    await new Promise((resolve) => setTimeout(resolve, 500));

    // Instruments: rAF frame count, long tasks, best-bid quantity text changes and the frame that shows them.
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
      // Paint time: the first moment after a rendering update that follows the change. Each frame's
      // rAF callback posts a message; its task runs once that frame's rendering update (style, layout,
      // paint) is done, so every change made before it, in a task or in a rAF callback of the same
      // frame, is in that frame.
      const bookElements = [...document.querySelectorAll<HTMLElement>('.workspace-book .order-book')];
      const last = new Map<string, string>();
      let pending: Array<[string, string, number]> = [];
      const afterRendering = new MessageChannel();
      afterRendering.port1.onmessage = () => {
        if (pending.length === 0) return;
        const painted = now();
        for (const [assetId, qty, mutated] of pending) state.seen.push([assetId, qty, mutated, painted]);
        pending = [];
      };
      const frame = () => {
        if (state.running) state.frames++;
        afterRendering.port2.postMessage(null);
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
      };
      read();
      const observer = new MutationObserver(() => {
        if (state.running) read();
      });
      for (const element of bookElements) observer.observe(element, { subtree: true, childList: true, characterData: true });
    });

    // UI_BENCH_CPU_PROFILE=file.cpuprofile: the page's CPU profile over the run (DevTools format).
    const profilePath = process.env.UI_BENCH_CPU_PROFILE;
    if (profilePath) await page.startProfile();

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
    const tracePath = process.env.UI_BENCH_TRACE;
    if (tracePath) await page.startTrace();
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
    const screenshotPath = process.env.UI_BENCH_SCREENSHOT;
    if (screenshotPath) await page.screenshot(screenshotPath);
    if (tracePath) {
      const trace = await page.stopTrace();
      writeFileSync(tracePath, trace);
      console.log(`page trace: ${tracePath}`);
      console.log(summariseTrace(trace));
    }
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
      const at = epochNow();
      book.publishedAt.push(at);
      if (deltaPath === 'server') {
        t.server.marketData.onEvents(changes.map((change) => ({ type: 'level' as const, assetId: book.assetId, way: change.side, price: change.price, qty: change.qty, orders: change.orders })), 0);
        return;
      }
      book.seq++;
      t.server.gateway.publish(destinations.book(book.assetId), { type: 'delta', assetId: book.assetId, seq: book.seq, changes, at: new Date(at).toISOString() });
    }

    const load = await page.evaluate(() => {
      const state = (window as unknown as { __uiBench: { frames: number; running: boolean; longest: number; longTasks: number; seen: Array<[string, string, number, number]>; startedAt: number } }).__uiBench;
      return { frames: state.frames, longest: state.longest, longTasks: state.longTasks, seconds: (performance.timeOrigin + performance.now() - state.startedAt) / 1000 };
    });

    // Then wait (up to 10 s) until every book shows its last delta, so every delta's delay is known.
    const finalCounters = Object.fromEntries(order.map((book) => [book.assetId, String(book.counter)]));
    const drained = await page.waitFor(
      (expected) =>
        [...document.querySelectorAll<HTMLElement>('.workspace-book .order-book')].every(
          (element) => (element.querySelector('.book-side-bid tbody tr.book-level')?.children[1]?.textContent ?? '').replace(/\D/g, '') === expected[element.dataset.asset ?? ''],
        ),
      finalCounters,
      10_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const result = await page.evaluate(() => {
      const state = (window as unknown as { __uiBench: { frames: number; running: boolean; longest: number; longTasks: number; seen: Array<[string, string, number, number]>; startedAt: number } }).__uiBench;
      state.running = false;
      return state;
    });
    const resubscribes = snapshotsServed - snapshotsAtStart;
    if (profilePath) {
      writeFileSync(profilePath, JSON.stringify(await page.stopProfile()));
      console.log(`page CPU profile: ${profilePath}`);
    }

    // Delays: per delta, the first painted counter value at or beyond its own. Only a book in view is
    // painted; for the others the figure is the delay to the page's DOM.
    const allDelays: number[] = [];
    const viewDelays: number[] = [];
    const shownDelays: number[] = [];
    const serverWaits: number[] = [];
    let unpainted = 0;
    for (const book of order) {
      const sends = sentAt.get(book.assetId) ?? [];
      let j = 0;
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
        if (inView.has(book.assetId)) {
          viewDelays.push(painted[i]!.paintedAt - book.publishedAt[k]!);
          while (j < sends.length && sends[j]! < book.publishedAt[k]!) j++;
          if (j < sends.length) serverWaits.push(sends[j]! - book.publishedAt[k]!);
        }
      }
    }
    allDelays.sort((a, b) => a - b);
    viewDelays.sort((a, b) => a - b);
    serverWaits.sort((a, b) => a - b);
    shownDelays.sort((a, b) => a - b);
    const fps = Math.round(load.frames / load.seconds);
    const longest = Math.round(load.longest);
    const p50 = percentile(viewDelays, 50);
    const p99 = percentile(viewDelays, 99);
    console.log(`books on screen: ${shownBooks} (${assets.map((a) => a.id).join(', ')})`);
    console.log(`deltas published: ${sent} in ${(driveMs / 1000).toFixed(1)} s (${Math.round(sent / (driveMs / 1000))}/s, wanted ${deltasPerSecond}/s), ${Math.round(sent / order.length)} per book`);
    console.log(`frames during the load: ${load.frames} in ${load.seconds.toFixed(1)} s = ${fps} fps (target >= 55)`);
    console.log(`long tasks during the load: ${load.longTasks}, longest ${longest} ms (target <= 50)`);
    console.log(`every book showed its last delta afterwards: ${drained ? 'yes' : 'no (within 10 s)'}`);
    console.log(`best-bid values painted: ${result.seen.length}; deltas covered by a paint: ${allDelays.length}, not yet painted at the end: ${unpainted}; resubscriptions: ${resubscribes}`);
    console.log(
      `delay publication -> paint, every delta of the ${inView.size} books in view: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${(viewDelays.at(-1) ?? 0).toFixed(1)} ms (n=${viewDelays.length}; target p99 < 50)`,
    );
    console.log(`  of which publication -> sent by the server (the conflation window): p50 ${percentile(serverWaits, 50).toFixed(1)} ms, p99 ${percentile(serverWaits, 99).toFixed(1)} ms`);
    console.log(
      `delay publication -> DOM, every delta of all ${order.length} books (off-screen books are redrawn every 1-2 s, offscreenRefreshMs): p50 ${percentile(allDelays, 50).toFixed(1)} ms, p99 ${percentile(allDelays, 99).toFixed(1)} ms`,
    );
    console.log(
      `delay publication -> paint, values shown: p50 ${percentile(shownDelays, 50).toFixed(1)} ms, p99 ${percentile(shownDelays, 99).toFixed(1)} ms (n=${shownDelays.length})`,
    );
    console.log(`bench:ui fps=${fps} longest_task_ms=${longest} p50_ms=${p50.toFixed(1)} p99_ms=${p99.toFixed(1)}`);
  } finally {
    await page?.close();
    await t.server.close();
  }
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time: on a busy machine much less than `dur`, the thread waiting for a core. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** CPU self time per event name on the renderer's main thread, busiest first (complete events only). */
function summariseTrace(text: string): string {
  const parsed = JSON.parse(text) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return 'page trace: no renderer main thread found';
  const spans = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && typeof e.dur === 'number').sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  if (spans.length === 0) return 'page trace: no events';
  const self = new Map<string, number>();
  const stack: Array<{ name: string; end: number; childCpu: number; cpu: number }> = [];
  let busyWall = 0;
  let busyCpu = 0;
  const close = (until: number) => {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= until) {
      const done = stack.pop()!;
      self.set(done.name, (self.get(done.name) ?? 0) + done.cpu - done.childCpu);
    }
  };
  for (const span of spans) {
    close(span.ts);
    const cpu = span.tdur ?? span.dur!;
    const parent = stack[stack.length - 1];
    if (parent) parent.childCpu += cpu;
    else {
      busyWall += span.dur!;
      busyCpu += cpu;
    }
    stack.push({ name: span.name, end: span.ts + span.dur!, childCpu: 0, cpu });
  }
  close(Number.POSITIVE_INFINITY);
  const wall = spans[spans.length - 1]!.ts + spans[spans.length - 1]!.dur! - spans[0]!.ts;
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12);
  return [
    `renderer main thread over ${(wall / 1e6).toFixed(1)} s: busy ${((busyWall / wall) * 100).toFixed(0)}% of the time, on a core ${((busyCpu / wall) * 100).toFixed(0)}%; CPU self time by event:`,
    ...top.map(([name, us]) => `  ${name.padEnd(36)} ${(us / 1000).toFixed(0).padStart(7)} ms ${((us / busyCpu) * 100).toFixed(1).padStart(5)}%`),
  ].join('\n');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
