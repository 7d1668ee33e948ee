/**
 * Which toasts the tray shows, as a pure fold over time (the view keeps one timer for
 * `nextDeadline`). At most MAX_TOASTS are visible, newest first. One's own fill stays until it is
 * read; only after FILL_MIN_MS may a newer toast take its place (it stays unread in the bell's list).
 * A notice leaves NOTICE_MS after it was shown or last grew. When every visible toast is a fill
 * younger than FILL_MIN_MS, a newer toast waits its turn rather than push one away.
 */
import type { ToastKind } from './notification-center.ts';

export const MAX_TOASTS = 3;
export const FILL_MIN_MS = 8000;
export const NOTICE_MS = 5000;

export interface ToastSlot {
  /** The notification entry's key. */
  key: string;
  kind: ToastKind;
  /** When it became visible (null while waiting). */
  shownAt: number | null;
  /** When it was shown or its entry last grew: a notice's time runs from here. */
  touchedAt: number;
}

export interface TrayState {
  /** Newest first. */
  visible: readonly ToastSlot[];
  /** Oldest first. */
  waiting: readonly ToastSlot[];
}

export const emptyTray: TrayState = { visible: [], waiting: [] };

/** The visible toast that may give way to a newer one: a notice first, else a fill shown FILL_MIN_MS ago; oldest first. */
function yielding(visible: readonly ToastSlot[], now: number): ToastSlot | undefined {
  const oldestFirst = [...visible].reverse();
  return oldestFirst.find((slot) => slot.kind === 'notice') ?? oldestFirst.find((slot) => now - (slot.shownAt ?? now) >= FILL_MIN_MS);
}

/** Moves waiting toasts into free places, and into places of toasts that may now give way. */
function promote(state: TrayState, now: number): TrayState {
  let { visible, waiting } = state;
  while (waiting.length > 0) {
    if (visible.length >= MAX_TOASTS) {
      const out = yielding(visible, now);
      if (!out) break;
      visible = visible.filter((slot) => slot !== out);
    }
    const [next, ...rest] = waiting;
    visible = [{ ...next!, shownAt: now, touchedAt: now }, ...visible];
    waiting = rest;
  }
  return visible === state.visible && waiting === state.waiting ? state : { visible, waiting };
}

/** An entry to toast: shown (taking the place of one that may give way), or refreshed in place when already there. */
export function showToast(state: TrayState, key: string, kind: ToastKind, now: number): TrayState {
  const strongest = (a: ToastKind, b: ToastKind): ToastKind => (a === 'fill' || b === 'fill' ? 'fill' : 'notice');
  if (state.visible.some((slot) => slot.key === key)) {
    return { ...state, visible: state.visible.map((slot) => (slot.key === key ? { ...slot, kind: strongest(slot.kind, kind), touchedAt: now } : slot)) };
  }
  if (state.waiting.some((slot) => slot.key === key)) {
    return { ...state, waiting: state.waiting.map((slot) => (slot.key === key ? { ...slot, kind: strongest(slot.kind, kind), touchedAt: now } : slot)) };
  }
  return promote({ ...state, waiting: [...state.waiting, { key, kind, shownAt: null, touchedAt: now }] }, now);
}

/** Notices whose time is up leave; waiting toasts move up. */
export function expireToasts(state: TrayState, now: number): TrayState {
  const visible = state.visible.filter((slot) => slot.kind === 'fill' || now - slot.touchedAt < NOTICE_MS);
  return promote(visible.length === state.visible.length ? state : { ...state, visible }, now);
}

/** Read, dismissed or gone from the list: these toasts leave. */
export function removeToasts(state: TrayState, keys: (key: string) => boolean, now: number): TrayState {
  const visible = state.visible.filter((slot) => !keys(slot.key));
  const waiting = state.waiting.filter((slot) => !keys(slot.key));
  if (visible.length === state.visible.length && waiting.length === state.waiting.length) return state;
  return promote({ visible, waiting }, now);
}

/** When the tray next changes by itself (a notice's end, a fill that may give way to a waiting toast); null: never. */
export function nextDeadline(state: TrayState): number | null {
  const times: number[] = [];
  for (const slot of state.visible) {
    if (slot.kind === 'notice') times.push(slot.touchedAt + NOTICE_MS);
    else if (state.waiting.length > 0) times.push((slot.shownAt ?? slot.touchedAt) + FILL_MIN_MS);
  }
  return times.length === 0 ? null : Math.min(...times);
}
