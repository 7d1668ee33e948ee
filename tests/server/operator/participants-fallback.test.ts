import { describe, expect, it } from 'vitest';
import { participantSchema } from '../../../protocol/index.ts';
import { participantsFallback } from '../../../server/operator/participants-fallback.ts';
import type { Store } from '../../../server/store/store.ts';

describe('participantsFallback', () => {
  it('lists every client by code and every broker user by id, none suspended', async () => {
    const queries: string[] = [];
    const store = {
      reference: { clients: async () => [{ id: 'c1', code: 'RO-A', name: 'Client A', acerCode: '', agencyId: 'AG', active: true }] },
      db: {
        query: async (sql: string) => {
          queries.push(sql);
          return [{ id: 'U-7', name: 'Broker Seven' }];
        },
      },
    } as unknown as Pick<Store, 'reference' | 'db'>;
    const participants = await participantsFallback(store)();
    expect(participants.map((participant) => participantSchema.parse(participant))).toEqual([
      { kind: 'client', id: 'RO-A', name: 'Client A', suspended: false, suspendedAt: null, suspendedBy: null, reason: null },
      { kind: 'broker', id: 'U-7', name: 'Broker Seven', suspended: false, suspendedAt: null, suspendedBy: null, reason: null },
    ]);
    expect(queries[0]).toContain(`roles @> '["broker"]'`);
  });
});
