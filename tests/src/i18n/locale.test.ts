import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { CHUNK_RELOAD_GUARD_MS, shouldReloadAfterChunkError } from '../../../src/app/chunk-reload.ts';
import { isExpired } from '../../../src/auth/session.ts';
import {
  appLocale,
  intlLocale,
  localeCookie,
  localeFromPath,
  localePath,
  parseLocaleCookie,
  preferredLocaleRedirect,
  stripLocale,
  switchLocalePath,
} from '../../../src/i18n/locale.ts';
import { formatCalendarDate, formatExchangeDateTime, formatMinor, formatUtcDateTime } from '../../../src/i18n/format.ts';

describe('locale from the URL', () => {
  it('is English under /en, Romanian otherwise, with or without the /session base', () => {
    expect(localeFromPath('/session/en')).toBe('en');
    expect(localeFromPath('/session/en/')).toBe('en');
    expect(localeFromPath('/session/en/login')).toBe('en');
    expect(localeFromPath('/en/login')).toBe('en');
    expect(localeFromPath('/session/')).toBe('ro');
    expect(localeFromPath('/session/login')).toBe('ro');
    expect(localeFromPath('/session/english')).toBe('ro');
    expect(localeFromPath('/login')).toBe('ro');
  });

  it('builds and switches locale paths', () => {
    expect(localePath('ro', '/login')).toBe('/login');
    expect(localePath('en', '/login')).toBe('/en/login');
    expect(localePath('en', '/')).toBe('/en');
    expect(localePath('ro', '/')).toBe('/');
    expect(stripLocale('/session/en/login')).toBe('/login');
    expect(stripLocale('/en')).toBe('/');
    expect(switchLocalePath('/login', 'en')).toBe('/en/login');
    expect(switchLocalePath('/en/login', 'ro')).toBe('/login');
    expect(switchLocalePath('/en', 'ro')).toBe('/');
  });
});

describe('locale cookie', () => {
  it('is kept 365 days under the base path', () => {
    expect(localeCookie('en')).toBe('locale=en; Max-Age=31536000; Path=/session; SameSite=Lax');
  });

  it('is read back, ignoring other cookies and unknown values', () => {
    expect(parseLocaleCookie('a=1; locale=en; b=2')).toBe('en');
    expect(parseLocaleCookie('locale=ro')).toBe('ro');
    expect(parseLocaleCookie('locale=fr')).toBeNull();
    expect(parseLocaleCookie('')).toBeNull();
  });

  it('sends a visitor of the bare root to English only when the cookie remembers English', () => {
    expect(preferredLocaleRedirect('/session/', 'en')).toBe('/session/en');
    expect(preferredLocaleRedirect('/session', 'en')).toBe('/session/en');
    expect(preferredLocaleRedirect('/session/', 'ro')).toBeNull();
    expect(preferredLocaleRedirect('/session/', null)).toBeNull();
    expect(preferredLocaleRedirect('/session/login', 'en')).toBeNull();
  });
});

describe('constants of SPEC §4 and §9', () => {
  it('treats a token as expired 500 ms before its expiry', () => {
    const expiresAt = 1_000_000;
    expect(isExpired({ expiresAt }, expiresAt - 501)).toBe(false);
    expect(isExpired({ expiresAt }, expiresAt - 500)).toBe(true);
  });

  it('reloads after a chunk error at most once per minute', () => {
    expect(CHUNK_RELOAD_GUARD_MS).toBe(60_000);
    expect(shouldReloadAfterChunkError(100_000, null)).toBe(true);
    expect(shouldReloadAfterChunkError(100_000, 50_000)).toBe(false);
    expect(shouldReloadAfterChunkError(110_000, 50_000)).toBe(true);
  });
});

describe('the formatting locale (docs/i18n.md, "Dates and times")', () => {
  const intlIn = (locale: 'en' | 'ro') => createIntl({ locale: intlLocale(locale), defaultLocale: 'ro' });
  const at = '2026-12-06T05:37:01.000Z'; // 6 December, 07:37:01 in Bucharest

  it('formats English as en-GB and Romanian as ro, and maps both back to the app language', () => {
    expect(intlLocale('en')).toBe('en-GB');
    expect(intlLocale('ro')).toBe('ro');
    expect(appLocale(intlLocale('en'))).toBe('en');
    expect(appLocale(intlLocale('ro'))).toBe('ro');
    expect(appLocale('en')).toBe('en');
  });

  it('writes English dates day first with a 24-hour clock, never 12/6/26', () => {
    const en = intlIn('en');
    expect(formatExchangeDateTime(en, at)).toBe('06/12/2026, 07:37:01');
    expect(formatExchangeDateTime(en, at, 'medium')).toBe('6 Dec 2026, 07:37:01');
    expect(formatCalendarDate(en, '2026-12-06')).toBe('6 Dec 2026');
    expect(formatUtcDateTime(en, at)).toBe('6 Dec 2026, 05:37:01 UTC');
  });

  it('leaves Romanian dates as they were', () => {
    const ro = intlIn('ro');
    expect(formatExchangeDateTime(ro, at)).toBe('06.12.2026, 07:37:01');
    expect(formatCalendarDate(ro, '2026-12-06')).toBe('6 dec. 2026');
  });

  it('writes numbers in English as en does (1,234,567.50; -1.23%): only the dates change', () => {
    const en = intlIn('en');
    const plain = createIntl({ locale: 'en' });
    expect(formatMinor(en, 123456750, 2)).toBe('1,234,567.50');
    expect(formatMinor(en, 123456750, 2)).toBe(formatMinor(plain, 123456750, 2));
    const percent = { style: 'percent', minimumFractionDigits: 2, signDisplay: 'exceptZero' } as const;
    expect(en.formatNumber(-0.0123, percent)).toBe(plain.formatNumber(-0.0123, percent));
    const money = { style: 'currency', currency: 'RON' } as const;
    expect(en.formatNumber(1234.5, money)).toBe(plain.formatNumber(1234.5, money));
  });
});
