/** The engine's containers and counters as read by stateHash() (hash.ts) and validateInternalState() (validate.ts). */
import type { OrderIndex } from './order-index.ts';
import type { AssetState, ClientState, MarketState, ParticipantSuspensions } from './state.ts';
import type { TransactionRecord } from './types.ts';

/** Read-only by convention. */
export interface EngineInternals {
  markets: ReadonlyMap<string, MarketState>;
  assets: ReadonlyMap<string, AssetState>;
  clients: ReadonlyMap<string, ClientState>;
  orders: OrderIndex;
  counters: { nextOrderId: number; nextTransactionId: number; nextPriority: number; now: number };
  deltaTAssets: ReadonlySet<AssetState>;
  transactions: ReadonlyMap<number, TransactionRecord>;
  relations: ReadonlyMap<string, ReadonlySet<string>>;
  suspensions: ParticipantSuspensions;
}
