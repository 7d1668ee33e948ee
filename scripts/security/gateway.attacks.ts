// Attacks on the STOMP gateway (issue 13, items 2, 3 and 6, and Build item 4): oversized frames, too
// many subscriptions, a fragment flood, slow-loris on the socket, too many connections for one user,
// other users' and markets' destinations, and a session that outlives its token. Each runs against a
// fresh real server (scripts/security-check.ts). docs/reliability.md, section "STOMP gateway".
import { destinations, TOKEN_MAX_AGE_SECONDS } from '../../protocol/index.ts';
import { RawClient, sleep, type ServerFrame } from '../../tests/server/gateway/helpers.ts';
import type { TestServer } from '../../tests/helpers/test-server.ts';
import type { Attack, AttackOutcome } from './attack.ts';

const area = 'gateway';

function socketUrl(target: TestServer): string {
  return `ws://127.0.0.1:${target.server.port}/session/ws`;
}

async function open(target: TestServer): Promise<RawClient> {
  return RawClient.open(socketUrl(target));
}

async function connected(target: TestServer, username: string): Promise<RawClient> {
  const client = await open(target);
  const reply = await client.connect(await target.login(username));
  if (reply.command !== 'CONNECTED') throw new Error(`${username} could not connect: ${reply.headers['code']}`);
  return client;
}

/** Waits for an ERROR frame and the close after it; null when neither came in time. */
async function refusal(client: RawClient, timeoutMs = 3000): Promise<{ frame: ServerFrame; closed: boolean } | null> {
  let frame: ServerFrame;
  try {
    frame = await client.waitForCommand('ERROR', timeoutMs);
  } catch {
    return null;
  }
  const closed = await Promise.race([client.closed.then(() => true), sleep(2000).then(() => false)]);
  return { frame, closed };
}

function outcomeOf(found: { frame: ServerFrame; closed: boolean } | null, expected: string, what = ''): AttackOutcome {
  if (!found) return { held: false, outcome: `no ERROR frame${what}` };
  const code = found.frame.headers['code'] ?? 'no code';
  return { held: code === expected && found.closed, outcome: `ERROR ${code}${found.closed ? ', closed' : ', NOT closed'}${what}` };
}

/** Round trip of a CONNECT by another user while an attack runs, ms. */
async function otherUserConnectMs(target: TestServer): Promise<number> {
  const token = await target.login('broker2');
  const started = performance.now();
  const client = await open(target);
  const reply = await client.connect(token);
  const ms = performance.now() - started;
  client.terminate();
  if (reply.command !== 'CONNECTED') throw new Error('the other user could not connect');
  return ms;
}

export const attacks: Attack[] = [
  {
    area,
    name: 'oversized STOMP frame (80 KiB SEND)',
    expected: 'ERROR STOMP_FRAME_TOO_LARGE {limitBytes: 65536}, closed',
    async run(target) {
      const client = await connected(target, 'broker1');
      client.send(`SEND\ndestination:/app/chat\ncontent-type:text/plain\n\n${'x'.repeat(80 * 1024)}\0`);
      const found = await refusal(client);
      client.terminate();
      const limit = found ? (JSON.parse(found.frame.body) as { params: { limitBytes?: number } }).params.limitBytes : undefined;
      const result = outcomeOf(found, 'STOMP_FRAME_TOO_LARGE', ` (limit ${String(limit)})`);
      return { ...result, held: result.held && limit === 64 * 1024 };
    },
  },
  {
    area,
    name: '10,000 SUBSCRIBE on one connection',
    expected: '500 taken, then ERROR STOMP_TOO_MANY_SUBSCRIPTIONS {limit: 500}, closed',
    async run(target) {
      const client = await connected(target, 'broker1');
      const topic = destinations.book('GSPOT-DA');
      for (let batch = 0; batch < 10; batch++) {
        let frames = '';
        for (let i = 0; i < 1000; i++) frames += `SUBSCRIBE\nid:s${batch * 1000 + i}\ndestination:${topic}\n\n\0`;
        if (client.ws.readyState === client.ws.OPEN) client.send(frames);
      }
      const found = await refusal(client, 10_000);
      const snapshots = client.frames.filter((frame) => frame.command === 'MESSAGE').length;
      client.terminate();
      const left = target.server.gateway.subscriberCount(topic);
      const result = outcomeOf(found, 'STOMP_TOO_MANY_SUBSCRIPTIONS', `; tried 10000, ${snapshots} snapshots sent, ${left} left after close`);
      return { ...result, held: result.held && snapshots === 500 };
    },
  },
  {
    area,
    name: 'fragment flood: a 60 KB CONNECT as 60,000 one-byte messages',
    expected: 'ERROR STOMP_TOO_MANY_FRAGMENTS {limit: 256} after 256 messages; other users served meanwhile',
    async run(target) {
      const client = await open(target);
      const bytes = Buffer.from(`CONNECT\naccept-version:1.2\npad:${'x'.repeat(60_000)}\n\n\0`);
      const flood = (async () => {
        for (let i = 0; i < bytes.length && client.ws.readyState === client.ws.OPEN; i++) {
          client.send(bytes.subarray(i, i + 1));
          if (i % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      const otherMs = await otherUserConnectMs(target);
      const found = await refusal(client, 10_000);
      await flood;
      client.terminate();
      const result = outcomeOf(found, 'STOMP_TOO_MANY_FRAGMENTS', `; another user's CONNECT meanwhile ${otherMs.toFixed(0)} ms`);
      return { ...result, held: result.held && otherMs < 1000 };
    },
  },
  {
    area,
    name: 'slow-loris on the socket: CONNECT dripped a byte every 200 ms',
    expected: 'ERROR STOMP_CONNECT_TIMEOUT {timeoutMs: 5000} after 5 s, closed',
    async run(target) {
      const client = await open(target);
      const started = performance.now();
      const bytes = Buffer.from('CONNECT\naccept-version:1.2\nheart-beat:0,0\nAuthorization:Bearer ');
      let i = 0;
      const drip = setInterval(() => {
        if (client.ws.readyState === client.ws.OPEN && i < bytes.length) client.send(bytes.subarray(i, ++i));
      }, 200);
      const found = await refusal(client, 8000);
      clearInterval(drip);
      const seconds = (performance.now() - started) / 1000;
      client.terminate();
      const result = outcomeOf(found, 'STOMP_CONNECT_TIMEOUT', ` after ${seconds.toFixed(1)} s`);
      return { ...result, held: result.held && seconds < 7 };
    },
  },
  {
    area,
    name: 'too many connections for one user (101 with one token)',
    expected: '100 connected, the 101st ERROR STOMP_TOO_MANY_CONNECTIONS {limit: 100}',
    async run(target) {
      const token = await target.login('terminal1');
      const clients: RawClient[] = [];
      let accepted = 0;
      let refused: ServerFrame | undefined;
      try {
        for (let i = 0; i < 101; i++) {
          const client = await open(target);
          clients.push(client);
          const reply = await client.connect(token);
          if (reply.command === 'CONNECTED') accepted += 1;
          else refused = reply;
        }
        const otherMs = await otherUserConnectMs(target);
        const code = refused?.headers['code'];
        return {
          held: accepted === 100 && code === 'STOMP_TOO_MANY_CONNECTIONS',
          outcome: `${accepted} connected, then ${code ? `ERROR ${code}` : 'no refusal'}; another user still connects (${otherMs.toFixed(0)} ms)`,
        };
      } finally {
        for (const client of clients) client.terminate();
      }
    },
  },
  {
    area,
    name: "SUBSCRIBE to a market the user may not see (client1 to a gas book)",
    expected: 'ERROR STOMP_DESTINATION_FORBIDDEN, closed; no book message',
    async run(target) {
      const client = await connected(target, 'client1'); // electricity markets only
      client.send(`SUBSCRIBE\nid:1\ndestination:${destinations.book('GSPOT-DA')}\n\n\0`);
      const found = await refusal(client);
      const leaked = client.frames.some((frame) => frame.command === 'MESSAGE');
      client.terminate();
      const result = outcomeOf(found, 'STOMP_DESTINATION_FORBIDDEN', leaked ? '; a MESSAGE leaked' : '');
      return { ...result, held: result.held && !leaked };
    },
  },
  {
    area,
    name: "another user's private queue, by any name",
    expected: 'every spelling ERROR STOMP_DESTINATION_UNKNOWN; /user/queue/orders carries only the own orders',
    async run(target) {
      const { user: victim } = await target.server.auth.authenticate(await target.login('broker1'));
      const spellings = [
        `/user/${victim.id}/queue/orders`,
        `/user/${victim.username}/queue/orders`,
        '/queue/orders',
        '/user/queue/orders/../../broker1/queue/orders',
        `/topic/user.${victim.id}.orders`,
      ];
      const codes: string[] = [];
      for (const destination of spellings) {
        const client = await connected(target, 'broker2');
        client.send(`SUBSCRIBE\nid:1\ndestination:${destination}\n\n\0`);
        const found = await refusal(client);
        codes.push(found?.frame.headers['code'] ?? 'none');
        client.terminate();
      }
      // The private queue is routed by the session's user: an update for broker1 never reaches broker2.
      const spy = await connected(target, 'broker2');
      const own = await connected(target, 'broker1');
      for (const client of [spy, own]) {
        client.send(`SUBSCRIBE\nid:q\ndestination:${destinations.myOrders}\nreceipt:ready\n\n\0`);
        await client.waitFor((frame) => frame.headers['receipt-id'] === 'ready', 5000);
      }
      const before = spy.frames.length;
      target.server.gateway.sendToUser(victim.id, destinations.myOrders, { probe: 'for broker1 only' });
      await own.waitFor((frame) => frame.body.includes('for broker1 only'), 3000);
      await sleep(100);
      const leaked = spy.frames.slice(before).some((frame) => frame.body.includes('for broker1 only'));
      spy.terminate();
      own.terminate();
      const allUnknown = codes.every((code) => code === 'STOMP_DESTINATION_UNKNOWN');
      return {
        held: allUnknown && !leaked,
        outcome: `${spellings.length} spellings: ${[...new Set(codes)].join(', ')}; broker1's update ${leaked ? 'LEAKED to' : 'not seen by'} broker2`,
      };
    },
  },
  {
    area,
    name: 'SUBSCRIBE after the token expired, and a quiet session past its expiry',
    expected: 'both ended with ERROR AUTH_TOKEN_EXPIRED, closed',
    async run(target) {
      const active = await connected(target, 'broker1');
      const quiet = await connected(target, 'broker2');
      target.clock.advance(TOKEN_MAX_AGE_SECONDS * 1000 + 1000);
      active.send(`SUBSCRIBE\nid:late\ndestination:${destinations.book('GSPOT-DA')}\nreceipt:late\n\n\0`);
      const refusedActive = await refusal(active);
      const refusedQuiet = await refusal(quiet, 3000);
      const receipted = active.frames.some((frame) => frame.command === 'RECEIPT');
      active.terminate();
      quiet.terminate();
      const codes = [refusedActive, refusedQuiet].map((found) => found?.frame.headers['code'] ?? 'none');
      const closed = [refusedActive, refusedQuiet].every((found) => found?.closed);
      return {
        held: codes.every((code) => code === 'AUTH_TOKEN_EXPIRED') && closed && !receipted,
        outcome: `SUBSCRIBE: ERROR ${codes[0]}; quiet session: ERROR ${codes[1]}${closed ? ', both closed' : ', NOT closed'}${receipted ? '; SUBSCRIBE receipted' : ''}`,
      };
    },
  },
];
