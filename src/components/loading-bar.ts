/**
 * The loading bar (SPEC §9: 5000 ms duration, 200 ms throttle). Navigation and every request call
 * `start()` and the returned `done()`; the bar appears only when something has been loading for longer
 * than the throttle, so quick work never flickers. Once shown, it fills towards the end over the
 * duration (it stops short of the end until the work is done), then completes and fades.
 */
export const LOADING_BAR_DURATION_MS = 5000;
export const LOADING_BAR_THROTTLE_MS = 200;
/** How often the progress moves while visible. */
export const LOADING_BAR_TICK_MS = 100;
/** How long the full bar stays before it hides. */
export const LOADING_BAR_HIDE_MS = 300;
/** The bar never shows complete before the work is. */
const MAX_PENDING_PROGRESS = 95;

export interface LoadingBarState {
  visible: boolean;
  /** 0 to 100. */
  progress: number;
}

export interface LoadingBarOptions {
  durationMs?: number;
  throttleMs?: number;
  now?: () => number;
}

type Timer = ReturnType<typeof setTimeout>;

export class LoadingBarController {
  private readonly durationMs: number;
  private readonly throttleMs: number;
  private readonly now: () => number;
  private pending = 0;
  private state: LoadingBarState = { visible: false, progress: 0 };
  private showTimer: Timer | null = null;
  private tickTimer: ReturnType<typeof setInterval> | null = null;
  private hideTimer: Timer | null = null;
  private shownAt = 0;
  private readonly listeners = new Set<() => void>();

  constructor(options: LoadingBarOptions = {}) {
    this.durationMs = options.durationMs ?? LOADING_BAR_DURATION_MS;
    this.throttleMs = options.throttleMs ?? LOADING_BAR_THROTTLE_MS;
    this.now = options.now ?? (() => Date.now());
  }

  /** Marks one piece of work as started; call the returned function (once) when it ends. */
  start(): () => void {
    this.pending += 1;
    if (this.pending === 1) this.begin();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.pending -= 1;
      if (this.pending === 0) this.end();
    };
  }

  /** Runs a promise under the bar. */
  track<T>(work: Promise<T>): Promise<T> {
    const done = this.start();
    return work.finally(done);
  }

  get isLoading(): boolean {
    return this.pending > 0;
  }

  getSnapshot = (): LoadingBarState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private begin(): void {
    if (this.hideTimer) {
      // Work started again while the full bar was fading: keep it on screen and continue.
      clearTimeout(this.hideTimer);
      this.hideTimer = null;
      this.show();
      return;
    }
    if (this.state.visible) return;
    this.showTimer = setTimeout(() => {
      this.showTimer = null;
      this.show();
    }, this.throttleMs);
  }

  private show(): void {
    this.shownAt = this.now();
    this.publish({ visible: true, progress: 0 });
    this.tickTimer ??= setInterval(() => this.tick(), LOADING_BAR_TICK_MS);
  }

  private tick(): void {
    const elapsed = this.now() - this.shownAt;
    const progress = Math.min(MAX_PENDING_PROGRESS, (elapsed / this.durationMs) * 100);
    if (progress !== this.state.progress) this.publish({ visible: true, progress });
  }

  private end(): void {
    if (this.showTimer) {
      // Finished within the throttle: the bar never appears.
      clearTimeout(this.showTimer);
      this.showTimer = null;
      return;
    }
    if (!this.state.visible) return;
    this.stopTicking();
    this.publish({ visible: true, progress: 100 });
    this.hideTimer = setTimeout(() => {
      this.hideTimer = null;
      this.publish({ visible: false, progress: 0 });
    }, LOADING_BAR_HIDE_MS);
  }

  private stopTicking(): void {
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.tickTimer = null;
  }

  private publish(next: LoadingBarState): void {
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}

/** The app's one loading bar, fed by navigation (LoadingBar component) and by requests (api/http.ts). */
export const loadingBar = new LoadingBarController();
