import { FormattedMessage } from 'react-intl';
import type { Order } from '../../../protocol/market-data.ts';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { orderStatusLabelKey } from '../../i18n/enum-labels.ts';

/** The order's status, with a badge while it is suspended: the same in every orders table. */
export const orderStatusColumn: DataTableColumn<Order> = {
  id: 'status',
  header: <FormattedMessage id="orders.status" />,
  sortValue: (o) => o.status,
  cell: (o) => (
    <span className="order-status">
      <FormattedMessage id={orderStatusLabelKey(o.status)} />
      {o.suspended && (
        <span className="badge badge-neutral">
          <FormattedMessage id="orders.suspended" />
        </span>
      )}
    </span>
  ),
};
