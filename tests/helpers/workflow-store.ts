import { loadDemoExchangeIfEmpty } from '../../server/demo/demo-exchange.ts';
import { openStore, type Store } from '../../server/store/store.ts';
import type { UserRecord } from '../../server/store/users.repository.ts';
import type { WorkflowClearing } from '../../server/workflows/workflow-environment.ts';
import type { WorkflowLedger } from '../../server/workflows/workflow-ledger.ts';
import { workflowActorOf, WorkflowRunner, type WorkflowChangeSink, type WorkflowUser } from '../../server/workflows/workflow-runner.ts';
import { WorkflowService } from '../../server/workflows/workflow-service.ts';
import { MemoryLedger } from './memory-ledger.ts';
import type { TestDatabase } from './test-databases.ts';
import { TestClock } from './test-clock.ts';

/** A store with the demo exchange and a runner on it, for the workflow service tests. */
export interface WorkflowStore {
  store: Store;
  clock: TestClock;
  runner: WorkflowRunner;
  published: Array<{ instanceId: string; status: string; actor: string | null }>;
  actor(username: string): Promise<WorkflowUser>;
  user(username: string): Promise<UserRecord>;
  /** A user made from a demo user with other roles, scopes or clients (a broker of the same agency holding no client…). */
  addUser(username: string, from: string, overrides: Partial<Pick<UserRecord, 'roles' | 'scopes' | 'clientCodes' | 'agencyId'>>): Promise<WorkflowUser>;
  /** The workflow service on this store, with an in-memory ledger and clearing figures the test sets. */
  service<L extends WorkflowLedger = MemoryLedger>(ledger?: L): { service: WorkflowService; ledger: L; clearing: TestClearing };
  close(): Promise<void>;
}

export async function openWorkflowStore(database: TestDatabase, clockAt = Date.parse('2026-11-23T09:00:00Z')): Promise<WorkflowStore> {
  const target = await database.create();
  const store = await openStore(target);
  const clock = new TestClock(clockAt);
  await loadDemoExchangeIfEmpty(store, new Date(clock.now()));
  const published: WorkflowStore['published'] = [];
  const publisher: WorkflowChangeSink = { publish: (instance, actor) => void published.push({ instanceId: instance.instanceId, status: instance.status, actor: actor.userId }) };
  const runner = new WorkflowRunner({ db: store.db, now: clock.now, publisher });
  async function user(username: string): Promise<UserRecord> {
    const found = await store.users.findByUsername(username);
    if (!found) throw new Error(`no user ${username}`);
    return found;
  }
  return {
    store,
    clock,
    runner,
    published,
    user,
    actor: async (username) => workflowActorOf(await user(username)),
    async addUser(username, from, overrides) {
      const base = await user(from);
      const { credentialsVersion: _version, ...rest } = base;
      await store.users.insert({ ...rest, ...overrides, id: `U-${username}`, username, name: `Test ${username}` });
      return workflowActorOf(await user(username));
    },
    service<L extends WorkflowLedger = MemoryLedger>(given?: L) {
      const ledger = (given ?? new MemoryLedger(clock.now)) as L;
      const clearing = new TestClearing();
      const service = new WorkflowService({ db: store.db, env: { db: store.db, reference: store.reference, clearing, ledger, now: clock.now }, publisher, timerIntervalMs: 0 });
      return { service, ledger, clearing };
    },
    async close() {
      await store.close();
      await target.drop();
    },
  };
}

/** Clearing figures a test sets: funds per client (default plenty), settlement prices, sessions (default open). */
export class TestClearing implements WorkflowClearing {
  readonly funds = new Map<string, number>();
  readonly prices = new Map<string, number>();
  sessions = true;
  async availableFunds(clientCode: string): Promise<number> {
    return this.funds.get(clientCode) ?? 1_000_000_000_000;
  }
  async settlementPrice(assetId: string): Promise<number | null> {
    return this.prices.get(assetId) ?? null;
  }
  async hasSession(): Promise<boolean> {
    return this.sessions;
  }
}
