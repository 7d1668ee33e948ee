/**
 * One update per animation frame for the views: a fast book may change hundreds of times a second,
 * the screen repaints 60 times. The latest value of each frame wins.
 */
import { Observable, type OperatorFunction } from 'rxjs';

export interface FrameScheduler {
  request(callback: () => void): unknown;
  cancel(handle: unknown): void;
}

/**
 * requestAnimationFrame when the platform has it, else a 16 ms timer (Node, workers, tests). Every
 * caller shares one batch: all the callbacks of a frame run inside a single animation-frame callback,
 * so the updates of twenty books reach React together (one render, before the frame is painted)
 * instead of as twenty callbacks with a render after each.
 */
export function defaultFrameScheduler(): FrameScheduler {
  const g = globalThis as { requestAnimationFrame?: (cb: () => void) => number; cancelAnimationFrame?: (handle: number) => void };
  if (typeof g.requestAnimationFrame === 'function' && typeof g.cancelAnimationFrame === 'function') {
    const raf = g.requestAnimationFrame.bind(globalThis);
    sharedFrames ??= createBatchedFrameScheduler((cb) => raf(cb));
    return sharedFrames;
  }
  return {
    request: (cb) => setTimeout(cb, 16),
    cancel: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}

let sharedFrames: FrameScheduler | undefined;

/** Runs every callback at once: no coalescing (a replay that checks the screens after every frame). */
export const immediateFrames: FrameScheduler = {
  request: (callback) => {
    callback();
    return null;
  },
  cancel: () => {},
};

/**
 * A scheduler that asks `requestFrame` once per frame however many callbacks are requested, and runs
 * them in request order; a callback that throws does not stop the others (its error is rethrown
 * asynchronously).
 */
export function createBatchedFrameScheduler(requestFrame: (run: () => void) => unknown): FrameScheduler {
  let nextHandle = 1;
  let queue = new Map<number, () => void>();
  let requested = false;
  const run = (): void => {
    requested = false;
    const due = queue;
    queue = new Map();
    for (const cb of due.values()) {
      try {
        cb();
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };
  return {
    request(cb) {
      const handle = nextHandle++;
      queue.set(handle, cb);
      if (!requested) {
        requested = true;
        requestFrame(run);
      }
      return handle;
    },
    cancel(handle) {
      queue.delete(handle as number);
    },
  };
}

/** A frame scheduler that tests drive by hand: `frame()` runs everything requested so far. */
export interface ManualFrameScheduler extends FrameScheduler {
  /** Runs the callbacks requested before this call; returns how many ran. */
  frame(): number;
  pending(): number;
}

export function createManualFrameScheduler(): ManualFrameScheduler {
  let nextHandle = 1;
  const queue = new Map<number, () => void>();
  return {
    request(cb) {
      const handle = nextHandle++;
      queue.set(handle, cb);
      return handle;
    },
    cancel(handle) {
      queue.delete(handle as number);
    },
    frame() {
      const due = [...queue.entries()];
      queue.clear();
      for (const [, cb] of due) cb();
      return due.length;
    },
    pending: () => queue.size,
  };
}

export interface CoalesceOptions<T> {
  scheduler?: FrameScheduler;
  /**
   * Values for which the view must not wait a frame (a book turning stale): emitted at once, and
   * any value held for the frame is dropped as older.
   */
  immediate?: (value: T, previous: T | undefined) => boolean;
}

/**
 * Emits at most once per frame, the latest value. On completion a held value is emitted first;
 * errors pass at once.
 */
export function coalesceToFrame<T>(options: CoalesceOptions<T> = {}): OperatorFunction<T, T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const scheduler = options.scheduler ?? defaultFrameScheduler();
      let held: { value: T } | undefined;
      let handle: unknown;
      let scheduled = false;
      let last: T | undefined;
      const emit = (value: T): void => {
        last = value;
        subscriber.next(value);
      };
      const cancel = (): void => {
        if (scheduled) scheduler.cancel(handle);
        scheduled = false;
      };
      const subscription = source.subscribe({
        next(value) {
          if (options.immediate?.(value, held ? held.value : last)) {
            held = undefined;
            cancel();
            emit(value);
            return;
          }
          held = { value };
          if (!scheduled) {
            scheduled = true;
            handle = scheduler.request(() => {
              scheduled = false;
              const pending = held;
              held = undefined;
              if (pending) emit(pending.value);
            });
          }
        },
        error(error) {
          cancel();
          held = undefined;
          subscriber.error(error);
        },
        complete() {
          cancel();
          const pending = held;
          held = undefined;
          if (pending) emit(pending.value);
          subscriber.complete();
        },
      });
      return () => {
        cancel();
        subscription.unsubscribe();
      };
    });
}
