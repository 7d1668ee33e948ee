// Attacks on sign-in and tokens (areas "tokens" and "auth"): forged, re-signed, expired, not yet
// valid and revoked tokens; TOTP replay and brute force; password spraying and parallel guessing.
// Each runs against a fresh real server (default limits: 5 per account, 20 per address, 15 minutes).
import { generateKeyPair, exportJWK, SignJWT } from 'jose';
import { currentCode, TOTP_PERIOD_SECONDS } from '../../server/auth/totp.ts';
import { loadOrCreateSecret } from '../../server/store/secrets.repository.ts';
import { demoUser, demoUsers, type TestServer } from '../../tests/helpers/test-server.ts';
import type { Attack, AttackOutcome } from './attack.ts';

const issuer = 'energy-exchange';
type Answer = { status: number; body: { error?: { code?: string } } | null };
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');
const errorOf = (answer: Answer) => `${answer.status} ${answer.body?.error?.code ?? 'ok'}`;

/** Counts answers by "status code" (e.g. "429 AUTH_TOO_MANY_ATTEMPTS": 35). */
function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) counts[errorOf(answer)] = (counts[errorOf(answer)] ?? 0) + 1;
  return counts;
}
const show = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([answer, count]) => `${count}× ${answer}`)
    .join(', ');

async function userIdOf(target: TestServer, username: string): Promise<{ token: string; userId: string }> {
  const token = await target.login(username);
  const info = await target.get('/user/info', token);
  return { token, userId: info.body.userId as string };
}

/** A token is refused with `code`: held when /user/info answers 401 with it. */
async function refusedWith(target: TestServer, token: string, code: string): Promise<AttackOutcome> {
  const answer = await target.get('/user/info', token);
  return { held: answer.status === 401 && answer.body?.error?.code === code, outcome: errorOf(answer) };
}

/** Every attempt of a batch refused with one of the codes: held when none got through. */
function allRefused(answers: Answer[], ...codes: string[]): AttackOutcome {
  const held = answers.every((answer) => answer.status >= 400 && codes.includes(answer.body?.error?.code ?? ''));
  return { held, outcome: show(tally(answers)) };
}

function resign(token: string, change: (payload: Record<string, unknown>) => void): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
  change(claims);
  return `${header}.${b64(claims)}.${signature}`;
}

export const attacks: Attack[] = [
  {
    area: 'tokens',
    name: 'alg none (unsigned token for a real user)',
    expected: '401 AUTH_TOKEN_INVALID',
    async run(target) {
      const { userId } = await userIdOf(target, 'broker1');
      const now = Math.floor(target.clock.now() / 1000);
      const claims = { sub: userId, username: 'broker1', roles: ['administrator'], scopes: [], iss: issuer, iat: now, exp: now + 600 };
      const outcomes = await Promise.all(
        [{ alg: 'none' }, { alg: 'None' }, { alg: 'none', typ: 'JWT' }].map((header) => refusedWith(target, `${b64(header)}.${b64(claims)}.`, 'AUTH_TOKEN_INVALID')),
      );
      return { held: outcomes.every((outcome) => outcome.held), outcome: `3 forms: ${[...new Set(outcomes.map((outcome) => outcome.outcome))].join(', ')}` };
    },
  },
  {
    area: 'tokens',
    name: 'algorithm confusion (RS256 with an embedded attacker key, HS384/HS512 with another secret)',
    expected: '401 AUTH_TOKEN_INVALID',
    async run(target) {
      const { userId } = await userIdOf(target, 'broker1');
      const body = () => new SignJWT({ username: 'broker1', roles: ['administrator'], scopes: [] }).setSubject(userId).setIssuer(issuer).setIssuedAt(Math.floor(target.clock.now() / 1000)).setExpirationTime(Math.floor(target.clock.now() / 1000) + 600);
      // The server signs HS256 with a secret; no public key exists to misuse. An asymmetric token with its
      // own key in the header (a "jwk" injection) and other HMAC algorithms must all be refused.
      const { privateKey, publicKey } = await generateKeyPair('RS256');
      const rsa = await body().setProtectedHeader({ alg: 'RS256', jwk: await exportJWK(publicKey) }).sign(privateKey);
      const secret = new TextEncoder().encode('attacker-secret-attacker-secret-attacker-secret-!');
      const hs384 = await body().setProtectedHeader({ alg: 'HS384' }).sign(secret);
      const hs512 = await body().setProtectedHeader({ alg: 'HS512' }).sign(secret);
      const outcomes = await Promise.all([rsa, hs384, hs512].map((token) => refusedWith(target, token, 'AUTH_TOKEN_INVALID')));
      return { held: outcomes.every((outcome) => outcome.held), outcome: `3 tokens: ${[...new Set(outcomes.map((outcome) => outcome.outcome))].join(', ')}` };
    },
  },
  {
    area: 'tokens',
    name: 'expired token (real, 1801 s after issue)',
    expected: '401 AUTH_TOKEN_EXPIRED',
    async run(target) {
      const token = await target.login('broker1');
      const fresh = await target.get('/user/info', token);
      target.clock.advance(1_801_000);
      const refused = await refusedWith(target, token, 'AUTH_TOKEN_EXPIRED');
      return { held: fresh.status === 200 && refused.held, outcome: `before: ${fresh.status}; after: ${refused.outcome}` };
    },
  },
  {
    area: 'tokens',
    name: 'not yet valid (iat 10 min ahead; nbf ahead, signed with the server key)',
    expected: '401 AUTH_TOKEN_INVALID',
    async run(target) {
      // A real token seen by a server whose clock is 10 minutes behind: its iat is in the future.
      const { userId } = await userIdOf(target, 'broker2');
      const early = await target.login('broker1'); // not used before the clock moves: nothing cached
      target.clock.advance(-600_000);
      const ahead = await refusedWith(target, early, 'AUTH_TOKEN_INVALID');
      // Even the server's own key cannot make a token valid before its nbf.
      const key = await loadOrCreateSecret(target.server.store.db, 'jwt-signing-key');
      const now = Math.floor(target.clock.now() / 1000);
      const notBefore = await new SignJWT({ username: 'broker2', roles: ['broker'], scopes: [], cv: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuer(issuer)
        .setIssuedAt(now)
        .setNotBefore(now + 600)
        .setExpirationTime(now + 900)
        .sign(key);
      const nbf = await refusedWith(target, notBefore, 'AUTH_TOKEN_INVALID');
      return { held: ahead.held && nbf.held, outcome: `iat ahead: ${ahead.outcome}; nbf ahead: ${nbf.outcome}` };
    },
  },
  {
    area: 'tokens',
    name: 'forged signature (roles raised to administrator; random signature)',
    expected: '401 AUTH_TOKEN_INVALID',
    async run(target) {
      const token = await target.login('client1');
      const raised = resign(token, (claims) => (claims.roles = ['administrator']));
      const [header, payload] = token.split('.');
      const random = `${header}.${payload}.${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`;
      const outcomes = await Promise.all([raised, random].map((forged) => refusedWith(target, forged, 'AUTH_TOKEN_INVALID')));
      return { held: outcomes.every((outcome) => outcome.held), outcome: outcomes.map((outcome) => outcome.outcome).join('; ') };
    },
  },
  {
    area: 'tokens',
    name: "another user's sub (broker1's token pointed at admin)",
    expected: '401 AUTH_TOKEN_INVALID',
    async run(target) {
      const { userId: adminId } = await userIdOf(target, 'admin');
      const token = await target.login('broker1');
      const swapped = resign(token, (claims) => {
        claims.sub = adminId;
        claims.username = 'admin';
      });
      return refusedWith(target, swapped, 'AUTH_TOKEN_INVALID');
    },
  },
  {
    area: 'tokens',
    name: 'token issued before a password change (stolen, kept)',
    expected: '401 AUTH_TOKEN_REVOKED; the changing session gets a fresh token',
    async run(target) {
      const stolen = await target.login('broker2');
      const session = await target.login('broker2');
      const used = await target.get('/user/info', stolen); // verified and cached before the change
      const password = demoUser('broker2').password;
      const change = await target.post('/user/password', { currentPassword: password, newPassword: 'Rotated#2026a', confirmPassword: 'Rotated#2026a' }, session);
      const refused = await refusedWith(target, stolen, 'AUTH_TOKEN_REVOKED');
      const fresh = change.status === 200 ? await target.get('/user/info', change.body.token as string) : change;
      return {
        held: used.status === 200 && change.status === 200 && refused.held && fresh.status === 200,
        outcome: `stolen: ${refused.outcome}; fresh token: ${fresh.status}`,
      };
    },
  },
  {
    area: 'auth',
    name: 'TOTP replay (a used code, again)',
    expected: '401 AUTH_CODE_ALREADY_USED',
    async run(target) {
      target.clock.nextTotpStep();
      const body = { username: 'agency1', password: demoUser('agency1').password, code: target.codeFor('agency1') };
      const first = await target.post('/login', body);
      const again = await target.post('/login', body);
      return { held: first.status === 200 && again.body?.error?.code === 'AUTH_CODE_ALREADY_USED', outcome: `first ${errorOf(first)}; replay ${errorOf(again)}` };
    },
  },
  {
    area: 'auth',
    name: 'TOTP replay, 10 parallel uses of one code',
    expected: 'one token; the rest AUTH_CODE_ALREADY_USED or 429',
    async run(target) {
      target.clock.nextTotpStep();
      const body = { username: 'owner1', password: demoUser('owner1').password, code: target.codeFor('owner1') };
      const answers = await Promise.all(Array.from({ length: 10 }, () => target.post('/login', body)));
      const signedIn = answers.filter((answer) => answer.status === 200).length;
      const others = answers.filter((answer) => answer.status !== 200);
      const held = signedIn === 1 && others.every((answer) => ['AUTH_CODE_ALREADY_USED', 'AUTH_TOO_MANY_ATTEMPTS'].includes(answer.body?.error?.code));
      return { held, outcome: show(tally(answers)) };
    },
  },
  {
    area: 'auth',
    name: 'TOTP brute force (right password, 200 codes, 50 in parallel)',
    expected: '5 codes judged, then 429 AUTH_TOO_MANY_ATTEMPTS, the right code too',
    async run(target) {
      target.clock.nextTotpStep();
      const user = demoUser('client1');
      const right = target.codeFor('client1');
      // Never a code of this step or the ones either side (the server allows one step of drift).
      const valid = new Set([-1, 0, 1].map((step) => currentCode(user.totpSecret, target.clock.now() + step * TOTP_PERIOD_SECONDS * 1000)));
      const guesses = Array.from({ length: 200 }, (_, index) => String((Number(right) + 1 + index * 4999) % 1_000_000).padStart(6, '0')).filter((code) => !valid.has(code));
      const answers: Answer[] = [];
      for (let start = 0; start < guesses.length; start += 50) {
        answers.push(...(await Promise.all(guesses.slice(start, start + 50).map((code) => target.post('/login', { username: 'client1', password: user.password, code })))));
      }
      const rightAfter = await target.post('/login', { username: 'client1', password: user.password, code: right });
      const judged = answers.filter((answer) => answer.status !== 429).length;
      const held = judged <= 5 && answers.every((answer) => answer.status !== 200) && rightAfter.status === 429;
      return { held, outcome: `tried ${answers.length}, judged ${judged}, signed in 0; the right code then: ${errorOf(rightAfter)}` };
    },
  },
  {
    area: 'auth',
    name: 'password spraying: 3 common passwords × every account from one address',
    expected: '20 judged, then 429 AUTH_TOO_MANY_ATTEMPTS; none signed in',
    async run(target) {
      target.clock.nextTotpStep();
      const names = [...demoUsers.map((user) => user.username), 'root', 'operator', 'test'];
      const attempts = ['Parola#2026', 'Password#1', 'Welcome#2026'].flatMap((password) => names.map((username) => ({ username, password })));
      const answers: Answer[] = [];
      // One at a time, as a careful sprayer does (each with the account's right code: the strongest case).
      for (const { username, password } of attempts) {
        const code = demoUsers.some((user) => user.username === username) ? target.codeFor(username) : '123456';
        answers.push(await target.post('/login', { username, password, code }));
      }
      const judged = answers.filter((answer) => answer.status !== 429).length;
      const held = judged <= 20 && answers.every((answer) => answer.status !== 200) && answers.slice(20).every((answer) => answer.status === 429);
      return { held, outcome: `tried ${answers.length}: ${show(tally(answers))}` };
    },
  },
  {
    area: 'auth',
    name: 'parallel guessing of one account (40 at once, right code)',
    expected: '5 reach the hash; 35 × 429 AUTH_TOO_MANY_ATTEMPTS',
    async run(target) {
      target.clock.nextTotpStep();
      const hashedBefore = target.server.auth.hasher.completed;
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, guess) => target.post('/login', { username: 'broker1', password: `Guess#${guess}abc`, code: target.codeFor('broker1') })),
      );
      const hashed = target.server.auth.hasher.completed - hashedBefore;
      const refused = answers.filter((answer) => answer.body?.error?.code === 'AUTH_TOO_MANY_ATTEMPTS').length;
      return { held: hashed <= 5 && refused === 35 && allRefused(answers, 'AUTH_CREDENTIALS_INVALID', 'AUTH_TOO_MANY_ATTEMPTS').held, outcome: `tried 40, hashed ${hashed}, 429 ${refused}` };
    },
  },
  {
    area: 'auth',
    name: 'parallel guessing from one address (400 over every account, 100 at once)',
    expected: '20 reach the hash; 380 × 429 AUTH_TOO_MANY_ATTEMPTS',
    async run(target) {
      target.clock.nextTotpStep();
      const hashedBefore = target.server.auth.hasher.completed;
      // Waves of 100 parallel sign-ins: 400 sockets at once would meet the per-address connection cap
      // (256) first, which is a defence of its own (http.attacks.ts) but not the limiter under test.
      const answers: Awaited<ReturnType<typeof target.post>>[] = [];
      for (let wave = 0; wave < 4; wave++) {
        answers.push(
          ...(await Promise.all(
            Array.from({ length: 100 }, (_, index) => {
              const attempt = wave * 100 + index;
              const user = demoUsers[attempt % demoUsers.length]!;
              return target.post('/login', { username: user.username, password: `Spray#${attempt}abc`, code: target.codeFor(user.username) });
            }),
          )),
        );
      }
      const hashed = target.server.auth.hasher.completed - hashedBefore;
      const refused = answers.filter((answer) => answer.body?.error?.code === 'AUTH_TOO_MANY_ATTEMPTS').length;
      return { held: hashed <= 20 && refused === 380 && allRefused(answers, 'AUTH_CREDENTIALS_INVALID', 'AUTH_TOO_MANY_ATTEMPTS').held, outcome: `tried 400, hashed ${hashed}, 429 ${refused}` };
    },
  },
  {
    area: 'auth',
    name: 'wrong codes cost no hash (40 parallel, right password)',
    expected: '0 hashes; 5 × AUTH_CODE_INVALID, 35 × 429',
    async run(target) {
      target.clock.nextTotpStep();
      const hashedBefore = target.server.auth.hasher.completed;
      const body = { username: 'terminal1', password: demoUser('terminal1').password, code: wrongCode(target.codeFor('terminal1')) };
      const answers = await Promise.all(Array.from({ length: 40 }, () => target.post('/login', body)));
      const hashed = target.server.auth.hasher.completed - hashedBefore;
      const counts = tally(answers);
      return {
        held: hashed === 0 && counts['401 AUTH_CODE_INVALID'] === 5 && counts['429 AUTH_TOO_MANY_ATTEMPTS'] === 35,
        outcome: `hashed ${hashed}; ${show(counts)}`,
      };
    },
  },
];
