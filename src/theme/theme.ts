import { useSyncExternalStore } from 'react';
import type { Theme } from '../../protocol/enums.ts';

/**
 * The theme in use (SPEC §4: light or dark, light by default). It is applied as
 * `<html data-theme>` so the CSS variables of tokens.css switch. The signed-in user's preference
 * (GET /user/info) wins when it loads; the last theme is also kept in localStorage so the next
 * visit (and the sign-in page) opens in it without a flash.
 */
export const DEFAULT_THEME: Theme = 'light';
const STORAGE_KEY = 'exchange.theme';
const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function readStored(): Theme {
  const saved = storage()?.getItem(STORAGE_KEY);
  return saved === 'dark' || saved === 'light' ? saved : DEFAULT_THEME;
}

let current: Theme = readStored();

function apply(theme: Theme): void {
  if (typeof document !== 'undefined') document.documentElement.dataset.theme = theme;
}

export function getTheme(): Theme {
  return current;
}

export function setTheme(theme: Theme): void {
  try {
    storage()?.setItem(STORAGE_KEY, theme);
  } catch {
    // Storage blocked: the theme still applies for this page.
  }
  apply(theme);
  if (theme === current) return;
  current = theme;
  for (const listener of listeners) listener();
}

/** Applies the remembered theme; called once before the first render. */
export function applyStoredTheme(): void {
  current = readStored();
  apply(current);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, getTheme, getTheme);
}
