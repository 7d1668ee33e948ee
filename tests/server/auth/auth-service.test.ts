/**
 * Sign-in under parallel attack, over real HTTP: the limits count an attempt before its hash, so
 * parallel guesses cannot race past them, and a sign-in burst hashes on threads of its own, so order
 * acknowledgements (which wait for the journal's fdatasync on libuv's pool) are not delayed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { demoUser, demoUsers, startTestServer, type TestServer } from '../../helpers/test-server.ts';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.server.close();
  t = undefined;
});

const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');
const codes = (answers: Array<{ status: number; body: { error?: { code: string } } }>) => {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    const code = answer.body.error?.code ?? String(answer.status);
    counts[code] = (counts[code] ?? 0) + 1;
  }
  return counts;
};

describe('sign-in limits under parallel attempts (5 per account, 20 per address)', () => {
  it('40 parallel wrong passwords on one account: 5 reach the hash, 35 are refused with 429 before it', async () => {
    t = await startTestServer();
    const server = t;
    server.clock.nextTotpStep();
    const hashedBefore = server.server.auth.hasher.completed;
    // With the right code (the attacker has it): only a right code leads to the password's hash.
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, guess) => server.post('/login', { username: 'broker1', password: `Guess#${guess}abc`, code: server.codeFor('broker1') })),
    );
    const hashed = server.server.auth.hasher.completed - hashedBefore;
    console.log(`sign-in race, one account: tried 40, reached the hash ${hashed}, refused 429 ${codes(answers).AUTH_TOO_MANY_ATTEMPTS ?? 0}`);
    expect(codes(answers)).toEqual({ AUTH_CREDENTIALS_INVALID: 5, AUTH_TOO_MANY_ATTEMPTS: 35 });
    expect(hashed).toBeLessThanOrEqual(5);
    for (const answer of answers.filter((candidate) => candidate.status === 429)) {
      expect(answer.body.error).toEqual({ code: 'AUTH_TOO_MANY_ATTEMPTS', params: { retryAfterSeconds: 900 } });
    }
    // The right password now waits too: the account is blocked, not just the guesses.
    const right = await server.post('/login', { username: 'broker1', password: demoUser('broker1').password, code: server.codeFor('broker1') });
    expect(right.status).toBe(429);
  });

  it('40 parallel wrong codes: refused without any hash, and counted the same way', async () => {
    t = await startTestServer();
    const server = t;
    server.clock.nextTotpStep();
    const hashedBefore = server.server.auth.hasher.completed;
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => server.post('/login', { username: 'broker2', password: demoUser('broker2').password, code: wrongCode(server.codeFor('broker2')) })),
    );
    expect(codes(answers)).toEqual({ AUTH_CODE_INVALID: 5, AUTH_TOO_MANY_ATTEMPTS: 35 });
    expect(server.server.auth.hasher.completed - hashedBefore).toBe(0);
  });

  it('400 parallel attempts from one address over every account: 20 reach the hash, 380 get 429', async () => {
    // 400 sockets at once: without the per-address connection cap (256), which would refuse some
    // before the limiter under test sees them.
    t = await startTestServer({ maxConnectionsPerAddress: 0 });
    const server = t;
    server.clock.nextTotpStep();
    const hashedBefore = server.server.auth.hasher.completed;
    const answers = await Promise.all(
      Array.from({ length: 400 }, (_, attempt) => {
        const user = demoUsers[attempt % demoUsers.length]!;
        return server.post('/login', { username: user.username, password: `Spray#${attempt}abc`, code: server.codeFor(user.username) });
      }),
    );
    const hashed = server.server.auth.hasher.completed - hashedBefore;
    const counts = codes(answers);
    console.log(`sign-in race, one address: tried 400, reached the hash ${hashed}, refused 429 ${counts.AUTH_TOO_MANY_ATTEMPTS ?? 0}`);
    expect(counts.AUTH_TOO_MANY_ATTEMPTS).toBe(380);
    expect(counts.AUTH_CREDENTIALS_INVALID).toBe(20);
    expect(hashed).toBeLessThanOrEqual(20);
  });

  it('a success gives its slot back: 21 sign-ins from one office address in the window all pass', async () => {
    t = await startTestServer();
    for (let round = 0; round < 21; round++) await t.login(['broker1', 'broker2', 'agency1', 'client1', 'admin'][round % 5]!);
    t.clock.nextTotpStep();
    const wrong = await t.post('/login', { username: 'owner1', password: 'Wrong#12345', code: t.codeFor('owner1') });
    expect(wrong.body.error.code).toBe('AUTH_CREDENTIALS_INVALID');
  });
});

describe('a sign-in burst and order acknowledgements', () => {
  it('while sign-ins hash continuously, orders are acknowledged about as fast as without them', async () => {
    t = await startTestServer({ tickIntervalMs: 0, loginLimits: { windowMs: 60_000, maxPerAccount: 100_000, maxPerAddress: 100_000 } });
    const server = t;
    const broker = await server.login('broker1');
    server.clock.nextTotpStep();
    let key = 0;
    const orderLatencies = async (count: number): Promise<number[]> => {
      const latencies: number[] = [];
      for (let sent = 0; sent < count; sent++) {
        const started = performance.now();
        const answer = await server.post(
          '/orders',
          { idempotencyKey: `sign-in-burst-${String(++key).padStart(6, "0")}`, assetId: 'ESPOT-DA-H01', way: 'bid', price: 30_000 + key, qty: 100, validityType: 'GTC', clientCode: 'RO-HIDRO' },
          broker,
        );
        latencies.push(performance.now() - started);
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return latencies.sort((a, b) => a - b);
    };
    const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)]!;

    await orderLatencies(5); // warm-up: the first orders of a server pay for compilation
    const baseline = await orderLatencies(30);

    // 30 sign-ins always in flight (right code, wrong password: each one is a full scrypt).
    let burstOn = true;
    let signIns = 0;
    const hashedBefore = server.server.auth.hasher.completed;
    const signInLoop = async () => {
      while (burstOn) {
        await server.post('/login', { username: 'broker2', password: `Burst#${++signIns}abc`, code: server.codeFor('broker2') });
      }
    };
    const burst = Array.from({ length: 30 }, signInLoop);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the hash queue fills first
    const during = await orderLatencies(30);
    burstOn = false;
    await Promise.all(burst);
    const hashed = server.server.auth.hasher.completed - hashedBefore;

    console.log(
      `orders during a sign-in burst: sign-ins ${signIns}, hashed ${hashed}; ack p50 ${median(baseline).toFixed(1)} ms before, ${median(during).toFixed(1)} ms during (max ${baseline.at(-1)!.toFixed(1)} / ${during.at(-1)!.toFixed(1)} ms)`,
    );
    expect(hashed).toBeGreaterThanOrEqual(30);
    // Generous: the two hashing threads share this machine's cores with the engine; what must not
    // happen is the hundreds of ms an ack waited behind scrypt on libuv's pool.
    expect(median(during)).toBeLessThan(Math.max(5 * median(baseline), median(baseline) + 100));
  });
});
