import { FormattedMessage, useIntl } from 'react-intl';
import type { WorkflowEventRecord, WorkflowInstance, WorkflowReason } from '../../protocol/workflows.ts';
import { formatApiError } from '../i18n/format-error.ts';
import { formatExchangeDateTime } from '../i18n/format.ts';
import type { MessageKey } from '../i18n/messages/index.ts';
import { historyActionLabel } from './labels.ts';
import { useStatusLabel } from './WorkflowStatusChip.tsx';

/** A reason as the reader should see it: the user's own words, or the check's code in the reader's language. */
export function useReasonText(): (reason: WorkflowReason | null) => string | null {
  const intl = useIntl();
  return (reason) => {
    if (!reason) return null;
    if (reason.text) return reason.text;
    if (reason.code) return formatApiError(intl, { code: reason.code, params: reason.params });
    return null;
  };
}

function Actor({ event }: { event: WorkflowEventRecord }) {
  const intl = useIntl();
  if (event.actorUserId === null && event.actorName === null) return <FormattedMessage id="workflow.history.system" />;
  const roleKey = event.actorRole ? (`role.${event.actorRole}` as MessageKey) : null;
  const role = roleKey && roleKey in intl.messages ? intl.formatMessage({ id: roleKey }) : event.actorRole;
  return (
    <>
      <strong>{event.actorName ?? event.actorUserId}</strong>
      {role && <span className="muted"> ({role})</span>}
    </>
  );
}

/** The instance's transitions, oldest first: when (exchange time, EET), who and in what role, from → to, why. */
export function WorkflowTimeline({ instance }: { instance: Pick<WorkflowInstance, 'kind' | 'history' | 'instanceId'> }) {
  const intl = useIntl();
  const statusLabel = useStatusLabel();
  const reasonText = useReasonText();
  const label = (status: string) => statusLabel({ kind: instance.kind, status } as Pick<WorkflowInstance, 'kind' | 'status'>);
  const events = [...instance.history].sort((a, b) => a.seq - b.seq);
  return (
    <section className="workflow-timeline" aria-label={intl.formatMessage({ id: 'workflow.history' })}>
      <h4>
        <FormattedMessage id="workflow.history" />
      </h4>
      {events.length === 0 ? (
        <p className="muted small">
          <FormattedMessage id="workflow.history.empty" />
        </p>
      ) : (
        <ol>
          {events.map((event) => {
            const actionKey = historyActionLabel(event.action, instance.kind);
            const reason = reasonText(event.reason);
            return (
              <li key={event.seq} data-seq={event.seq}>
                <time dateTime={event.at} className="mono small">
                  {formatExchangeDateTime(intl, event.at)}
                </time>{' '}
                <Actor event={event} /> · <span className="workflow-history-action">{actionKey ? intl.formatMessage({ id: actionKey }) : event.action}</span> ·{' '}
                <span className="workflow-transition">
                  {event.fromStatus !== null && <>{label(event.fromStatus)} → </>}
                  {label(event.toStatus)}
                </span>
                {reason && (
                  <div className="workflow-reason small">
                    <FormattedMessage id="workflow.reason.shown" values={{ reason }} />
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
