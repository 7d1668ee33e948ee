import { apiError, ExchangeError, type FinancialInfo, type FinancialRestrictionsInput } from '../../protocol/index.ts';
import type { CollateralRepository, RestrictionRecord } from '../store/collateral.repository.ts';
import type { AssetRecord, Client } from '../store/reference.repository.ts';

/** The financial info of a client: its restrictions, with the quantity scale of each asset ('*': the first asset's, all demo assets share it). */
export function financialInfoOf(client: Client, rows: readonly RestrictionRecord[], assets: readonly AssetRecord[], at: string): FinancialInfo {
  const decimalsOf = (assetId: string) => (assets.find((asset) => asset.id === assetId) ?? assets[0])?.spec.quantityDecimals ?? 0;
  return {
    clientCode: client.code,
    clientName: client.name,
    imbalance: rows
      .filter((row) => row.imbalanceWay !== null && row.imbalanceQty !== null)
      .map((row) => ({ assetId: row.assetId, way: row.imbalanceWay!, quantity: row.imbalanceQty!, quantityDecimals: decimalsOf(row.assetId) })),
    tradeableQuantity: rows
      .filter((row) => row.tradeableBid !== null || row.tradeableAsk !== null)
      .map((row) => ({ assetId: row.assetId, bid: row.tradeableBid, ask: row.tradeableAsk, quantityDecimals: decimalsOf(row.assetId) })),
    at,
  };
}

/** Replaces a client's restrictions: one row per asset ('*' = every asset), an unknown asset or a doubled one refused. */
export async function replaceRestrictions(repository: CollateralRepository, clientCode: string, input: FinancialRestrictionsInput, assets: readonly AssetRecord[]): Promise<void> {
  const known = new Set(['*', ...assets.map((asset) => asset.id)]);
  const rows = new Map<string, Omit<RestrictionRecord, 'clientCode'>>();
  const rowOf = (assetId: string) => rows.get(assetId) ?? { assetId, imbalanceWay: null, imbalanceQty: null, tradeableBid: null, tradeableAsk: null };
  for (const [index, entry] of input.imbalance.entries()) {
    if (!known.has(entry.assetId)) throw new ExchangeError(apiError('REQUEST_INVALID', { field: `imbalance.${index}.assetId`, issue: 'unknown' }));
    const row = rowOf(entry.assetId);
    if (row.imbalanceWay !== null) throw new ExchangeError(apiError('REQUEST_INVALID', { field: `imbalance.${index}.assetId`, issue: 'duplicate' }));
    rows.set(entry.assetId, { ...row, imbalanceWay: entry.way, imbalanceQty: entry.quantity });
  }
  for (const [index, entry] of input.tradeableQuantity.entries()) {
    if (!known.has(entry.assetId)) throw new ExchangeError(apiError('REQUEST_INVALID', { field: `tradeableQuantity.${index}.assetId`, issue: 'unknown' }));
    const row = rowOf(entry.assetId);
    if (row.tradeableBid !== null || row.tradeableAsk !== null) throw new ExchangeError(apiError('REQUEST_INVALID', { field: `tradeableQuantity.${index}.assetId`, issue: 'duplicate' }));
    rows.set(entry.assetId, { ...row, tradeableBid: entry.bid, tradeableAsk: entry.ask });
  }
  await repository.replaceRestrictions(clientCode, [...rows.values()]);
}
