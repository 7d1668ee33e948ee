import type { WarrantyInput } from '../../protocol/clearing.ts';
import { addDays } from '../clearing/collateral-service.ts';
import { CollateralRepository } from '../store/collateral.repository.ts';
import type { Store } from '../store/store.ts';
import { bucharestDate } from '../trading/time.ts';
import { demoAssetId } from './demo-exchange.ts';

type DemoWarranty = Omit<WarrantyInput, 'depositDate' | 'validityDate' | 'currency'> & { depositDaysAgo: number; validForDays: number; released?: boolean };

/**
 * The demo exchange's collateral, dated from the day the demo is made. The warranties counting today
 * add up to each client's trading-setup funds, so the demo trades as it did before clearing; RO-INDUS
 * has one that stops counting within WARRANTY_NOTICE_DAYS (its holder gets the notice at start), and
 * an imbalance restriction (on the gas quarter listed that day) and tradeable quantities. Nominations are made from the physical trades on
 * read (server/clearing/nominations.ts), so the demo's physical trades have theirs.
 */
const demoWarranties: DemoWarranty[] = [
  { clientCode: 'RO-HIDRO', warrantyNumber: 'SGB-BRD-118', warrantyName: 'Scrisoare de garanție bancară BRD nr. 118', kind: 'bank_guarantee', value: 40_000_000_000, depositDaysAgo: 120, validForDays: 365 },
  { clientCode: 'RO-HIDRO', warrantyNumber: 'DEP-0042', warrantyName: 'Depozit colateral în numerar', kind: 'cash_deposit', value: 10_000_000_000, depositDaysAgo: 30, validForDays: 730 },
  { clientCode: 'RO-HIDRO', warrantyNumber: 'SGB-BCR-077', warrantyName: 'Scrisoare de garanție bancară BCR nr. 77', kind: 'bank_guarantee', value: 5_000_000_000, depositDaysAgo: 400, validForDays: 365 },
  { clientCode: 'RO-GAZEST', warrantyNumber: 'SGB-BT-2291', warrantyName: 'Scrisoare de garanție bancară Banca Transilvania nr. 2291', kind: 'bank_guarantee', value: 30_000_000_000, depositDaysAgo: 60, validForDays: 365 },
  { clientCode: 'RO-TERMO', warrantyNumber: 'POL-ALZ-5531', warrantyName: 'Poliță de asigurare Allianz-Țiriac nr. 5531', kind: 'insurance_policy', value: 25_000_000_000, depositDaysAgo: 90, validForDays: 365 },
  { clientCode: 'RO-TERMO', warrantyNumber: 'DEP-0057', warrantyName: 'Depozit colateral în numerar', kind: 'cash_deposit', value: 15_000_000_000, depositDaysAgo: 10, validForDays: 365 },
  { clientCode: 'RO-TERMO', warrantyNumber: 'DEP-0031', warrantyName: 'Depozit colateral în numerar (restituit)', kind: 'cash_deposit', value: 2_000_000_000, depositDaysAgo: 200, validForDays: 365, released: true },
  { clientCode: 'RO-INDUS', warrantyNumber: 'SGB-ING-904', warrantyName: 'Scrisoare de garanție bancară ING nr. 904', kind: 'bank_guarantee', value: 15_000_000_000, depositDaysAgo: 45, validForDays: 365 },
  { clientCode: 'RO-INDUS', warrantyNumber: 'SGB-RAI-310', warrantyName: 'Scrisoare de garanție bancară Raiffeisen nr. 310', kind: 'bank_guarantee', value: 5_000_000_000, depositDaysAgo: 362, validForDays: 365 },
];

/** Loads the demo collateral into a freshly made demo exchange (called once, after loadDemoExchangeIfEmpty made it). */
export async function loadDemoCollateral(store: Store, now: Date): Promise<void> {
  const repository = new CollateralRepository(store.db);
  const today = bucharestDate(now.getTime());
  const currency = (await store.reference.markets())[0]?.currency ?? 'RON';
  for (const [index, warranty] of demoWarranties.entries()) {
    const { depositDaysAgo, validForDays, released, ...rest } = warranty;
    const depositDate = addDays(today, -depositDaysAgo);
    const id = `W-DEMO-${String(index + 1).padStart(3, '0')}`;
    await repository.insertWarranty(id, { ...rest, depositDate, validityDate: addDays(depositDate, validForDays), currency }, now);
    if (released) await repository.releaseWarranty(id, 'U-001', now);
  }
  await repository.replaceRestrictions('RO-INDUS', [
    { assetId: demoAssetId('GFWD-Q1-2027', now.getTime()), imbalanceWay: 'bid', imbalanceQty: 10_000, tradeableBid: null, tradeableAsk: null },
    { assetId: '*', imbalanceWay: null, imbalanceQty: null, tradeableBid: 50_000, tradeableAsk: 50_000 },
  ]);
}
