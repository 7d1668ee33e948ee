import { useIntl } from 'react-intl';
import type { WorkflowInstance } from '../../protocol/workflows.ts';
import { statusLabelKey, waitingOnLabels } from './labels.ts';

/** The translated status of an instance of any kind. */
export function useStatusLabel(): (instance: Pick<WorkflowInstance, 'kind' | 'status'>) => string {
  const intl = useIntl();
  return (instance) => {
    const key = statusLabelKey(instance.kind, instance.status, intl.messages);
    return key ? intl.formatMessage({ id: key }) : instance.status;
  };
}

/** Status, and whom the instance waits on while it is open (the operator sees at a glance who must act). */
export function WorkflowStatusChip({ instance }: { instance: Pick<WorkflowInstance, 'kind' | 'status' | 'waitingOn'> }) {
  const intl = useIntl();
  const label = useStatusLabel()(instance);
  const waiting = instance.waitingOn === 'none' ? null : intl.formatMessage({ id: waitingOnLabels[instance.waitingOn] });
  return (
    <span className="workflow-status">
      <span className={`chip workflow-chip workflow-chip-${instance.waitingOn === 'none' ? 'done' : 'open'}`}>{label}</span>
      {waiting && <span className="muted small workflow-waiting">{waiting}</span>}
    </span>
  );
}
