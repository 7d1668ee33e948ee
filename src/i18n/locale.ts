import type { Locale } from '../../protocol/enums.ts';

/** SPEC §2 and §9: Romanian by default with no URL prefix, English under /en; cookie kept 365 days. */
export const DEFAULT_LOCALE: Locale = 'ro';
export const BASE_PATH = '/session';
export const LOCALE_COOKIE = 'locale';
export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * The locale the formatters use (react-intl's IntlProvider, `intl.locale`): English is formatted as in
 * Britain, day before month and a 24-hour clock ('6 Dec 2026', '06/12/2026, 07:37:01'), never the
 * American month-first form; Romanian as it is. Numbers read the same in en-GB as in en
 * (1,234.50; docs/i18n.md "Dates and times").
 */
export function intlLocale(locale: Locale): string {
  return locale === 'en' ? 'en-GB' : 'ro';
}

/** The app's language of a formatting locale: 'en-GB' (or 'en') -> 'en', anything else -> 'ro'. */
export function appLocale(intlLocaleTag: string): Locale {
  return intlLocaleTag === 'en' || intlLocaleTag.startsWith('en-') ? 'en' : 'ro';
}

/** Removes the /session base path if present, so both router-internal and full paths work. */
function withoutBase(pathname: string): string {
  if (pathname === BASE_PATH) return '/';
  return pathname.startsWith(`${BASE_PATH}/`) ? pathname.slice(BASE_PATH.length) : pathname;
}

/** `/en` and `/en/...` (with or without the /session base) are English; everything else Romanian. */
export function localeFromPath(pathname: string): Locale {
  const path = withoutBase(pathname);
  return path === '/en' || path.startsWith('/en/') ? 'en' : 'ro';
}

/** The path without its locale prefix: '/en/login' -> '/login', '/en' -> '/'. Base path removed. */
export function stripLocale(pathname: string): string {
  const path = withoutBase(pathname);
  if (path === '/en' || path === '/en/') return '/';
  return path.startsWith('/en/') ? path.slice(3) : path;
}

/** The router path of a page in a locale: localePath('en', '/login') -> '/en/login'. */
export function localePath(locale: Locale, path: string): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  if (locale === DEFAULT_LOCALE) return clean;
  return clean === '/' ? `/${locale}` : `/${locale}${clean}`;
}

/** The same page in another language. */
export function switchLocalePath(pathname: string, target: Locale): string {
  return localePath(target, stripLocale(pathname));
}

export function parseLocaleCookie(cookieHeader: string): Locale | null {
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === LOCALE_COOKIE) {
      const value = decodeURIComponent(rest.join('='));
      return value === 'ro' || value === 'en' ? value : null;
    }
  }
  return null;
}

export function readLocaleCookie(doc: Document = document): Locale | null {
  return parseLocaleCookie(doc.cookie);
}

export function localeCookie(locale: Locale): string {
  return `${LOCALE_COOKIE}=${locale}; Max-Age=${LOCALE_COOKIE_MAX_AGE_SECONDS}; Path=${BASE_PATH}; SameSite=Lax`;
}

export function writeLocaleCookie(locale: Locale, doc: Document = document): void {
  doc.cookie = localeCookie(locale);
}

/**
 * Where to send a visitor who opens the bare root (/session or /session/) while the cookie remembers
 * English; null to stay. Only the root is redirected, so an explicit Romanian link is always honoured.
 */
export function preferredLocaleRedirect(pathname: string, remembered: Locale | null): string | null {
  const atRoot = pathname === BASE_PATH || pathname === `${BASE_PATH}/`;
  return atRoot && remembered === 'en' ? `${BASE_PATH}/en` : null;
}
