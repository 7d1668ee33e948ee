import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { WorkflowInstance } from '../../protocol/workflows.ts';
import { DescriptionList } from '../components/DescriptionList.tsx';
import { enumLabelKey } from '../i18n/enum-labels.ts';
import { formatCalendarDate, formatExchangeDateTime, formatMinor } from '../i18n/format.ts';
import type { MessageKey } from '../i18n/messages/index.ts';
import { useUser } from '../auth/use-auth.ts';
import { sidesOf } from './sides.ts';
import { useAssets } from './use-assets.ts';

/**
 * Every field of an opened instance (SPEC §3 for an OTC deal), so a column the table hides in a
 * narrow box is still one click away.
 */
export function WorkflowFacts({ instance }: { instance: WorkflowInstance }) {
  const intl = useIntl();
  const assets = useAssets();
  const clientCodes = useUser()?.clientCodes ?? [];
  const t = (id: MessageKey) => intl.formatMessage({ id });
  const date = (value: string | null) => (value === null ? '—' : formatCalendarDate(intl, value));
  const instant = (value: string | null) => (value === null ? '—' : formatExchangeDateTime(intl, value));
  const asset = 'assetId' in instance.data ? assets.get(instance.data.assetId) : undefined;
  const qty = (minor: number) => `${formatMinor(intl, minor, asset?.quantityDecimals ?? 0)}${asset ? ` ${asset.unit}` : ''}`;
  const price = (minor: number | null) => (minor === null ? '—' : `${formatMinor(intl, minor, asset?.priceDecimals ?? 2)}${asset ? ` ${asset.currency}` : ''}`);
  const assetCode = 'assetId' in instance.data ? (asset?.code ?? instance.data.assetId) : null;
  let rows: Array<readonly [string, ReactNode]> = [];
  switch (instance.kind) {
    case 'otc': {
      const data = instance.data;
      rows = [
        [t('clearing.col.asset'), assetCode],
        // From the reader's side, as the table's row says it: the partner of a bid sells.
        [t('clearing.col.way'), t(enumLabelKey('way', sidesOf(instance, clientCodes).isPartner ? (data.way === 'bid' ? 'ask' : 'bid') : data.way))],
        [t('clearing.col.quantity'), qty(data.qty)],
        [t('clearing.col.price'), price(data.price)],
        [t('clearing.col.settlementPrice'), price(data.settlementPrice)],
        [t('workflow.col.firstDeliveryDate'), date(data.firstDeliveryDate)],
        [t('workflow.col.lastDeliveryDate'), date(data.lastDeliveryDate)],
        [t('workflow.col.noDeliveryDays'), intl.formatNumber(data.noDeliveryDays)],
        [t('clearing.col.createdAt'), instant(instance.createdAt)],
        [t('workflow.col.initiatedAt'), instant(data.initiatedAt)],
        [t('clearing.col.transactionId'), data.transactionId ?? '—'],
        [t('workflow.col.txDate'), date(data.txDate)],
        [t('workflow.col.txTime'), instant(data.txTime)],
      ];
      break;
    }
    case 'transfer': {
      const data = instance.data;
      rows = [
        [t('clearing.col.transactionId'), data.transactionId],
        [t('clearing.col.asset'), assetCode],
        [t('clearing.col.quantity'), qty(data.qty)],
        [t('workflow.col.transactionQty'), qty(data.transactionQty)],
        [t('clearing.col.price'), price(data.price)],
        [t('clearing.col.buyer'), data.buyer],
        [t('clearing.col.seller'), data.seller],
        [t('workflow.col.transferredTransaction'), data.transferredTransactionId ?? '—'],
      ];
      break;
    }
    case 'marginActivation':
      rows = [
        [t('clearing.col.transactionId'), instance.data.transactionId],
        [t('clearing.col.asset'), assetCode],
        [t('clearing.col.buyer'), instance.data.buyer],
        [t('clearing.col.seller'), instance.data.seller],
      ];
      break;
    case 'contract':
      rows = [
        [t('clearing.col.transactionId'), instance.data.transactionId],
        [t('clearing.col.date'), date(instance.data.date)],
        [t('clearing.col.asset'), assetCode],
        [t('workflow.col.file'), instance.data.fileName ?? '—'],
        [t('workflow.col.uploadedAt'), instant(instance.data.uploadedAt)],
      ];
      break;
    case 'whitelist':
      rows = [
        [t('workflow.col.type'), t(enumLabelKey('whitelistRequestType', instance.data.type))],
        [t('clearing.col.createdAt'), instant(instance.createdAt)],
      ];
      break;
  }
  if (instance.limitAt) rows.push([t('workflow.col.limitAt'), instant(instance.limitAt)]);
  return (
    <div className="workflow-facts">
      <DescriptionList rows={rows} wide={false} />
    </div>
  );
}
