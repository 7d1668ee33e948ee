import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { AssetSpecification } from '../../../protocol/reference.ts';
import { OrderTimelineDialog } from './OrderTimelineDialog.tsx';

export interface OrderTimelineButtonProps {
  orderId: string;
  assets: readonly AssetSpecification[];
  /** 'icon': a row action of the orders table (one line per row); 'text': a button with its word. */
  variant?: 'icon' | 'text';
}

/** Opens an order's timeline from wherever the order is shown (a table row, the order history drawer). */
export function OrderTimelineButton({ orderId, assets, variant = 'text' }: OrderTimelineButtonProps) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const name = intl.formatMessage({ id: 'orderTimeline.openOf' }, { orderId });
  return (
    <>
      {variant === 'icon' ? (
        <button type="button" className="icon-button row-action" onClick={() => setOpen(true)} aria-label={name} title={name}>
          <TimelineIcon />
        </button>
      ) : (
        <button type="button" className="button button-small button-secondary" onClick={() => setOpen(true)} aria-label={name}>
          <FormattedMessage id="orderTimeline.open" />
        </button>
      )}
      <OrderTimelineDialog orderId={open ? orderId : null} assets={assets} onClose={() => setOpen(false)} />
    </>
  );
}

/** A vertical line with three marks: a timeline, drawn as the row's other action icons are. */
function TimelineIcon() {
  return (
    <svg className="icon" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M6 3v18" />
      <circle cx="6" cy="6" r="1.5" />
      <circle cx="6" cy="12" r="1.5" />
      <circle cx="6" cy="18" r="1.5" />
      <path d="M10 6h10M10 12h8M10 18h10" />
    </svg>
  );
}
