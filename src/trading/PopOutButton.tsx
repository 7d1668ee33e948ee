import { useIntl } from 'react-intl';
import type { AssetSpecification } from '../../protocol/reference.ts';
import { BASE_PATH, localePath } from '../i18n/locale.ts';
import { useLocale } from '../i18n/use-locale.ts';

/** The pop-out window's address (router path under the base path): one book, for a second monitor. */
export function bookWindowPath(locale: Parameters<typeof localePath>[0], assetId: string): string {
  return `${BASE_PATH}${localePath(locale, `/trading/book/${encodeURIComponent(assetId)}`)}`;
}

/**
 * Opens the asset's book in its own window. One window per asset (its name), so a second click brings
 * the same window back instead of opening another. It shares the sign-in (session.ts).
 */
export function PopOutButton({ asset }: { asset: AssetSpecification }) {
  const intl = useIntl();
  const locale = useLocale();
  const label = intl.formatMessage({ id: 'session.popOut' }, { asset: asset.code });
  return (
    <button
      type="button"
      className="icon-button popout-button"
      aria-label={label}
      title={label}
      data-testid="book-popout"
      onClick={() => {
        const opened = window.open(bookWindowPath(locale, asset.id), `book-${asset.id}`, 'popup,width=560,height=820');
        opened?.focus();
      }}
    >
      <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <path d="M9 2h5v5M14 2 7.5 8.5M12 9.5V13a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h3.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </button>
  );
}
