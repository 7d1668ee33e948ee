/**
 * ParticipantService on an engine behind a minimal sequencer and a store stand-in: names from the
 * store, suspension from the engine, refusals mapped to their codes, the affected users notified.
 */
import { describe, expect, it } from 'vitest';
import { ExchangeError } from '../../../protocol/error-codes.ts';
import { ParticipantService } from '../../../server/participants/participant-service.ts';
import type { Queryable } from '../../../server/store/database.ts';
import type { UserRecord } from '../../../server/store/users.repository.ts';
import type { UnstampedCommand } from '../../../server/trading/sequencer.ts';
import { ASSET, harness } from '../engine/helpers.ts';

const clients = [{ id: 'C1', name: 'Client One' }, { id: 'C2', name: 'Client Two' }];
const brokers = [{ id: 'u-broker1', name: 'Andrei Popescu' }];

/** Answers the service's three kinds of query from the lists above. */
const db: Queryable = {
  async query<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    const list = sql.includes('from clients') ? clients : brokers;
    return (params.length === 0 ? list : list.filter((row) => row.id === params[0])) as Row[];
  },
};

const admin = { id: 'u-admin', roles: ['administrator'] } as unknown as UserRecord;
const broker = { id: 'u-broker1', roles: ['broker'] } as unknown as UserRecord;

function setUp() {
  const h = harness();
  const submitted: UnstampedCommand[] = [];
  const notified: Array<{ userIds: readonly string[]; change: { kind: string; id: string; suspended: boolean } }> = [];
  const sequencer = {
    engine: h.engine,
    async submit(command: UnstampedCommand) {
      submitted.push(command);
      return { ...h.run({ ...command, at: h.now } as never), journalSeq: submitted.length };
    },
  };
  const service = new ParticipantService({
    db,
    sequencer: sequencer as never,
    usersOfClient: (code) => (code === 'C1' ? ['u-broker1', 'u-agency1'] : []),
    notify: (userIds, change) => notified.push({ userIds, change }),
  });
  return { h, service, submitted, notified };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ExchangeError) return error.code;
    throw error;
  }
  return 'OK';
}

describe('ParticipantService', () => {
  it('lists clients, then brokers, with the engine\'s suspension', async () => {
    const { service } = setUp();
    await service.suspend(admin, 'client', 'C2', 'unpaid');
    const list = await service.list();
    expect(list.map((p) => [p.kind, p.id, p.name, p.suspended])).toEqual([
      ['client', 'C1', 'Client One', false],
      ['client', 'C2', 'Client Two', true],
      ['broker', 'u-broker1', 'Andrei Popescu', false],
    ]);
    expect(list[1]).toMatchObject({ suspendedBy: 'u-admin', reason: 'unpaid' });
    expect(Date.parse(list[1]!.suspendedAt!)).toBeGreaterThan(0);
  });

  it('suspends through one engine command, answers the cancelled orders and tells the users concerned', async () => {
    const { h, service, submitted, notified } = setUp();
    h.place('bid', 10_000, 1, 'C1');
    h.place('bid', 9_000, 1, 'C1');
    const change = await service.suspend(admin, 'client', 'C1', 'unpaid');
    expect(change).toMatchObject({ cancelledOrders: 2, participant: { kind: 'client', id: 'C1', name: 'Client One', suspended: true } });
    expect(submitted).toEqual([{ type: 'suspendParticipant', actor: { userId: 'u-admin' }, kind: 'client', id: 'C1', reason: 'unpaid', by: 'u-admin' }]);
    expect(notified).toEqual([{ userIds: ['u-broker1', 'u-agency1'], change: { kind: 'client', id: 'C1', suspended: true } }]);
    expect(h.add({ assetId: ASSET, clientCode: 'C1', way: 'bid', price: 10_000, qty: 1 }).result).toBe('PARTICIPANT_SUSPENDED');

    const back = await service.reinstate(admin, 'client', 'C1');
    expect(back).toMatchObject({ cancelledOrders: 0, participant: { suspended: false, suspendedAt: null, suspendedBy: null, reason: null } });
    expect(notified.at(-1)).toEqual({ userIds: ['u-broker1', 'u-agency1'], change: { kind: 'client', id: 'C1', suspended: false } });
  });

  it('a broker is told himself', async () => {
    const { service, notified } = setUp();
    await service.suspend(admin, 'broker', 'u-broker1', 'unpaid');
    expect(notified).toEqual([{ userIds: ['u-broker1'], change: { kind: 'broker', id: 'u-broker1', suspended: true } }]);
  });

  it('refuses with the codes, submitting nothing for an unknown participant or a non-administrator', async () => {
    const { service, submitted, notified } = setUp();
    expect(await codeOf(service.suspend(broker, 'client', 'C1', 'x'))).toBe('FORBIDDEN');
    expect(await codeOf(service.suspend(admin, 'client', 'NOPE', 'x'))).toBe('PARTICIPANT_NOT_FOUND');
    expect(await codeOf(service.reinstate(admin, 'broker', 'u-nobody'))).toBe('PARTICIPANT_NOT_FOUND');
    expect(submitted).toEqual([]);
    expect(await codeOf(service.reinstate(admin, 'broker', 'u-broker1'))).toBe('PARTICIPANT_NOT_SUSPENDED');
    await service.suspend(admin, 'broker', 'u-broker1', 'x');
    expect(await codeOf(service.suspend(admin, 'broker', 'u-broker1', 'x'))).toBe('PARTICIPANT_ALREADY_SUSPENDED');
    expect(notified).toHaveLength(1);
  });
});
