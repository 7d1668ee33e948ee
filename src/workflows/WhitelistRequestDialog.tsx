import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { whitelistRequestTypes, type WhitelistRequestType } from '../../protocol/enums.ts';
import type { WorkflowInstance } from '../../protocol/workflows.ts';
import { toApiError } from '../api/errors.ts';
import { enumLabelKey } from '../i18n/enum-labels.ts';
import { formatApiError } from '../i18n/format-error.ts';
import { createIntentKeys, requestWhitelist } from './workflow-api.ts';
import { WorkflowFormDialog } from './WorkflowFormDialog.tsx';

const CLIENT_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/** A whitelist request: one of the user's clients asks a partner client to allow (or stops) trading between them. */
export function WhitelistRequestDialog({ open, onClose, clientCodes, onSent }: { open: boolean; onClose: () => void; clientCodes: readonly string[]; onSent: (instance: WorkflowInstance) => void }) {
  const intl = useIntl();
  const [clientCode, setClientCode] = useState(clientCodes.length === 1 ? clientCodes[0]! : '');
  const [partner, setPartner] = useState('');
  const [type, setType] = useState<WhitelistRequestType>('ALLOW_TRADING');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [keys] = useState(() => createIntentKeys());
  const required = intl.formatMessage({ id: 'validation.fieldRequired' });
  const clientProblem = clientCodes.includes(clientCode) ? null : required;
  const partnerCode = partner.trim();
  const partnerProblem =
    partnerCode === '' ? required : !CLIENT_CODE.test(partnerCode) ? intl.formatMessage({ id: 'workflow.validation.clientCode' }) : partnerCode === clientCode ? intl.formatMessage({ id: 'workflow.validation.samePartner' }) : null;

  async function submit() {
    setTried(true);
    if (clientProblem || partnerProblem) return;
    setBusy(true);
    setError(null);
    try {
      const body = { clientCode, partnerClientCode: partnerCode, type };
      const instance = await requestWhitelist(body, keys.keyFor(JSON.stringify(body)));
      keys.done();
      onSent(instance);
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
      title={<FormattedMessage id="workflow.whitelist.dialogTitle" />}
      description={<FormattedMessage id="workflow.whitelist.dialogDescription" />}
      submitLabel={<FormattedMessage id="workflow.whitelist.submit" />}
      onSubmit={() => void submit()}
    >
      <div className={tried && clientProblem ? 'field field-invalid' : 'field'}>
        <label htmlFor="whitelist-client">
          <FormattedMessage id="clearing.col.client" />
        </label>
        <select id="whitelist-client" value={clientCode} onChange={(event) => setClientCode(event.target.value)} aria-invalid={tried && clientProblem ? true : undefined}>
          <option value="">—</option>
          {clientCodes.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
        {tried && clientProblem && <span className="field-error">{clientProblem}</span>}
      </div>
      <div className={tried && partnerProblem ? 'field field-invalid' : 'field'}>
        <label htmlFor="whitelist-partner">
          <FormattedMessage id="workflow.field.partnerClientCode" />
        </label>
        <input id="whitelist-partner" value={partner} autoComplete="off" onChange={(event) => setPartner(event.target.value)} aria-invalid={tried && partnerProblem ? true : undefined} />
        {tried && partnerProblem && <span className="field-error">{partnerProblem}</span>}
      </div>
      <div className="field">
        <label htmlFor="whitelist-type">
          <FormattedMessage id="workflow.col.type" />
        </label>
        <select id="whitelist-type" value={type} onChange={(event) => setType(event.target.value as WhitelistRequestType)}>
          {whitelistRequestTypes.map((value) => (
            <option key={value} value={value}>
              {intl.formatMessage({ id: enumLabelKey('whitelistRequestType', value) })}
            </option>
          ))}
        </select>
      </div>
    </WorkflowFormDialog>
  );
}
