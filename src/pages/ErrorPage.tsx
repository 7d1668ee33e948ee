import type { ErrorComponentProps } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiRequestError } from '../api/errors.ts';
import { RouteError } from '../app/middleware.ts';
import { formatApiError } from '../i18n/format-error.ts';

/** SPEC §2: a route error shows its status code (default 500) and a message; never a stack trace. */
export function ErrorPage({ error }: ErrorComponentProps) {
  const intl = useIntl();
  let status = 500;
  let message: string;
  if (error instanceof RouteError) {
    status = error.status;
    message = intl.formatMessage({ id: error.messageKey });
  } else if (error instanceof ApiRequestError) {
    status = error.status || 500;
    message = formatApiError(intl, error);
  } else {
    message = intl.formatMessage({ id: 'error.UNKNOWN_ERROR' });
  }
  return (
    <section className="card status-page" role="alert">
      <p className="status-code">
        <FormattedMessage id="page.error.title" values={{ status }} />
      </p>
      <h1>{message}</h1>
    </section>
  );
}
