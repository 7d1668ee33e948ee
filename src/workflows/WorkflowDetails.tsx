import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { WorkflowAction, WorkflowInstance } from '../../protocol/workflows.ts';
import { toApiError } from '../api/errors.ts';
import { saveFile } from '../components/csv.ts';
import { formatApiError } from '../i18n/format-error.ts';
import { downloadContract } from './workflow-api.ts';
import { namingOf, workflowName } from './naming.ts';
import { useReasonText, WorkflowTimeline } from './WorkflowTimeline.tsx';
import { WorkflowActionsBar } from './WorkflowActionsBar.tsx';
import { WorkflowStatusChip } from './WorkflowStatusChip.tsx';
import { WorkflowFacts } from './WorkflowFacts.tsx';

/**
 * The contract's PDF. The server decides who may have it (participants and the administrator) and
 * wants the bearer token, so the file is fetched and saved from memory rather than opened by a link.
 */
export function ContractDownloadButton({ instance }: { instance: Extract<WorkflowInstance, { kind: 'contract' }> }) {
  const intl = useIntl();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (instance.data.fileName === null) return null;
  async function download() {
    setBusy(true);
    setError(null);
    try {
      const file = await downloadContract(instance.instanceId);
      saveFile(file.fileName ?? instance.data.fileName ?? `contract-${instance.data.transactionId}.pdf`, file.body);
    } catch (cause) {
      setError(formatApiError(intl, toApiError(cause)));
    } finally {
      setBusy(false);
    }
  }
  return (
    <span className="pdf-download">
      <button
        type="button"
        className="button button-secondary button-small"
        onClick={() => void download()}
        disabled={busy}
        aria-busy={busy}
        aria-label={intl.formatMessage({ id: 'workflow.contract.downloadLabel' }, { transactionId: instance.data.transactionId })}
      >
        <FormattedMessage id="workflow.contract.download" />
      </button>
      {error && (
        <span className="field-error small" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}

/** One instance opened from its row: status and whom it waits on, the last reason, the actions the machine offers, the history. */
export function WorkflowDetails({
  instance,
  onChanged,
  onDone,
  onClose,
  extra,
}: {
  instance: WorkflowInstance;
  onChanged: (instance: WorkflowInstance) => void;
  onDone?: (action: WorkflowAction, after: WorkflowInstance) => void;
  onClose: () => void;
  extra?: ReactNode;
}) {
  const intl = useIntl();
  const reasonText = useReasonText();
  const reason = reasonText(instance.reason);
  // Named as its row names it for users (its transaction's number, else its kind and two clients), never by the internal instance id.
  const title = workflowName(intl, namingOf(instance));
  return (
    <section className="workflow-details" aria-label={title}>
      <div className="workflow-details-head">
        <h3>{title}</h3>
        <WorkflowStatusChip instance={instance} />
        <span className="muted small">
          {instance.initiatorName} ({instance.initiatorClient}) ↔ {instance.partnerName} ({instance.partnerClient})
        </span>
        {instance.kind === 'contract' && <ContractDownloadButton instance={instance} />}
        {extra}
        <button type="button" className="button button-ghost button-small workflow-details-close" onClick={onClose}>
          <FormattedMessage id="workflow.details.close" />
        </button>
      </div>
      {reason && (
        <p className="workflow-reason small">
          <FormattedMessage id="workflow.reason.shown" values={{ reason }} />
        </p>
      )}
      <WorkflowFacts instance={instance} />
      {/* Keyed by instance: its messages (done, or why a conflict reloaded it) stay while its version moves on. */}
      <WorkflowActionsBar key={instance.instanceId} instance={instance} onChanged={onChanged} {...(onDone ? { onDone } : {})} />
      <WorkflowTimeline instance={instance} />
    </section>
  );
}
