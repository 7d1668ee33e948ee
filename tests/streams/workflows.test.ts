/** The workflow streams: typed changes from the participant's queue and the administrator's, bad payloads dropped. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { destinations } from '../../protocol/destinations.ts';
import type { WorkflowChange } from '../../protocol/workflows.ts';
import { createConnection, type Connection, type StreamError } from '../../streams/connection.ts';
import { sharedWorkflowChanges$, workflowApprovals$, workflowChanges$ } from '../../streams/workflows.ts';
import { FakeStompServer, uniqueUrl } from './fake-stomp-server.ts';

const tick = async (ms = 20): Promise<void> => {
  await vi.advanceTimersByTimeAsync(ms);
};

let server: FakeStompServer;
let connection: Connection;
let errors: StreamError[];

beforeEach(() => {
  vi.useFakeTimers();
  const url = uniqueUrl('workflows');
  server = new FakeStompServer(url);
  connection = createConnection({ url, getToken: () => 't', webSocketFactory: server.webSocketFactory, heartbeatMs: 0, backoff: { initialMs: 10, maxMs: 10 } });
  errors = [];
  connection.errors$.subscribe((e) => errors.push(e));
  connection.connect();
});

afterEach(async () => {
  const done = connection.disconnect({ timeoutMs: 50 });
  await tick(100);
  await done;
  server.close();
  vi.useRealTimers();
});

const event = { seq: 2, action: 'activate', actorUserId: 'U-broker1', actorName: 'Broker Unu', actorRole: 'broker', fromStatus: 'new', toStatus: 'awaiting_partner_accept', reason: null, at: '2026-11-20T09:00:00.000Z' };
const change: WorkflowChange = {
  instance: {
    kind: 'whitelist',
    status: 'PENDING',
    data: { type: 'ALLOW_TRADING' },
    instanceId: 'WF-1',
    machineState: { value: 'PENDING', context: { initiatorClient: 'RO-HIDRO', partnerClient: 'RO-TERMO', lastReason: null } },
    initiatorClient: 'RO-HIDRO',
    partnerClient: 'RO-TERMO',
    initiatorName: 'Hidroelectrica SA',
    partnerName: 'Termo SA',
    createdBy: 'U-broker1',
    createdAt: '2026-11-20T08:00:00.000Z',
    updatedAt: '2026-11-20T09:00:00.000Z',
    limitAt: null,
    version: 2,
    reason: null,
    waitingOn: 'partner',
    history: [event],
  },
  event,
};

describe('workflow streams', () => {
  it('workflowChanges$ parses /user/queue/workflows and drops a change that fails the schema', async () => {
    const got: WorkflowChange[] = [];
    const subscription = workflowChanges$(connection).subscribe((value) => got.push(value));
    await tick();
    expect(server.subscribeCount(destinations.workflows)).toBe(1);
    server.publish(destinations.workflows, change);
    server.publish(destinations.workflows, { ...change, instance: { ...change.instance, status: 'SOMETHING' } });
    server.publish(destinations.workflows, { instance: change.instance });
    await tick();
    subscription.unsubscribe();
    expect(got).toEqual([change]);
    expect(errors.filter((e) => e.kind === 'payload')).toHaveLength(2);
  });

  it('workflowApprovals$ follows the administrator queue only', async () => {
    const got: WorkflowChange[] = [];
    const subscription = workflowApprovals$(connection).subscribe((value) => got.push(value));
    await tick();
    expect(server.subscribeCount(destinations.workflowApprovals)).toBe(1);
    expect(server.subscribeCount(destinations.workflows)).toBe(0);
    server.publish(destinations.workflows, change);
    server.publish(destinations.workflowApprovals, { ...change, instance: { ...change.instance, version: 3 } });
    await tick();
    subscription.unsubscribe();
    expect(got.map((value) => value.instance.version)).toEqual([3]);
  });
});

describe('shared workflow queues', () => {
  it('subscribe once per connection and queue, however many watch', async () => {
    const a: number[] = [];
    const b: number[] = [];
    const first = sharedWorkflowChanges$(connection, 'participant').subscribe((value) => a.push(value.instance.version));
    const second = sharedWorkflowChanges$(connection, 'participant').subscribe((value) => b.push(value.instance.version));
    await tick();
    expect(server.subscribeCount(destinations.workflows)).toBe(1);
    server.publish(destinations.workflows, change);
    await tick();
    expect(a).toEqual([2]);
    expect(b).toEqual([2]);
    first.unsubscribe();
    second.unsubscribe();
  });
});
