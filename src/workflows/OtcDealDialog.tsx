import { useMemo, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { AssetSpecification } from '../../protocol/reference.ts';
import type { WorkflowInstance } from '../../protocol/workflows.ts';
import { toApiError } from '../api/errors.ts';
import { displayParams, formatApiError } from '../i18n/format-error.ts';
import { formatMinor } from '../i18n/format.ts';
import type { MessageKey } from '../i18n/messages/index.ts';
import { deliveryDaysBetween, emptyOtcForm, validateOtcForm, type OtcField, type OtcForm } from './otc-form.ts';
import { OtcSimulator } from './OtcSimulator.tsx';
import { createIntentKeys, createOtcDeal } from './workflow-api.ts';
import { WorkflowFormDialog } from './WorkflowFormDialog.tsx';
import { DateField } from '../components/date-field/DateField.tsx';

export interface OtcDealDialogProps {
  open: boolean;
  onClose: () => void;
  clientCodes: readonly string[];
  assets: readonly AssetSpecification[];
  onRegistered: (instance: WorkflowInstance) => void;
}

/**
 * "Register OTC deal" (SPEC §2, §3): own client, partner, asset, way, quantity, price, first and last
 * delivery date and the number of delivery days, with the exposure simulator under the fields. The
 * deal is registered as new; its initiator activates it from the list to send it to the partner.
 */
export function OtcDealDialog({ open, onClose, clientCodes, assets, onRegistered }: OtcDealDialogProps) {
  const intl = useIntl();
  const [form, setForm] = useState<OtcForm>(() => emptyOtcForm(clientCodes.length === 1 ? clientCodes[0] : ''));
  const [touched, setTouched] = useState<ReadonlySet<OtcField>>(new Set());
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [keys] = useState(() => createIntentKeys());
  const asset = assets.find((candidate) => candidate.id === form.assetId);
  const { problems, draft } = useMemo(() => validateOtcForm(form, asset, clientCodes), [form, asset, clientCodes]);

  function set<F extends OtcField>(field: F, value: OtcForm[F]) {
    setForm((previous) => {
      const next = { ...previous, [field]: value };
      // The number of delivery days follows the dates until the user writes one.
      if ((field === 'firstDeliveryDate' || field === 'lastDeliveryDate') && !touched.has('noDeliveryDays')) {
        const days = deliveryDaysBetween(next.firstDeliveryDate, next.lastDeliveryDate);
        next.noDeliveryDays = days === null ? '' : String(days);
      }
      return next;
    });
    setTouched((previous) => new Set(previous).add(field));
  }

  const problemOf = (field: OtcField): string | null => {
    const problem = problems[field];
    if (!problem || (!tried && !touched.has(field))) return null;
    return intl.formatMessage({ id: problem.id }, displayParams(intl, problem.values));
  };

  async function submit() {
    setTried(true);
    if (!draft) return;
    setBusy(true);
    setError(null);
    try {
      const instance = await createOtcDeal(draft, keys.keyFor(JSON.stringify(draft)));
      keys.done();
      onRegistered(instance);
      onClose();
    } catch (cause) {
      setError(formatApiError(intl, toApiError(cause)));
    } finally {
      setBusy(false);
    }
  }

  const field = (name: OtcField, label: string, input: ReactNode, hint?: string) => {
    const problem = problemOf(name);
    return (
      <div className={problem ? 'field field-invalid' : 'field'}>
        <label htmlFor={`otc-${name}`}>{label}</label>
        {input}
        {hint && !problem && <span className="field-hint">{hint}</span>}
        {problem && (
          <span id={`otc-${name}-error`} className="field-error">
            {problem}
          </span>
        )}
      </div>
    );
  };
  const inputProps = (name: OtcField) => ({
    id: `otc-${name}`,
    'aria-invalid': problemOf(name) ? true : undefined,
    'aria-describedby': problemOf(name) ? `otc-${name}-error` : undefined,
  });
  const t = (id: MessageKey, values?: Record<string, string>) => intl.formatMessage({ id }, values);

  return (
    <WorkflowFormDialog
      open={open}
      onClose={onClose}
      wide
      busy={busy}
      error={error}
      title={<FormattedMessage id="workflow.otc.dialogTitle" />}
      description={<FormattedMessage id="workflow.otc.dialogDescription" />}
      submitLabel={<FormattedMessage id="workflow.otc.submit" />}
      onSubmit={() => void submit()}
    >
      <div className="workflow-form-grid">
        {field(
          'clientCode',
          t('workflow.col.ownClient'),
          <select {...inputProps('clientCode')} value={form.clientCode} onChange={(event) => set('clientCode', event.target.value)}>
            <option value="">—</option>
            {clientCodes.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>,
        )}
        {field('partnerClientCode', t('workflow.field.partnerClientCode'), <input {...inputProps('partnerClientCode')} value={form.partnerClientCode} autoComplete="off" onChange={(event) => set('partnerClientCode', event.target.value)} />)}
        {field(
          'assetId',
          t('clearing.col.asset'),
          <select {...inputProps('assetId')} value={form.assetId} onChange={(event) => set('assetId', event.target.value)}>
            <option value="">—</option>
            {assets.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.code}
              </option>
            ))}
          </select>,
        )}
        {field(
          'way',
          t('clearing.col.way'),
          <select {...inputProps('way')} value={form.way} onChange={(event) => set('way', event.target.value as OtcForm['way'])}>
            <option value="bid">{t('way.bid')}</option>
            <option value="ask">{t('way.ask')}</option>
          </select>,
        )}
        {field(
          'qty',
          asset ? t('workflow.field.quantityIn', { unit: asset.unit }) : t('clearing.col.quantity'),
          <input {...inputProps('qty')} inputMode="decimal" value={form.qty} onChange={(event) => set('qty', event.target.value)} />,
          asset ? t('workflow.field.step', { step: formatMinor(intl, asset.quantityStep, asset.quantityDecimals) }) : undefined,
        )}
        {field(
          'price',
          asset ? t('workflow.field.priceIn', { currency: asset.currency }) : t('clearing.col.price'),
          <input {...inputProps('price')} inputMode="decimal" value={form.price} onChange={(event) => set('price', event.target.value)} />,
          asset ? t('workflow.field.step', { step: formatMinor(intl, asset.priceStep, asset.priceDecimals) }) : undefined,
        )}
        {field('firstDeliveryDate', t('workflow.col.firstDeliveryDate'), <DateField {...inputProps('firstDeliveryDate')} label={t('workflow.col.firstDeliveryDate')} value={form.firstDeliveryDate} onChange={(iso) => set('firstDeliveryDate', iso)} />)}
        {field('lastDeliveryDate', t('workflow.col.lastDeliveryDate'), <DateField {...inputProps('lastDeliveryDate')} label={t('workflow.col.lastDeliveryDate')} value={form.lastDeliveryDate} onChange={(iso) => set('lastDeliveryDate', iso)} />)}
        {field('noDeliveryDays', t('workflow.col.noDeliveryDays'), <input {...inputProps('noDeliveryDays')} inputMode="numeric" value={form.noDeliveryDays} onChange={(event) => set('noDeliveryDays', event.target.value)} />)}
      </div>
      <OtcSimulator draft={draft} asset={asset} />
    </WorkflowFormDialog>
  );
}
