import { useIntl } from 'react-intl';
import { StatusPage } from './StatusPage.tsx';

/** SPEC §2: an unmatched route, or a route whose parameters fail validation, gives a 404 page. */
export function NotFoundPage() {
  const intl = useIntl();
  return <StatusPage code="404" message={intl.formatMessage({ id: 'page.notFound' })} />;
}
