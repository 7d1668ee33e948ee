import { describe, expect, it } from 'vitest';
import { clearingChangeSchema, destinations, notificationSchema } from '../../../protocol/index.ts';
import { ClearingNotifier } from '../../../server/clearing/clearing-notifier.ts';

function setup() {
  const sent: Array<{ userId: string; destination: string; body: unknown }> = [];
  const notifier = new ClearingNotifier(
    { sendToUser: (userId, destination, body) => sent.push({ userId, destination, body }) },
    {
      usersOfAgency: new Map([['AG-NORD', ['U-broker1', 'U-agency1']], ['AG-CARP', ['U-broker2']]]),
      agencyOfClient: new Map([['RO-HIDRO', 'AG-NORD'], ['RO-TERMO', 'AG-CARP']]),
      administrators: ['U-admin'],
      everyone: ['U-admin', 'U-broker1', 'U-agency1', 'U-broker2'],
    },
  );
  return { sent, notifier };
}

const at = '2026-11-22T10:00:00.000Z';

describe('clearing notifier', () => {
  it('sends a change to the users of the client agency and the administrators', () => {
    const { sent, notifier } = setup();
    notifier.notify({ kind: 'settlement', clientCode: 'RO-TERMO', marketId: 'GAS-FWD', sessionDate: '2026-11-21', at });
    expect(sent.map((message) => [message.userId, message.destination])).toEqual([
      ['U-broker2', destinations.clearing],
      ['U-admin', destinations.clearing],
    ]);
    expect(clearingChangeSchema.parse(sent[0]!.body)).toMatchObject({ kind: 'settlement', clientCode: 'RO-TERMO' });
  });

  it('sends a change of no client (a settlement price) to everyone', () => {
    const { sent, notifier } = setup();
    notifier.notify({ kind: 'settlement_price', clientCode: null, marketId: 'GAS-FWD', sessionDate: '2026-11-21', at });
    expect(sent.map((message) => message.userId)).toEqual(['U-admin', 'U-broker1', 'U-agency1', 'U-broker2']);
  });

  it('turns a margin call into a notification and a change', () => {
    const { sent, notifier } = setup();
    notifier.alert('marginCall', 'RO-HIDRO', { amount: '99.95', currency: 'RON' }, at);
    const notifications = sent.filter((message) => message.destination === destinations.notifications);
    expect(notifications.map((message) => message.userId)).toEqual(['U-broker1', 'U-agency1', 'U-admin']);
    expect(notificationSchema.parse(notifications[0]!.body)).toMatchObject({ kind: 'system', messageKey: 'notifications.marginCall', values: { clientCode: 'RO-HIDRO', amount: '99.95', currency: 'RON' } });
    const changes = sent.filter((message) => message.destination === destinations.clearing);
    expect(changes.map((message) => (message.body as { kind: string }).kind)).toEqual(['margin_call', 'margin_call', 'margin_call']);
  });
});
