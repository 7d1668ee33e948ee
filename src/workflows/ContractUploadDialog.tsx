import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { CONTRACT_MAX_BYTES, type WorkflowInstance } from '../../protocol/workflows.ts';
import { toApiError } from '../api/errors.ts';
import { formatApiError } from '../i18n/format-error.ts';
import { checkContractFile, createIntentKeys, uploadContract } from './workflow-api.ts';
import { WorkflowFormDialog } from './WorkflowFormDialog.tsx';

const TRANSACTION_ID = /^[0-9]{1,20}$/;

/**
 * Upload of a transaction's contract: a PDF, checked here for what the browser can see (extension and
 * type, size, a sane name) so a wrong file is refused at once; the server stays the authority (it
 * reads the PDF's magic bytes, checks the participant and that no contract exists yet).
 */
export function ContractUploadDialog({ open, onClose, transactionId: fixedTransactionId, onUploaded }: { open: boolean; onClose: () => void; transactionId?: string; onUploaded: (instance: WorkflowInstance) => void }) {
  const intl = useIntl();
  const [transactionId, setTransactionId] = useState(fixedTransactionId ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [keys] = useState(() => createIntentKeys());
  const idProblem = transactionId.trim() === '' ? intl.formatMessage({ id: 'validation.fieldRequired' }) : TRANSACTION_ID.test(transactionId.trim()) ? null : intl.formatMessage({ id: 'workflow.validation.transactionId' });
  const fileCheck = file ? checkContractFile(file) : null;
  const fileProblem = file === null ? (tried ? intl.formatMessage({ id: 'workflow.contract.chooseFile' }) : null) : fileCheck ? formatApiError(intl, fileCheck) : null;

  async function submit() {
    setTried(true);
    if (idProblem || !file || fileCheck) return;
    setBusy(true);
    setError(null);
    try {
      const id = transactionId.trim();
      const instance = await uploadContract(id, file, keys.keyFor(`${id}:${file.name}:${file.size}:${file.lastModified}`));
      keys.done();
      onUploaded(instance);
      onClose();
    } catch (cause) {
      setError(formatApiError(intl, toApiError(cause)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <WorkflowFormDialog
      open={open}
      onClose={onClose}
      busy={busy}
      error={error}
      title={<FormattedMessage id="workflow.contract.dialogTitle" />}
      description={<FormattedMessage id="workflow.contract.dialogDescription" values={{ maxMb: CONTRACT_MAX_BYTES / (1024 * 1024) }} />}
      submitLabel={<FormattedMessage id="workflow.contract.submit" />}
      onSubmit={() => void submit()}
    >
      <div className={tried && idProblem ? 'field field-invalid' : 'field'}>
        <label htmlFor="contract-transaction">
          <FormattedMessage id="clearing.col.transactionId" />
        </label>
        <input
          id="contract-transaction"
          value={transactionId}
          readOnly={fixedTransactionId !== undefined}
          inputMode="numeric"
          onChange={(event) => setTransactionId(event.target.value)}
          aria-invalid={tried && idProblem ? true : undefined}
        />
        {tried && idProblem && <span className="field-error">{idProblem}</span>}
      </div>
      <div className={fileProblem ? 'field field-invalid' : 'field'}>
        <label htmlFor="contract-file">
          <FormattedMessage id="workflow.contract.file" />
        </label>
        <input id="contract-file" type="file" accept=".pdf,application/pdf" onChange={(event) => setFile(event.target.files?.[0] ?? null)} aria-invalid={fileProblem ? true : undefined} />
        {fileProblem && (
          <span className="field-error" role="alert">
            {fileProblem}
          </span>
        )}
      </div>
    </WorkflowFormDialog>
  );
}
