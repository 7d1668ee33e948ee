import { afterEach, describe, expect, it } from 'vitest';
import { engineClearing, ReadModelLedger } from '../../../server/workflows/workflow-environment.ts';
import { MemoryLedger } from '../../helpers/memory-ledger.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { openWorkflowStore, type WorkflowStore } from '../../helpers/workflow-store.ts';

describe.each(testDatabases)('workflow environment on $name', (database) => {
  let ws: WorkflowStore;
  afterEach(async () => ws?.close());

  it('finds transactions, a trade by external id and a novation in the read model', async () => {
    ws = await openWorkflowStore(database);
    const made = new MemoryLedger(ws.clock.now);
    const original = made.seed({ transactionId: '71' });
    const otc = made.seed({ transactionId: '72', externalTransactionId: 'wf-abc' });
    const transferred = made.seed({ transactionId: '73', parentTransactionId: '71', transferTimestamp: '2026-11-23T09:00:00.000Z', assetId: 'GCCP-M-2027-01' });
    const remainder = made.seed({ transactionId: '74', parentTransactionId: '71', splitTimestamp: '2026-11-23T09:00:00.000Z' });
    for (const tx of [original, otc, transferred, remainder]) {
      await ws.store.db.query('insert into transactions (transaction_id, asset_id, buyer, seller, data, ts) values ($1,$2,$3,$4,$5,$6)', [tx.transactionId, tx.assetId, tx.buyer, tx.seller, JSON.stringify(tx), tx.timestamp]);
    }
    const ledger = new ReadModelLedger(ws.store.db);
    expect(await ledger.transaction('71')).toEqual(original);
    expect(await ledger.transaction('999')).toBeNull();
    expect(await ledger.transaction('not-a-number')).toBeNull();
    expect(await ledger.transactionByExternalId('wf-abc')).toEqual(otc);
    expect(await ledger.novationOf('71')).toEqual({ transferred, remainder });
    expect(await ledger.novationOf('72')).toBeNull();
    await expect(ledger.registerOffBookTrade({} as never)).rejects.toThrow(/not wired/);
  });

  it('reckons available funds from the engine figures, the latest settlement price in force and the session', async () => {
    ws = await openWorkflowStore(database);
    const engine = {
      getClientFinancials: (code: string) => (code === 'A' ? { funds: 1_000, reservedMargin: 300, tradesMargin: 200 } : code === 'B' ? { funds: null, reservedMargin: 0, tradesMargin: 0 } : undefined),
      getMarketPhase: (marketId: string) => (marketId === 'GAS-CCP' ? { phase: 'trading', sessionDate: '2026-11-23' } : { phase: 'closed', sessionDate: '2026-11-23' }),
    };
    const clearing = engineClearing(ws.store.db, () => engine);
    expect(await clearing.availableFunds('A')).toBe(500);
    expect(await clearing.availableFunds('B')).toBe(Number.MAX_SAFE_INTEGER);
    expect(await clearing.availableFunds('C')).toBe(0);
    expect(await clearing.settlementPrice('GFWD-M-2027-01')).toBeNull();
    const insert = `insert into daily_settlement_prices (id, asset_id, session_date, value, override_price, source, computed_at) values ($1, 'GFWD-M-2027-01', $2, $3, $4, 'transactions', now())`;
    await ws.store.db.query(insert, ['p1', '2026-11-20', 14_000, null]);
    await ws.store.db.query(insert, ['p2', '2026-11-21', 14_500, 14_200]);
    expect(await clearing.settlementPrice('GFWD-M-2027-01')).toBe(14_200);
    expect(await clearing.hasSession('GAS-CCP', '2026-11-23')).toBe(true);
    expect(await clearing.hasSession('GAS-CCP', '2026-11-24')).toBe(false);
    expect(await clearing.hasSession('GAS-FWD', '2026-11-23')).toBe(false);
  });
});
