import { FormattedMessage, useIntl } from 'react-intl';
import type { AssetSpecification, Market, Ring } from '../../../protocol/reference.ts';
import { DescriptionList } from '../../components/DescriptionList.tsx';
import { enumLabelKey } from '../../i18n/enum-labels.ts';
import { formatCalendarDate, formatMinor } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/messages/en.ts';
import { assetTypeLabel, useLocalName } from '../../i18n/reference-names.ts';

/** The trading asset's specification: what it is, where it trades, its steps and limits, and its documents. */
export function AssetInfoView({ asset, market, ring }: { asset: AssetSpecification; market: Market | null; ring: Ring | null }) {
  const intl = useIntl();
  const t = (id: MessageKey) => intl.formatMessage({ id });
  const name = useLocalName();
  const price = (minor: number) => formatMinor(intl, minor, asset.priceDecimals);
  const quantity = (minor: number) => formatMinor(intl, minor, asset.quantityDecimals);
  const period = (start: string, end: string) => (start === end ? formatCalendarDate(intl, start) : `${formatCalendarDate(intl, start)} – ${formatCalendarDate(intl, end)}`);
  const rows: Array<[string, string]> = [
    [t('asset.code'), asset.code],
    [t('asset.type'), assetTypeLabel(intl, asset.type)],
    [
      t('sessionPanels.info.market'),
      market ? `${name(market)} · ${intl.formatMessage({ id: enumLabelKey('marketKind', market.kind) })}` : asset.marketId,
    ],
    [t('sessionPanels.info.ring'), (ring ? name(ring) : null) ?? (asset.ringId ?? t('sessionPanels.info.noRing'))],
    [t('asset.deliveryPeriod'), period(asset.deliveryStart, asset.deliveryEnd)],
    [t('asset.tradingPeriod'), period(asset.tradingStart, asset.tradingEnd)],
    [t('asset.unit'), `${asset.unit} · ${asset.currency}`],
  ];
  const specification: Array<[string, string]> = [
    [t('asset.priceStep'), `${price(asset.priceStep)} ${asset.currency}`],
    [t('asset.quantityStep'), `${quantity(asset.quantityStep)} ${asset.unit}`],
    [t('asset.minQuantity'), `${quantity(asset.minQuantity)} ${asset.unit}`],
    [t('asset.maxQuantity'), `${quantity(asset.maxQuantity)} ${asset.unit}`],
    [t('asset.priceLimits'), `${price(asset.minPrice)} – ${price(asset.maxPrice)} ${asset.currency}`],
  ];
  return (
    <section className="card session-widget asset-info" aria-labelledby="asset-info-title">
      <div className="card-header">
        <h2 id="asset-info-title">
          <FormattedMessage id="sessionPanels.info.title" />
        </h2>
      </div>
      <DescriptionList rows={rows} />
      <h3 className="subheading">
        <FormattedMessage id="asset.specification" />
      </h3>
      <DescriptionList rows={specification} valueClassName="mono" />
      <h3 className="subheading">
        <FormattedMessage id="asset.documents" />
      </h3>
      {asset.documents.length === 0 ? (
        <p className="muted">
          <FormattedMessage id="asset.noDocuments" />
        </p>
      ) : (
        <ul className="document-list">
          {asset.documents.map((document) => (
            <li key={document.fileName}>
              <span className="file-badge" aria-hidden="true">
                PDF
              </span>
              <a href={document.url} download={document.fileName}>
                {document.title}
              </a>{' '}
              <span className="muted small">{document.fileName}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
