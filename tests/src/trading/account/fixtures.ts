import type { ClientLimits, Position } from '../../../../protocol/account.ts';

export function limits(partial: Partial<ClientLimits> & { code?: string } = {}): ClientLimits {
  const { code = 'RO-HIDRO', ...rest } = partial;
  return {
    client: { code, name: `${code} SA`, acerCode: `A${code}.RO`, agencyId: 'AG-NORD', active: true },
    currency: 'RON',
    tradingLimit: 1_000_000,
    exposure: 250_000,
    openOrdersValue: 150_000,
    tradedValue: 100_000,
    clearingLimit: 500_000,
    marginBlockedByOrders: 15_000,
    marginBlockedByTrades: 10_000,
    availableFunds: 475_000,
    openContracts: 3,
    maxContracts: 100,
    ...rest,
  };
}

export function position(partial: Partial<Position> = {}): Position {
  return {
    clientCode: 'RO-HIDRO',
    assetId: 'GSPOT-DA',
    marketId: 'GAS-SPOT',
    sessionDate: '2026-11-22',
    boughtQty: 150,
    soldQty: 50,
    netQty: 100,
    avgBuyPrice: 15_025,
    avgSellPrice: 15_100,
    boughtValue: 225_375,
    soldValue: 75_500,
    tradedValue: 300_875,
    trades: 3,
    ...partial,
  };
}

/** Text as a reader sees it: Intl puts no-break spaces between a currency and its number. */
export function plain(text: string | null | undefined): string {
  return (text ?? '').replace(/[\u00a0\u202f]/g, ' ');
}
