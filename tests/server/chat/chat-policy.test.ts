import { describe, expect, it } from 'vitest';
import { chatCircle, mayChat, type ChatParty } from '../../../server/chat/chat-policy.ts';
import { Presence } from '../../../server/chat/presence.ts';
import { ChatRateLimiter } from '../../../server/chat/rate-limiter.ts';
import { normalizeChatText } from '../../../server/chat/chat-service.ts';

const party = (id: string, roles: string[], agencyId: string | null): ChatParty => ({ id, roles, agencyId });
const operator = party('op', ['administrator'], null);
const brokerNord = party('bn', ['broker'], 'AG-NORD');
const brokerCarp = party('bc', ['broker'], 'AG-CARP');
const agencyNord = party('an', ['agency'], 'AG-NORD');
const clientNord = party('cn', ['client'], 'AG-NORD');
const ownerNord = party('on', ['assetOwner', 'transmissionPartner'], 'AG-NORD');
const terminal = party('tn', ['terminal'], 'AG-NORD');
const everyone = [operator, brokerNord, brokerCarp, agencyNord, clientNord, ownerNord, terminal];

describe('who may chat with whom', () => {
  it('puts roles in circles', () => {
    expect(everyone.map((p) => chatCircle(p.roles))).toEqual(['operator', 'intermediary', 'intermediary', 'intermediary', 'participant', 'participant', null]);
  });

  it('lets brokers and agencies talk across agencies, participants only with their own agency and the operator, terminals with nobody', () => {
    const allowed = (a: ChatParty) => everyone.filter((b) => mayChat(a, b)).map((b) => b.id);
    expect(allowed(operator)).toEqual(['bn', 'bc', 'an', 'cn', 'on']);
    expect(allowed(brokerNord)).toEqual(['op', 'bc', 'an', 'cn', 'on']);
    expect(allowed(brokerCarp)).toEqual(['op', 'bn', 'an']);
    expect(allowed(clientNord)).toEqual(['op', 'bn', 'an']);
    expect(allowed(terminal)).toEqual([]);
  });

  it('is symmetric, so every message can be answered', () => {
    for (const a of everyone) for (const b of everyone) expect(mayChat(a, b)).toBe(mayChat(b, a));
  });
});

describe('presence', () => {
  it('announces the first connection and the end of the last one once the grace has passed', async () => {
    const changes: Array<[string, boolean]> = [];
    const presence = new Presence({ graceMs: 30, onChange: (userId, online) => changes.push([userId, online]) });
    presence.opened('u1');
    presence.opened('u1');
    presence.closed('u1');
    expect(presence.isOnline('u1')).toBe(true);
    presence.closed('u1');
    // A reconnect within the grace is not announced at all.
    presence.opened('u1');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(changes).toEqual([['u1', true]]);
    presence.closed('u1');
    expect(presence.isOnline('u1')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(changes).toEqual([
      ['u1', true],
      ['u1', false],
    ]);
    expect(presence.onlineUsers()).toEqual([]);
    presence.close();
  });
});

describe('send limit', () => {
  it('allows max sends per sliding window and says how long to wait', () => {
    let now = 0;
    const limiter = new ChatRateLimiter({ max: 2, windowMs: 10_000 }, () => now);
    expect(limiter.take('u').allowed).toBe(true);
    now = 4_000;
    expect(limiter.take('u').allowed).toBe(true);
    expect(limiter.take('u')).toEqual({ allowed: false, retryAfterSeconds: 6 });
    expect(limiter.take('other').allowed).toBe(true);
    now = 10_001;
    expect(limiter.take('u').allowed).toBe(true);
    expect(limiter.take('u')).toEqual({ allowed: false, retryAfterSeconds: 4 });
  });
});

describe('message text', () => {
  it('keeps line ends as \\n and drops other control characters', () => {
    expect(normalizeChatText('a\r\nb\rc\u0000d\te\u0007')).toBe('a\nb\ncd\te');
  });
});
