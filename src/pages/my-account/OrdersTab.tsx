import { OrdersSection } from '../../trading/orders/OrdersDialog.tsx';

/** My account, Orders: every order of the user's clients with filters, and each one's history. */
export function OrdersTab() {
  return <OrdersSection />;
}
