import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiRequestError, NETWORK_ERROR } from '../api/errors.ts';
import { RouteError } from '../app/middleware.ts';
import { formatApiError } from '../i18n/format-error.ts';
import { StatusPage } from './StatusPage.tsx';

/** The status and message of a route error: SPEC §2, default 500; never a stack trace. */
export function describeRouteError(error: unknown): { status: number; kind: 'route' | 'api' | 'unknown' } {
  if (error instanceof RouteError) return { status: error.status, kind: 'route' };
  if (error instanceof ApiRequestError) {
    return { status: error.code === NETWORK_ERROR ? 503 : error.status >= 400 ? error.status : 500, kind: 'api' };
  }
  return { status: 500, kind: 'unknown' };
}

export function ErrorPage({ error, reset }: ErrorComponentProps) {
  const intl = useIntl();
  const router = useRouter();
  const { status, kind } = describeRouteError(error);
  const message =
    kind === 'route'
      ? intl.formatMessage({ id: (error as RouteError).messageKey })
      : kind === 'api'
        ? formatApiError(intl, error as ApiRequestError)
        : intl.formatMessage({ id: 'error.UNKNOWN_ERROR' });
  return (
    <StatusPage code={<FormattedMessage id="page.error.title" values={{ status }} />} message={message}>
      <button
        type="button"
        className="button button-primary"
        onClick={() => {
          reset();
          void router.invalidate();
        }}
      >
        <FormattedMessage id="page.error.retry" />
      </button>
    </StatusPage>
  );
}
