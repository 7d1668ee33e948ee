import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { usePageTitle } from '../app/use-page-title.ts';
import { localePath } from '../i18n/locale.ts';
import { useLocale } from '../i18n/use-locale.ts';
import { EmptyFrame } from '../layouts/EmptyLayout.tsx';
import { useLayout } from '../layouts/LayoutContext.ts';

/** The frame of the 404 and error pages: inside the page's layout when there is one, else the empty layout. */
export function StatusPage({ code, message, children }: { code: ReactNode; message: string; children?: ReactNode }) {
  const locale = useLocale();
  const layout = useLayout();
  usePageTitle(message);
  const content = (
    <section className="card status-page" role="alert">
      <p className="status-code">{code}</p>
      <h1>{message}</h1>
      <div className="status-actions">
        {children}
        <Link to={localePath(locale, '/')} className="button button-secondary">
          <FormattedMessage id="page.notFound.back" />
        </Link>
      </div>
    </section>
  );
  return layout ? content : <EmptyFrame>{content}</EmptyFrame>;
}
