import { Link } from '@tanstack/react-router';
import { FormattedMessage } from 'react-intl';
import { localePath } from '../i18n/locale.ts';
import { useLocale } from '../i18n/use-locale.ts';

/** SPEC §2: an unmatched route gives a 404 page. */
export function NotFoundPage() {
  const locale = useLocale();
  return (
    <section className="card status-page">
      <p className="status-code">404</p>
      <h1>
        <FormattedMessage id="page.notFound" />
      </h1>
      <Link to={localePath(locale, '/')}>
        <FormattedMessage id="page.notFound.back" />
      </Link>
    </section>
  );
}
