import { loadDemoExchangeIfEmpty } from '../../server/demo/demo-exchange.ts';
import { openStore, type Store } from '../../server/store/store.ts';
import type { UserRecord } from '../../server/store/users.repository.ts';
import { workflowActorOf, WorkflowRunner, type WorkflowChangeSink, type WorkflowUser } from '../../server/workflows/workflow-runner.ts';
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
    async close() {
      await store.close();
      await target.drop();
    },
  };
}
