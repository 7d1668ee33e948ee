import type { ClearingChange } from '../../protocol/clearing.ts';
import type { StompGateway } from '../gateway/stomp-gateway.ts';
import { CollateralRepository } from '../store/collateral.repository.ts';
import type { Store } from '../store/store.ts';
import type { Sequencer } from '../trading/sequencer.ts';
import { ClearingNotifier, loadClearingAudience } from './clearing-notifier.ts';
import { CollateralService } from './collateral-service.ts';
import { EngineFunds } from './engine-funds.ts';
import { NominationService } from './nominations.ts';

export interface CollateralClearing {
  repository: CollateralRepository;
  warranties: CollateralService;
  engineFunds: EngineFunds;
  nominations: NominationService;
  notifier: ClearingNotifier;
  /** For the settlement side: recompute and send these clients' figures after a settlement or a payment. */
  refresh(clientCodes: readonly string[]): Promise<void>;
  /** For the settlement side: tell the users of a client (and the administrators) that a clearing view changed. */
  notify(change: ClearingChange): void;
  /** Stops the timers and listeners and waits for the refreshes under way. */
  stop(): Promise<void>;
}

/**
 * The collateral side of the clearing house: warranties, margins, the engine's funds and restrictions,
 * nominations and the live clearing messages. `start` sends every client's figures to the engine (after
 * the setup commands) and starts the daily warranty check; trades reach it off the engine's hot path.
 */
export async function startCollateralClearing(options: {
  store: Store;
  sequencer: Sequencer;
  gateway: Pick<StompGateway, 'sendToUser'>;
  now: () => number;
  tradeDebounceMs?: number;
  readModelsSettled?: () => Promise<void>;
}): Promise<CollateralClearing> {
  const { store, sequencer, now } = options;
  const repository = new CollateralRepository(store.db);
  const notifier = new ClearingNotifier(options.gateway, await loadClearingAudience(store));
  const engineFunds = new EngineFunds({ store, repository, sequencer, notifier, now, tradeDebounceMs: options.tradeDebounceMs, readModelsSettled: options.readModelsSettled });
  const warranties = new CollateralService({ store, repository, notifier, now, onLimitChanged: (clientCodes) => engineFunds.refresh(clientCodes) });
  const nominations = new NominationService({ repository, assets: () => store.reference.assets(), notifier, now });
  await engineFunds.refreshAll();
  // Each midnight some warranties start or stop counting: every client's limit is recomputed.
  warranties.start(async () => {
    const clients = await store.reference.clients();
    await engineFunds.refresh(clients.map((client) => client.code));
  });
  const stopTrades = sequencer.onEvents((events) => engineFunds.onEvents(events));
  return {
    repository,
    warranties,
    engineFunds,
    nominations,
    notifier,
    refresh: engineFunds.refresh,
    notify: notifier.notify,
    async stop() {
      stopTrades();
      warranties.stop();
      engineFunds.stop();
      await engineFunds.settled();
      await warranties.settled();
    },
  };
}
