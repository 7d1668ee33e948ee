/**
 * The "Register OTC deal" form: its fields as typed, and the checks the browser can make before the
 * server is asked (required fields, steps, dates, another client as partner). The server still checks
 * everything (funds, the price band, active clients) and its refusal is shown with its code.
 */
import { formatDecimal, isMultipleOf, parseDecimal } from '../../protocol/decimal.ts';
import type { AssetSpecification } from '../../protocol/reference.ts';
import type { OtcDealDraft } from '../../protocol/workflows.ts';
import type { MessageKey } from '../i18n/messages/index.ts';

export interface OtcForm {
  clientCode: string;
  partnerClientCode: string;
  assetId: string;
  way: 'bid' | 'ask';
  qty: string;
  price: string;
  firstDeliveryDate: string;
  lastDeliveryDate: string;
  noDeliveryDays: string;
}

export type OtcField = keyof OtcForm;
export interface FieldProblem {
  id: MessageKey;
  values?: Record<string, string | number>;
}
export type OtcProblems = Partial<Record<OtcField, FieldProblem>>;

export const MAX_DELIVERY_DAYS = 366;
const CLIENT_CODE = /^[A-Za-z0-9_.-]{1,64}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function emptyOtcForm(clientCode = ''): OtcForm {
  return { clientCode, partnerClientCode: '', assetId: '', way: 'bid', qty: '', price: '', firstDeliveryDate: '', lastDeliveryDate: '', noDeliveryDays: '' };
}

/** Either mark is the decimal one ('12,5' as the Romanian reader writes it, '12.5'); grouping is not taken. */
function parseAmount(text: string, decimals: number) {
  return parseDecimal(text.trim().replace(',', '.'), decimals);
}

/** Calendar days from first to last, both included (the default number of delivery days). */
export function deliveryDaysBetween(first: string, last: string): number | null {
  if (!ISO_DATE.test(first) || !ISO_DATE.test(last)) return null;
  const days = Math.round((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000) + 1;
  return Number.isFinite(days) && days >= 1 ? days : null;
}

/** The problems of the form (empty when none) and the draft it makes when there are none. */
export function validateOtcForm(form: OtcForm, asset: AssetSpecification | undefined, clientCodes: readonly string[]): { problems: OtcProblems; draft: OtcDealDraft | null } {
  const problems: OtcProblems = {};
  const required: FieldProblem = { id: 'validation.fieldRequired' };
  if (form.clientCode === '' || !clientCodes.includes(form.clientCode)) problems.clientCode = required;
  const partner = form.partnerClientCode.trim();
  if (partner === '') problems.partnerClientCode = required;
  else if (!CLIENT_CODE.test(partner)) problems.partnerClientCode = { id: 'workflow.validation.clientCode' };
  else if (partner === form.clientCode) problems.partnerClientCode = { id: 'workflow.validation.samePartner' };
  if (!asset) problems.assetId = required;

  let qty: number | null = null;
  let price: number | null = null;
  if (form.qty.trim() === '') problems.qty = required;
  else if (asset) {
    const parsed = parseAmount(form.qty, asset.quantityDecimals);
    const step = formatDecimal(asset.quantityStep, asset.quantityDecimals);
    if (!parsed.ok || parsed.value <= 0) problems.qty = { id: 'validation.quantityMinimum', values: { min: step, unit: asset.unit } };
    else if (!isMultipleOf(parsed.value, asset.quantityStep)) problems.qty = { id: 'validation.quantityStep', values: { step, unit: asset.unit } };
    else qty = parsed.value;
  }
  if (form.price.trim() === '') problems.price = required;
  else if (asset) {
    const parsed = parseAmount(form.price, asset.priceDecimals);
    const step = formatDecimal(asset.priceStep, asset.priceDecimals);
    if (!parsed.ok || parsed.value <= 0) problems.price = { id: 'validation.priceMinimum', values: { min: step, currency: asset.currency } };
    else if (!isMultipleOf(parsed.value, asset.priceStep)) problems.price = { id: 'validation.priceStep', values: { step, currency: asset.currency } };
    else price = parsed.value;
  }

  if (!ISO_DATE.test(form.firstDeliveryDate)) problems.firstDeliveryDate = required;
  if (!ISO_DATE.test(form.lastDeliveryDate)) problems.lastDeliveryDate = required;
  else if (ISO_DATE.test(form.firstDeliveryDate) && form.lastDeliveryDate < form.firstDeliveryDate) problems.lastDeliveryDate = { id: 'workflow.validation.dates' };

  const daysText = form.noDeliveryDays.trim();
  const days = Number(daysText);
  if (daysText === '') problems.noDeliveryDays = required;
  else if (!/^\d+$/.test(daysText) || days < 1 || days > MAX_DELIVERY_DAYS) problems.noDeliveryDays = { id: 'workflow.validation.days', values: { max: MAX_DELIVERY_DAYS } };

  if (Object.keys(problems).length > 0 || !asset || qty === null || price === null) return { problems, draft: null };
  return {
    problems,
    draft: {
      clientCode: form.clientCode,
      partnerClientCode: partner,
      assetId: asset.id,
      way: form.way,
      qty,
      price,
      firstDeliveryDate: form.firstDeliveryDate,
      lastDeliveryDate: form.lastDeliveryDate,
      noDeliveryDays: days,
    },
  };
}
