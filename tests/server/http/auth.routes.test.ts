import { connect } from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_MAX_AGE_DAYS, TOKEN_MAX_AGE_SECONDS } from '../../../protocol/index.ts';
import { connectCollector } from '../../helpers/stomp-test-client.ts';
import { demoUser, startTestServer, type TestServer } from '../../helpers/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ loginLimits: { windowMs: 60_000, maxPerAccount: 3, maxPerAddress: 50 } });
});
afterAll(async () => {
  await t.server.close();
});

describe('POST /login and GET /user/info', () => {
  it('signs a demo user in with its current code and returns the user object', async () => {
    const token = await t.login('broker1');
    const info = await t.get('/user/info', token);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      username: 'broker1',
      roles: ['broker'],
      broker: { id: 'BR-NORD-1' },
      agency: { id: 'AG-NORD', name: 'Nord Energy Brokers SA' },
      terminal: { id: 'T-NORD-01' },
      clientCodes: ['RO-HIDRO', 'RO-GAZEST'],
      preferences: { language: 'ro', theme: 'light' },
    });
    expect(Date.parse(info.body.passwordExpiresAt)).toBeGreaterThan(t.clock.now());
  });

  it('accepts a code once', async () => {
    t.clock.nextTotpStep();
    const body = { username: 'broker2', password: demoUser('broker2').password, code: t.codeFor('broker2') };
    expect((await t.post('/login', body)).status).toBe(200);
    const again = await t.post('/login', body);
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('AUTH_CODE_ALREADY_USED');
  });

  it('refuses a missing code, a wrong code and a wrong password with their codes', async () => {
    t.clock.nextTotpStep();
    const missing = await t.post('/login', { username: 'agency1', password: demoUser('agency1').password });
    expect(missing).toMatchObject({ status: 400, body: { error: { code: 'AUTH_CODE_MISSING' } } });
    const wrongCode = await t.post('/login', { username: 'agency1', password: demoUser('agency1').password, code: '000000' === t.codeFor('agency1') ? '111111' : '000000' });
    expect(wrongCode).toMatchObject({ status: 401, body: { error: { code: 'AUTH_CODE_INVALID' } } });
    const wrongPassword = await t.post('/login', { username: 'agency1', password: 'Nope#1234', code: t.codeFor('agency1') });
    expect(wrongPassword).toMatchObject({ status: 401, body: { error: { code: 'AUTH_CREDENTIALS_INVALID' } } });
    // No password oracle without the second factor: with a wrong code, a right and a wrong password, and
    // an unknown user, all get the same answer.
    // (owner1: agency1 has used its three failures of this server's limit.)
    const wrong = '000000' === t.codeFor('owner1') ? '111111' : '000000';
    const rightPasswordWrongCode = await t.post('/login', { username: 'owner1', password: demoUser('owner1').password, code: wrong });
    const wrongPasswordWrongCode = await t.post('/login', { username: 'owner1', password: 'Nope#1234', code: wrong });
    const unknownUser = await t.post('/login', { username: 'nobody', password: 'Nope#1234', code: wrong });
    for (const answer of [rightPasswordWrongCode, wrongPasswordWrongCode, unknownUser]) {
      expect(answer).toMatchObject({ status: 401, body: { error: { code: 'AUTH_CODE_INVALID', params: {} } } });
    }
  });

  it('limits failed sign-ins per account with a retry delay', async () => {
    t.clock.nextTotpStep();
    for (let attempt = 0; attempt < 3; attempt++) {
      const result = await t.post('/login', { username: 'terminal1', password: 'Wrong#12345', code: t.codeFor('terminal1') });
      expect(result.body.error.code).toBe('AUTH_CREDENTIALS_INVALID');
    }
    const blocked = await t.post('/login', { username: 'terminal1', password: demoUser('terminal1').password, code: t.codeFor('terminal1') });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('AUTH_TOO_MANY_ATTEMPTS');
    expect(blocked.body.error.params.retryAfterSeconds).toBeGreaterThan(0);
    t.clock.advance(61_000);
    expect(await t.login('terminal1')).toMatch(/^ey/);
  });

  it('refuses an expired password at login and lets the reset call set a new one', async () => {
    t.clock.nextTotpStep();
    const expired = demoUser('expired1');
    const refused = await t.post('/login', { username: 'expired1', password: expired.password, code: t.codeFor('expired1') });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'AUTH_PASSWORD_EXPIRED' } } });

    t.clock.nextTotpStep();
    const base = { username: 'expired1', currentPassword: expired.password, code: t.codeFor('expired1') };
    const mismatch = await t.post('/password/reset-expired', { ...base, newPassword: 'Fresh#2026a', confirmPassword: 'Fresh#2026b' });
    expect(mismatch.body.error.code).toBe('AUTH_PASSWORDS_NOT_MATCHING');
    const weak = await t.post('/password/reset-expired', { ...base, newPassword: 'weakpass', confirmPassword: 'weakpass' });
    expect(weak.body.error).toEqual({ code: 'AUTH_PASSWORD_INVALID', params: { minLength: 8 } });
    const reused = await t.post('/password/reset-expired', { ...base, newPassword: expired.password, confirmPassword: expired.password });
    expect(reused.body.error.code).toBe('AUTH_PASSWORD_USED_BEFORE');

    t.clock.nextTotpStep();
    const changed: string[] = [];
    const stop = t.server.auth.onCredentialsChanged((userId) => changed.push(userId));
    const reset = await t.post('/password/reset-expired', { ...base, code: t.codeFor('expired1'), newPassword: 'Fresh#2026a', confirmPassword: 'Fresh#2026a' });
    stop();
    expect(reset.status).toBe(200);
    const info = await t.get('/user/info', reset.body.token);
    expect(info.body.username).toBe('expired1');
    expect(changed).toEqual([info.body.userId]);
    expect(await t.login('expired1', 'Fresh#2026a')).toMatch(/^ey/);
  });
});

describe('tokens', () => {
  it('answers 401 with a code for missing, forged and expired tokens', async () => {
    expect((await t.get('/user/info')).body.error.code).toBe('AUTH_TOKEN_MISSING');
    const forged = await new SignJWT({ username: 'broker1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('U-002')
      .setIssuer('energy-exchange')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('not-the-server-key-not-the-server-key'));
    expect(await t.get('/user/info', forged)).toMatchObject({ status: 401, body: { error: { code: 'AUTH_TOKEN_INVALID' } } });
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"U-002","username":"broker1"}').toString('base64url')}.`;
    expect((await t.get('/user/info', unsigned)).body.error.code).toBe('AUTH_TOKEN_INVALID');

    const token = await t.login('broker1');
    t.clock.advance(TOKEN_MAX_AGE_SECONDS * 1000 + 1000);
    expect(await t.get('/user/info', token)).toMatchObject({ status: 401, body: { error: { code: 'AUTH_TOKEN_EXPIRED' } } });
  });
});

describe('password change', () => {
  it('counts a wrong current password as a failed sign-in: the guesses stop at the limit, before any hash', async () => {
    const token = await t.login('sim-carp');
    const user = demoUser('sim-carp');
    const change = (currentPassword: string) => t.post('/user/password', { currentPassword, newPassword: 'Guess#2026a', confirmPassword: 'Guess#2026a' }, token);
    for (let guess = 0; guess < 3; guess++) expect((await change(`Guess#${guess}xyz`)).body.error.code).toBe('AUTH_CREDENTIALS_INVALID');
    // This server allows 3 failures per account: the right password now waits too, and so does sign-in.
    const blocked = await change(user.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toMatchObject({ code: 'AUTH_TOO_MANY_ATTEMPTS', params: { retryAfterSeconds: expect.any(Number) } });
    await expect(t.login('sim-carp')).rejects.toThrow(/AUTH_TOO_MANY_ATTEMPTS/);
  });

  it('enforces policy, confirmation and history', async () => {
    const user = demoUser('client1');
    const token = await t.login('client1');
    const wrongCurrent = await t.post('/user/password', { currentPassword: 'Bad#12345', newPassword: 'Next#2026a', confirmPassword: 'Next#2026a' }, token);
    expect(wrongCurrent.body.error.code).toBe('AUTH_CREDENTIALS_INVALID');
    const same = await t.post('/user/password', { currentPassword: user.password, newPassword: user.password, confirmPassword: user.password }, token);
    expect(same.body.error.code).toBe('AUTH_PASSWORD_USED_BEFORE');
    const ok = await t.post('/user/password', { currentPassword: user.password, newPassword: 'Next#2026a', confirmPassword: 'Next#2026a' }, token);
    expect(ok.status).toBe(200);
    const back = await t.post('/user/password', { currentPassword: 'Next#2026a', newPassword: user.password, confirmPassword: user.password }, ok.body.token);
    expect(back.body.error.code).toBe('AUTH_PASSWORD_USED_BEFORE');
    await expect(t.login('client1')).rejects.toThrow(/AUTH_CREDENTIALS_INVALID/);
    expect(await t.login('client1', 'Next#2026a')).toMatch(/^ey/);
  });

  it('revokes every token issued before a change or a reset; the changing session gets a fresh one', async () => {
    const changed: string[] = [];
    const stop = t.server.auth.onCredentialsChanged((userId) => changed.push(userId));
    const user = demoUser('agency1');
    t.clock.advance(61_000); // agency1's failures of an earlier test leave the window
    const session = await t.login('agency1');
    const otherWindow = await t.login('agency1');
    // Both used once: cached as verified, which must not outlive the change.
    for (const token of [session, otherWindow]) expect((await t.get('/user/info', token)).status).toBe(200);
    // The other window's live socket: it must end with the change, not stream on.
    const socket = await connectCollector(t.server.port, otherWindow);
    const ended = new Promise<string | undefined>((resolve) => (socket.client.onStompError = (frame) => resolve(frame.headers.code)));

    const answer = await t.post('/user/password', { currentPassword: user.password, newPassword: 'Moved#2026a', confirmPassword: 'Moved#2026a' }, session);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ token: expect.stringMatching(/^ey/), expiresAt: expect.any(String) });
    expect(Date.parse(answer.body.expiresAt)).toBeGreaterThan(t.clock.now());
    for (const token of [session, otherWindow]) {
      expect(await t.get('/user/info', token)).toMatchObject({ status: 401, body: { error: { code: 'AUTH_TOKEN_REVOKED', params: {} } } });
    }
    expect((await t.get('/user/info', answer.body.token)).body.username).toBe('agency1');
    expect(await ended).toBe('AUTH_TOKEN_REVOKED');
    await socket.close();
    const infoId = (await t.get('/user/info', answer.body.token)).body.userId;
    expect(changed).toEqual([infoId]);
    // A refused change (wrong current password) revokes nothing and tells no one.
    const wrong = await t.post('/user/password', { currentPassword: 'Wrong#2026a', newPassword: 'Other#2026a', confirmPassword: 'Other#2026a' }, answer.body.token);
    expect(wrong.body.error.code).toBe('AUTH_CREDENTIALS_INVALID');
    expect((await t.get('/user/info', answer.body.token)).status).toBe(200);
    expect(changed).toHaveLength(1);
    // A new sign-in works with the new password, at the new version.
    expect((await t.get('/user/info', await t.login('agency1', 'Moved#2026a'))).status).toBe(200);
    stop();
  });

  it('expires passwords after the policy age', async () => {
    const token = await t.login('owner1');
    const info = await t.get('/user/info', token);
    expect(Date.parse(info.body.passwordExpiresAt) - t.clock.now()).toBeLessThanOrEqual(PASSWORD_MAX_AGE_DAYS * 86_400_000);
  });
});

describe('login history and preferences', () => {
  it('records each sign-in with address and UTC time', async () => {
    const token = await t.login('admin');
    await t.login('admin');
    const history = await t.get('/user/login-history', token);
    expect(history.body.items.length).toBeGreaterThanOrEqual(2);
    expect(history.body.items[0].ip).toBe('127.0.0.1');
    expect(history.body.items[0].timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('keeps preferences and validates them', async () => {
    const token = await t.login('broker1');
    const saved = await fetch(`${t.api}/user/preferences`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ language: 'en', theme: 'dark', notifications: false, soundNotifications: true }),
    });
    expect(saved.status).toBe(200);
    expect((await t.get('/user/info', token)).body.preferences).toEqual({ language: 'en', theme: 'dark', notifications: false, soundNotifications: true });
    const bad = await fetch(`${t.api}/user/preferences`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ language: 'fr', theme: 'dark', notifications: false, soundNotifications: true }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: unknown }).error).toMatchObject({ code: 'REQUEST_INVALID', params: { field: 'language' } });
  });
});

describe('bad input', () => {
  it("answers a request Node's parser refuses (bad Content-Length) with the catalogue's body, then closes", async () => {
    const { hostname, port } = new URL(t.server.url);
    for (const contentLength of ['abc', '-1', '10, 12']) {
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () =>
          socket.write(`POST /session/api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n{}`),
        );
        let data = '';
        socket.on('data', (chunk) => (data += chunk));
        socket.on('close', () => resolve(data));
        socket.on('error', reject);
      });
      const [head, body] = raw.split('\r\n\r\n');
      expect(head!.split('\r\n')[0], contentLength).toBe('HTTP/1.1 400 Bad Request');
      expect(JSON.parse(body!), contentLength).toMatchObject({ error: { code: 'REQUEST_INVALID', params: { field: 'request' } } });
    }
  });

  it('answers malformed JSON, wrong types, unknown fields and oversized bodies with codes, never 500', async () => {
    const malformed = await t.post('/login', '{"username": ');
    expect(malformed).toMatchObject({ status: 400, body: { error: { code: 'REQUEST_MALFORMED_JSON' } } });
    const wrongType = await t.post('/login', { username: 42, password: 'x', code: '1' });
    expect(wrongType).toMatchObject({ status: 400, body: { error: { code: 'REQUEST_INVALID', params: { field: 'username' } } } });
    const unknownField = await t.post('/login', { username: 'a', password: 'b', code: '123456', role: 'admin' });
    expect(unknownField).toMatchObject({ status: 400, body: { error: { code: 'REQUEST_INVALID', params: { field: 'role', issue: 'unrecognized_keys' } } } });
    const huge = await t.post('/login', { username: 'a', password: 'x'.repeat(100_000), code: '1' });
    expect(huge).toMatchObject({ status: 413, body: { error: { code: 'REQUEST_BODY_TOO_LARGE' } } });
    const notJson = await fetch(`${t.api}/login`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<a/>' });
    expect(notJson.status).toBe(415);
    expect(((await notJson.json()) as { error: { code: string } }).error.code).toBe('REQUEST_UNSUPPORTED_MEDIA_TYPE');
    // An empty JSON body counts as no body: /login then names what is missing, not the JSON.
    const noBody = await fetch(`${t.api}/login`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(noBody.status).toBe(400);
    expect(((await noBody.json()) as { error: { code: string } }).error.code).toBe('REQUEST_INVALID');
    const unknownRoute = await t.get('/nope');
    expect(unknownRoute).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
  });
});

describe('the app under /session/', () => {
  it('answers /session/ with the app (not a redirect loop) and sends /session there', async () => {
    const base = `http://127.0.0.1:${t.server.port}`;
    const root = await fetch(`${base}/session/`, { redirect: 'manual' });
    expect(root.status).toBe(503); // this test server has no built client; with one it is index.html
    expect(await root.text()).toMatch(/npm run build/);
    const bare = await fetch(`${base}/session`, { redirect: 'manual' });
    expect(bare.status).toBe(302);
    expect(bare.headers.get('location')).toBe('/session/');
    const deep = await fetch(`${base}/session/en/trading/workspace`, { redirect: 'manual' });
    expect(deep.status).toBe(503);
  });
});

describe('reference data', () => {
  it('lists the markets of SPEC §1 and asset specifications the user may see', async () => {
    const token = await t.login('broker2');
    const markets = await t.get('/markets', token);
    expect(markets.body.markets.map((market: { id: string }) => market.id).sort()).toEqual(
      ['EL-CCP', 'EL-FWD', 'EL-PMC', 'EL-SPOT', 'GAS-BG', 'GAS-CCP', 'GAS-FWD', 'GAS-SPOT'],
    );
    const assets = await t.get('/assets', token);
    expect(assets.body.assets.length).toBeGreaterThanOrEqual(10);
    const spec = await t.get('/assets/GSPOT-DA', token);
    expect(spec.body).toMatchObject({ id: 'GSPOT-DA', priceStep: 1, quantityStep: 10, documents: expect.any(Array) });

    const document = await fetch(`http://127.0.0.1:${t.server.port}${spec.body.documents[0].url}`);
    expect(document.status).toBe(200);
    expect(document.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await document.arrayBuffer()).toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    expect(pdf).toContain('Gas day-ahead \\(GSPOT-DA\\)');
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    expect((await t.get('/assets/GSPOT-DA/documents/nope.pdf')).status).toBe(404);

    const clientToken = await t.login('client1', 'Next#2026a');
    const gasAsset = await t.get('/assets/GSPOT-DA', clientToken);
    expect(gasAsset.body.error).toEqual({ code: 'ORDER_ASSET_ID_INVALID', params: { assetId: 'GSPOT-DA' } });
  });
});
