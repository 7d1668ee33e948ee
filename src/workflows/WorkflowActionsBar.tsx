import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { actionsWithReason, type WorkflowAction, type WorkflowInstance } from '../../protocol/workflows.ts';
import { toApiError } from '../api/errors.ts';
import { useCanAct, useUser } from '../auth/use-auth.ts';
import { useDialogs } from '../components/dialogs/DialogProvider.tsx';
import { formatApiError } from '../i18n/format-error.ts';
import type { MessageKey } from '../i18n/messages/index.ts';
import { actionDoneLabels, actionLabels, dangerousActions } from './labels.ts';
import { namingOf, workflowFullName } from './naming.ts';
import { ReasonDialog } from './ReasonDialog.tsx';
import { useWorkflowActions } from './workflow-actions.ts';
import { createIntentKeys, fetchWorkflow, sendWorkflowAction } from './workflow-api.ts';

export interface WorkflowActionsBarProps {
  instance: WorkflowInstance;
  /** The instance as the server now has it (after an action, or reloaded after a conflict). */
  onChanged: (instance: WorkflowInstance) => void;
  /** An action the user took went through (before `onChanged` with its answer). */
  onDone?: (action: WorkflowAction, after: WorkflowInstance) => void;
}

/** Refusals about the item itself, said with its name instead of the catalogue message's instance id. */
const namedRefusals: Partial<Record<string, MessageKey>> = {
  WORKFLOW_CONFLICT: 'workflow.refused.conflict',
  WORKFLOW_NOT_FOUND: 'workflow.refused.notFound',
};

/**
 * One button per action the machine offers the signed-in user (useWorkflowActions), nothing else.
 * Reject asks for the reason first; every action asks for confirmation; a refusal is shown with its
 * code's message; WORKFLOW_CONFLICT (someone acted first) reloads the instance so the user decides
 * again on what is there now. One idempotency key per intent: retrying the same action on the same
 * version sends the same key, so the server applies it once.
 */
export function WorkflowActionsBar({ instance, onChanged, onDone }: WorkflowActionsBarProps) {
  const intl = useIntl();
  const user = useUser();
  const canAct = useCanAct();
  const dialogs = useDialogs();
  const actions = useWorkflowActions(instance, user);
  const [keys] = useState(() => createIntentKeys());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [reasonFor, setReasonFor] = useState<WorkflowAction | null>(null);

  const label = (action: WorkflowAction) => intl.formatMessage({ id: actionLabels[action] });

  async function run(action: WorkflowAction, reason?: string) {
    // The item by its transaction's number and its two clients, as its row shows it (never the internal instance id).
    const values = { action: label(action), name: workflowFullName(intl, namingOf(instance)) };
    const confirmed = await dialogs.confirm({
      title: intl.formatMessage({ id: 'workflow.confirm.title' }, values),
      description: (
        <>
          {intl.formatMessage({ id: 'workflow.confirm.description' }, values)}
          {reason !== undefined && (
            <>
              <br />
              {intl.formatMessage({ id: 'workflow.reason.shown' }, { reason })}
            </>
          )}
        </>
      ),
      confirmLabel: label(action),
      tone: dangerousActions.includes(action) ? 'danger' : 'default',
    });
    if (!confirmed) return;
    setBusy(true);
    setError(null);
    setNotice(null);
    const key = keys.keyFor(`${instance.instanceId}:${instance.version}:${action}:${reason ?? ''}`);
    try {
      const next = await sendWorkflowAction(instance, action, reason, key);
      keys.done();
      setNotice(intl.formatMessage({ id: actionDoneLabels[action] }));
      onDone?.(action, next);
      onChanged(next);
    } catch (cause) {
      const refusal = toApiError(cause);
      const named = namedRefusals[refusal.code];
      setError(named ? intl.formatMessage({ id: named }, { name: values.name }) : formatApiError(intl, refusal));
      if (refusal.code === 'WORKFLOW_CONFLICT') {
        try {
          onChanged(await fetchWorkflow(instance.instanceId));
          setNotice(intl.formatMessage({ id: 'workflow.conflictReloaded' }));
        } catch (reloadCause) {
          setError(formatApiError(intl, toApiError(reloadCause)));
        }
      }
    } finally {
      setBusy(false);
    }
  }

  function start(action: WorkflowAction) {
    if (actionsWithReason.includes(action)) setReasonFor(action);
    else void run(action);
  }

  return (
    <div className="workflow-actions">
      {actions.length === 0 ? (
        <span className="muted small">
          <FormattedMessage id="workflow.noActions" />
        </span>
      ) : (
        <div role="group" aria-label={intl.formatMessage({ id: 'workflow.actions' })} className="workflow-action-buttons">
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              data-action={action}
              className={dangerousActions.includes(action) ? 'button button-danger button-small' : 'button button-primary button-small'}
              disabled={busy || !canAct}
              onClick={() => start(action)}
            >
              {label(action)}
            </button>
          ))}
        </div>
      )}
      {notice && (
        <span className="muted small" role="status">
          {notice}
        </span>
      )}
      {error && (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      )}
      {reasonFor && (
        <ReasonDialog
          open
          title={intl.formatMessage({ id: 'workflow.reason.title' }, { action: label(reasonFor) })}
          onCancel={() => setReasonFor(null)}
          onReason={(reason) => {
            const action = reasonFor;
            setReasonFor(null);
            void run(action, reason);
          }}
        />
      )}
    </div>
  );
}
