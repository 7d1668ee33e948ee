import { afterEach, describe, expect, it } from 'vitest';
import type { SessionPhase } from '../../../protocol/index.ts';
import { sessionTimetables } from '../../../server/trading/engine-setup.ts';
import { ScheduleKeeper } from '../../../server/trading/schedule-keeper.ts';
import { demoUser, startTestServer, type TestServer } from '../../helpers/test-server.ts';

/**
 * Fault: the wall clock jumps forwards and backwards during trading (docs/reliability.md, "Faults").
 * The server's clock is the injected `now`; the test moves it by +1 h, -1 h and -1 day.
 * Decided: the engine's time never goes back (each command is stamped max(now, engine clock)), so
 * the journal's times and seqs only grow; sign-in, codes and tokens follow the wall clock.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const asset = 'GSPOT-DA';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.server.close();
  t = undefined;
});

/** Every journaled command's seq and stamped time, in the order the listeners get them. */
function recordJournal(server: TestServer): Array<{ seq: number; at: number }> {
  const records: Array<{ seq: number; at: number }> = [];
  server.server.sequencer.onEvents((_events, entry, _result, seq) => records.push({ seq, at: entry.command.at }));
  return records;
}

function nonDecreasing(values: number[]): boolean {
  return values.every((value, index) => index === 0 || value >= values[index - 1]!);
}

describe('the wall clock jumps', () => {
  it('+1 h, -1 h, -1 day during trading: no crash, journal times never go back, GTD and tokens behave', async () => {
    const server = (t = await startTestServer({ tickIntervalMs: 0 }));
    const journal = recordJournal(server);
    const tick = () => server.server.sequencer.submit({ type: 'tick' });
    let key = 0;
    const order = (token: string, fields: Record<string, unknown>) =>
      server.post('/orders', { idempotencyKey: `clock-${String(++key).padStart(6, '0')}`, assetId: asset, qty: 10, clientCode: 'RO-HIDRO', ...fields }, token);
    let token = await server.login('broker1');
    const iso = (ms: number) => new Date(ms).toISOString();
    const acked: Array<{ createdAt: string; seq: number }> = [];
    const ack = (reply: { status: number; body: { seq: number; order: { createdAt: string } } }) => {
      expect(reply.status).toBe(201);
      acked.push({ createdAt: reply.body.order.createdAt, seq: reply.body.seq });
      return reply.body.order as { orderId: string; createdAt: string; status: string };
    };

    // GTD to 30 minutes from now, and a GTC that must live through everything.
    const gtd = ack(await order(token, { way: 'ask', price: 16_000, validityType: 'GTD', validity: iso(server.clock.now() + 30 * 60_000) }));
    const gtc = ack(await order(token, { way: 'ask', price: 16_100, validityType: 'GTC' }));
    const engineTimeBefore = server.server.sequencer.engine.clock;

    // +1 h: the GTD is past its validity and expires at the next tick (once); the 30-minute token has expired.
    server.clock.advance(HOUR);
    await tick();
    await tick();
    expect(server.server.sequencer.engine.getOrder(Number(gtd.orderId))).toBeUndefined();
    expect(server.server.sequencer.engine.getOrder(Number(gtc.orderId))).toBeDefined();
    const expiredToken = await order(token, { way: 'ask', price: 16_200, validityType: 'day' });
    expect(expiredToken.status).toBe(401);
    expect(expiredToken.body.error.code).toBe('AUTH_TOKEN_EXPIRED');
    token = await server.login('broker1');
    ack(await order(token, { way: 'ask', price: 16_200, validityType: 'day' }));
    const engineTimeAfterJump = server.server.sequencer.engine.clock;
    expect(engineTimeAfterJump).toBeGreaterThanOrEqual(engineTimeBefore + HOUR);
    const history = await server.get(`/orders/${gtd.orderId}/events`, token);
    expect(history.body.events.map((event: { kind: string }) => event.kind)).toEqual(['created', 'expired']);

    // -1 h: the engine's time stays where it was (clamped); a token issued after the jump forward
    // keeps working (it was verified before, and has not reached its expiry); a GTD whose validity is ahead of the wall clock but
    // behind the exchange's time is refused, not accepted and expired.
    const unused = await server.login('admin');
    server.clock.advance(-HOUR);
    await tick();
    // A token now issued "in the future" that the server has not verified before is refused; the user signs in again.
    const fromTheFuture = await server.get('/orders/mine', unused);
    expect(fromTheFuture.status).toBe(401);
    expect(fromTheFuture.body.error.code).toBe('AUTH_TOKEN_INVALID');
    const back = ack(await order(token, { way: 'ask', price: 16_300, validityType: 'day' }));
    expect(Date.parse(back.createdAt)).toBe(engineTimeAfterJump);
    const stale = await order(token, { way: 'ask', price: 16_400, validityType: 'GTD', validity: iso(server.clock.now() + 30 * 60_000) });
    expect(stale.status).toBe(422);
    expect(stale.body.error.code).toBe('ORDER_VALIDITY_IN_PAST');
    const gtdAhead = ack(await order(token, { way: 'ask', price: 16_500, validityType: 'GTD', validity: iso(engineTimeAfterJump + 30 * 60_000) }));
    // Nothing expires early while the wall clock is behind: ticks do not move the engine back or forth.
    server.clock.advance(10 * 60_000);
    await tick();
    expect(server.server.sequencer.engine.getOrder(Number(gtdAhead.orderId))).toBeDefined();

    // -1 day: still no crash, still monotonic; the GTC and the GTD stay on the book; a new sign-in
    // works for a user whose codes were not used in the skipped day.
    server.clock.advance(-DAY);
    await tick();
    ack(await order(token, { way: 'ask', price: 16_600, validityType: 'GTC' }));
    expect(server.server.sequencer.engine.getOrder(Number(gtc.orderId))).toBeDefined();
    expect(server.server.sequencer.engine.getOrder(Number(gtdAhead.orderId))).toBeDefined();
    expect(server.server.sequencer.engine.clock).toBe(engineTimeAfterJump);
    const broker2 = await server.login('broker2');
    expect((await server.get('/orders/mine', broker2)).status).toBe(200);
    // A code already used cannot be used again by turning the clock back: broker1 signed in at a later step.
    server.clock.nextTotpStep();
    const replayedStep = await server.post('/login', { username: 'broker1', password: demoUser('broker1').password, code: server.codeFor('broker1') });
    expect(replayedStep.status).toBe(401);
    expect(replayedStep.body.error.code).toBe('AUTH_CODE_ALREADY_USED');

    // The wall clock catches up with the engine and passes the GTD's validity: it expires then.
    server.clock.advance(DAY + 2 * HOUR);
    await tick();
    expect(server.server.sequencer.engine.getOrder(Number(gtdAhead.orderId))).toBeUndefined();
    expect(server.server.sequencer.engine.getOrder(Number(gtc.orderId))).toBeDefined();

    const seqs = journal.map((record) => record.seq);
    const times = journal.map((record) => record.at);
    const created = acked.map((a) => Date.parse(a.createdAt));
    const seqGaps = seqs.filter((seq, i) => i > 0 && seq !== seqs[i - 1]! + 1).length;
    const timesBack = times.filter((at, i) => i > 0 && at < times[i - 1]!).length;
    const createdBack = created.filter((at, i) => i > 0 && at < created[i - 1]!).length;
    console.log(`clock-jumps: tried 3 jumps (+1 h, -1 h, -1 day) over ${journal.length} journal records and ${acked.length} orders: seq gaps ${seqGaps}, journal times back ${timesBack}, createdAt back ${createdBack}`);
    expect([seqGaps, timesBack, createdBack]).toEqual([0, 0, 0]);
    expect(seqs.every((seq, index) => index === 0 || seq === seqs[index - 1]! + 1)).toBe(true);
    expect(nonDecreasing(times)).toBe(true);
    expect(nonDecreasing(acked.map((a) => Date.parse(a.createdAt)))).toBe(true);
    expect(nonDecreasing(acked.map((a) => a.seq))).toBe(true);
  }, 30_000);

  it('applies each scheduled phase once and in order across +1 day, -1 day and the catch-up, and renews nothing twice', async () => {
    // 11:00 in Bucharest: trading on the spot market.
    const server = (t = await startTestServer({ tickIntervalMs: 0, timetables: sessionTimetables }));
    const phases: Array<{ phase: SessionPhase; sessionDate: string; at: number }> = [];
    server.server.sequencer.onEvents((events) => {
      for (const event of events) if (event.type === 'phase' && event.marketId === 'GAS-SPOT' && event.assetId === null) phases.push({ phase: event.phase, sessionDate: event.sessionDate, at: event.at });
    });
    const keeper = new ScheduleKeeper({ sequencer: server.server.sequencer, markets: () => server.server.store.reference.markets(), timetables: sessionTimetables, now: server.clock.now });
    const tick = () => server.server.sequencer.submit({ type: 'tick' });
    expect(server.server.sequencer.engine.getMarketPhase('GAS-SPOT')).toMatchObject({ phase: 'trading', sessionDate: '2026-11-22' });

    server.clock.advance(DAY);
    await tick();
    expect(await keeper.check()).toEqual([]);
    const afterDay = phases.map((p) => `${p.sessionDate} ${p.phase}`);
    expect(afterDay).toEqual(['2026-11-22 closing', '2026-11-22 closed', '2026-11-23 opening', '2026-11-23 trading']);

    // Back a day: nothing is applied again, and a renewal (forced by a short horizon) keeps the engine's time.
    server.clock.advance(-DAY);
    await tick();
    const eager = new ScheduleKeeper({ sequencer: server.server.sequencer, markets: () => server.server.store.reference.markets(), timetables: sessionTimetables, now: server.clock.now, renewWithinMs: 400 * DAY });
    const renewed = await eager.check();
    expect(renewed.length).toBeGreaterThan(0);
    await tick();
    expect(phases).toHaveLength(4);
    expect(server.server.sequencer.engine.getMarketPhase('GAS-SPOT')).toMatchObject({ phase: 'trading', sessionDate: '2026-11-23' });

    // The wall clock comes back and goes on past the next close: that day's phases, once each, in order.
    server.clock.advance(DAY + DAY);
    await tick();
    const all = phases.map((p) => `${p.sessionDate} ${p.phase}`);
    const repeated = all.length - new Set(all).size;
    const outOfOrder = phases.filter((p, i) => i > 0 && p.at < phases[i - 1]!.at).length;
    console.log(`clock-jumps: schedule tried +1 day, -1 day (with a renewal), +2 days: ${all.length} phase changes, repeated ${repeated}, out of order ${outOfOrder}: ${all.join(', ')}`);
    expect([repeated, outOfOrder]).toEqual([0, 0]);
    expect(all).toEqual([...afterDay, '2026-11-23 closing', '2026-11-23 closed', '2026-11-24 opening', '2026-11-24 trading']);
    expect(nonDecreasing(phases.map((p) => p.at))).toBe(true);
  }, 30_000);
});
