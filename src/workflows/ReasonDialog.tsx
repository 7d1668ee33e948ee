import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { WORKFLOW_REASON_MAX_LENGTH } from '../../protocol/workflows.ts';
import { WorkflowFormDialog } from './WorkflowFormDialog.tsx';

/** Why the user rejects: required (the other side reads it in the history), at most the protocol's length. */
export function reasonProblem(text: string): 'workflow.reason.required' | 'workflow.reason.tooLong' | null {
  const trimmed = text.trim();
  if (trimmed === '') return 'workflow.reason.required';
  if (trimmed.length > WORKFLOW_REASON_MAX_LENGTH) return 'workflow.reason.tooLong';
  return null;
}

/** `description` replaces the workflows' own (the operator console asks a participant suspension's reason with it). */
export function ReasonDialog({ open, title, description, onCancel, onReason }: { open: boolean; title: string; description?: ReactNode; onCancel: () => void; onReason: (reason: string) => void }) {
  const intl = useIntl();
  const [text, setText] = useState('');
  const [tried, setTried] = useState(false);
  const problem = reasonProblem(text);
  const shown = tried ? problem : text.trim().length > WORKFLOW_REASON_MAX_LENGTH ? problem : null;
  return (
    <WorkflowFormDialog
      open={open}
      onClose={onCancel}
      title={title}
      description={description ?? <FormattedMessage id="workflow.reason.description" values={{ max: WORKFLOW_REASON_MAX_LENGTH }} />}
      submitLabel={<FormattedMessage id="workflow.reason.continue" />}
      onSubmit={() => {
        setTried(true);
        if (problem === null) onReason(text.trim());
      }}
    >
      <div className={shown ? 'field field-invalid' : 'field'}>
        <label htmlFor="workflow-reason">
          <FormattedMessage id="workflow.reason.label" />
        </label>
        <textarea
          id="workflow-reason"
          rows={4}
          value={text}
          maxLength={WORKFLOW_REASON_MAX_LENGTH + 50}
          onChange={(event) => setText(event.target.value)}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? 'workflow-reason-error' : 'workflow-reason-count'}
          aria-required="true"
        />
        <span id="workflow-reason-count" className="field-hint">
          {intl.formatNumber(text.trim().length)} / {intl.formatNumber(WORKFLOW_REASON_MAX_LENGTH)}
        </span>
        {shown && (
          <span id="workflow-reason-error" className="field-error" role="alert">
            <FormattedMessage id={shown} values={{ max: WORKFLOW_REASON_MAX_LENGTH }} />
          </span>
        )}
      </div>
    </WorkflowFormDialog>
  );
}
