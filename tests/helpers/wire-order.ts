import type { Order } from '../../protocol/market-data.ts';

export const FIXTURE_TIME = '2026-01-01T09:00:00.000Z';

/** A wire order (protocol/market-data.ts) for client-side tests: a resting 100 @ 100.00 bid unless overridden. */
export function wireOrder(overrides: Partial<Order> = {}): Order {
  return {
    orderId: 'O1',
    assetId: 'A1',
    status: 'created',
    suspended: false,
    clientCode: 'C1',
    brokerId: null,
    way: 'bid',
    price: 10_000,
    qty: 100,
    noCnt: 1,
    totalQty: 100,
    powerPerInterval: null,
    tradedQty: 0,
    tradedPrice: null,
    offeredQty: 100,
    offeredPrice: 10_000,
    executionType: 'normal',
    validityType: 'day',
    validity: null,
    sessionDate: '2026-01-01',
    createdAt: FIXTURE_TIME,
    lastModifiedAt: FIXTURE_TIME,
    expiresAt: null,
    position: 1,
    ...overrides,
  };
}
