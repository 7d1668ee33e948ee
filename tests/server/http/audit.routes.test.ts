import { Client } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { auditPageSchema, type AuditEntry } from '../../../protocol/audit.ts';
import { destinations } from '../../../protocol/destinations.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { demoUser, startTestServer, type TestServer } from '../../helpers/test-server.ts';

/** RFC 4180 records back from text (quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let fieldText = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        fieldText += '"';
        i++;
      } else if (c === '"') quoted = false;
      else fieldText += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(fieldText);
      fieldText = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(fieldText);
      records.push(record);
      record = [];
      fieldText = '';
      i++;
    } else fieldText += c;
  }
  return records;
}

/** The ERROR code a SUBSCRIBE gets (or RECEIPT). */
async function subscribeOnce(port: number, token: string, destination: string): Promise<string> {
  const client = new Client({
    webSocketFactory: () => new WebSocket(`ws://127.0.0.1:${port}/session/ws`, ['v12.stomp']),
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
  });
  try {
    return await new Promise<string>((resolve) => {
      client.onConnect = () => {
        client.watchForReceipt('r1', () => resolve('RECEIPT'));
        client.subscribe(destination, () => {}, { receipt: 'r1' });
      };
      client.onStompError = (frame) => resolve(frame.headers.code ?? 'ERROR');
      client.activate();
    });
  } finally {
    await client.deactivate();
  }
}

describe.each(testDatabases)('audit routes on $name', (database) => {
  let t: TestServer;
  let admin: string;
  let broker1: string;
  let drop: () => Promise<void> = async () => {};
  const wrongCode = (username: string) => (t.codeFor(username) === '000000' ? '111111' : '000000');

  const page = async (query: string): Promise<AuditEntry[]> => {
    const response = await t.get(`/admin/audit${query}`, admin);
    expect(response.status).toBe(200);
    return auditPageSchema.parse(response.body).items;
  };

  beforeAll(async () => {
    const created = await database.create();
    drop = created.drop;
    // Two failures per account: the third attempt is a lockout.
    t = await startTestServer({ tickIntervalMs: 0, dataDir: created.dataDir, databaseUrl: created.databaseUrl, loginLimits: { windowMs: 15 * 60_000, maxPerAccount: 2, maxPerAddress: 100 } });
    admin = await t.login('admin');
    broker1 = await t.login('broker1');
  });
  afterAll(async () => {
    await t?.server.close();
    await drop();
  });

  it('keeps a failed sign-in with its code, the known user as actor, and an unknown login with none', async () => {
    expect((await t.post('/login', { username: 'agency1', password: demoUser('agency1').password, code: wrongCode('agency1') })).body.error.code).toBe('AUTH_CODE_INVALID');
    expect((await t.post('/login', { username: 'nobody', password: 'Nope#1234', code: '123456' })).body.error.code).toBe('AUTH_CODE_INVALID');
    await t.server.audit.idle();
    const agency1 = await t.server.store.users.findByUsername('agency1');
    const entries = await page('?action=signIn.failed');
    expect(entries.find((entry) => entry.subject === 'login agency1')).toMatchObject({
      category: 'security', outcome: 'refused', code: 'AUTH_CODE_INVALID', actorUserId: agency1!.id, remoteAddress: '127.0.0.1', details: { count: 1 },
    });
    expect(entries.find((entry) => entry.subject === 'login nobody')).toMatchObject({ actorUserId: null, actorRole: null, code: 'AUTH_CODE_INVALID' });
  });

  it('keeps a lockout, and coalesces the repeats of a minute into one counted entry', async () => {
    const attempt = () => t.post('/login', { username: 'owner1', password: 'Wrong#12345', code: wrongCode('owner1') });
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await attempt()).body.error.code);
    expect(answers).toEqual(['AUTH_CODE_INVALID', 'AUTH_CODE_INVALID', 'AUTH_TOO_MANY_ATTEMPTS', 'AUTH_TOO_MANY_ATTEMPTS', 'AUTH_TOO_MANY_ATTEMPTS', 'AUTH_TOO_MANY_ATTEMPTS']);
    await t.server.audit.flush();
    const lockouts = await page('?action=signIn.lockedOut&q=owner1');
    // The first at once, the other three as one entry when the minute closed.
    expect(lockouts.map((entry) => entry.details.count)).toEqual([3, 1]);
    expect(lockouts[1]).toMatchObject({ subject: 'login owner1', code: 'AUTH_TOO_MANY_ATTEMPTS', details: { retryAfterSeconds: expect.any(Number) } });
    expect(lockouts[0]).toMatchObject({ details: { coalesced: true, subjects: 'login owner1' } });
    expect((await page('?action=signIn.failed&q=owner1')).map((entry) => entry.details.count)).toEqual([1, 1]);
  });

  it('keeps a forbidden route and a forbidden STOMP subscription with the user', async () => {
    const refused = await t.get('/admin/audit', broker1);
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN', params: { scope: 'admin' } } } });
    expect(await subscribeOnce(t.server.port, broker1, destinations.workflowApprovals)).toBe('STOMP_DESTINATION_FORBIDDEN');
    await t.server.audit.idle();
    const user = await t.server.store.users.findByUsername('broker1');
    const forbidden = await page('?action=access.forbidden');
    expect(forbidden.find((entry) => entry.subject === 'GET /session/api/admin/audit')).toMatchObject({ actorUserId: user!.id, actorRole: 'broker', code: 'FORBIDDEN', remoteAddress: '127.0.0.1', details: { scope: 'admin' } });
    expect(forbidden.find((entry) => entry.subject === destinations.workflowApprovals)).toMatchObject({ actorUserId: user!.id, code: 'STOMP_DESTINATION_FORBIDDEN', remoteAddress: '127.0.0.1' });
  });

  it('keeps a password change and a wrong current password', async () => {
    const user = demoUser('client1');
    const token = await t.login('client1');
    expect((await t.post('/user/password', { currentPassword: 'Bad#12345', newPassword: 'Next#2026a', confirmPassword: 'Next#2026a' }, token)).status).toBe(401);
    expect((await t.post('/user/password', { currentPassword: user.password, newPassword: 'Next#2026a', confirmPassword: 'Next#2026a' }, token)).status).toBe(200);
    await t.server.audit.idle();
    const client1 = await t.server.store.users.findByUsername('client1');
    expect(await page('?q=client1&category=security')).toMatchObject([
      { action: 'password.changed', outcome: 'ok', actorUserId: client1!.id, subject: 'login client1' },
      { action: 'signIn.failed', outcome: 'refused', code: 'AUTH_CREDENTIALS_INVALID', actorUserId: client1!.id },
    ]);
  });

  it('keeps one entry for an administrator clearing action, refused ones with their code', async () => {
    const body = { clientCode: 'RO-GAZEST', warrantyNumber: 'AUDIT-1', warrantyName: 'Garanție de audit', kind: 'bank_guarantee', depositDate: '2026-11-20', validityDate: '2027-11-20', value: 1_000, currency: 'RON' };
    const created = await t.post('/admin/clearing/warranties', body, admin);
    expect(created.status).toBe(201);
    expect((await t.post('/admin/clearing/obligations/OB-NONE/settle', { reference: 'OP 1' }, admin)).status).toBe(404);
    const operator = await page('?category=operator');
    expect(operator.filter((entry) => entry.action === 'warranty.record')).toEqual([
      expect.objectContaining({ outcome: 'ok', actorRole: 'administrator', subject: 'client RO-GAZEST', details: { clientCode: 'RO-GAZEST', warrantyNumber: 'AUDIT-1', value: 1_000, warrantyId: created.body.clientWarrantyId } }),
    ]);
    expect(operator.find((entry) => entry.action === 'obligation.settle')).toMatchObject({ outcome: 'refused', code: 'CLEARING_OBLIGATION_NOT_FOUND', subject: 'obligation OB-NONE', details: { obligationId: 'OB-NONE', reference: 'OP 1' } });
  });

  it('filters by outcome, actor and dates, and pages', async () => {
    const adminUser = await t.server.store.users.findByUsername('admin');
    expect((await page('?outcome=ok')).every((entry) => entry.outcome === 'ok')).toBe(true);
    expect((await page(`?actorUserId=${adminUser!.id}`)).map((entry) => entry.action).sort()).toEqual(['obligation.settle', 'warranty.record']);
    expect(await page('?from=2099-01-01')).toEqual([]);
    const all = (await t.get('/admin/audit?limit=500', admin)).body;
    const second = (await t.get('/admin/audit?offset=1&limit=1', admin)).body;
    expect(second).toEqual({ items: [all.items[1]], total: all.total });
    expect((await t.get('/admin/audit?category=nothing', admin)).body.error.code).toBe('REQUEST_INVALID');
  });

  it('exports every matching entry as CSV: BOM, RFC 4180 quoting, the formula guard, Bucharest times', async () => {
    // A login name that would run as a formula in a spreadsheet, with a comma and a quote.
    await t.post('/login', { username: '=cmd|"x",1', password: 'Nope#1234', code: '123456' });
    // Same address, code and (no) actor as 'login nobody' above: a repeat of the minute, written when it closes.
    await t.server.audit.flush();
    const response = await fetch(`${t.api}/admin/audit.csv?category=security`, { headers: { authorization: `Bearer ${admin}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text).toContain('"login =cmd|""x"",1"');
    const records = parseCsv(text.slice(1));
    expect(records[0]).toEqual(['id', 'time (Europe/Bucharest)', 'category', 'action', 'actor', 'role', 'subject', 'outcome', 'code', 'remote address', 'details']);
    const json = auditPageSchema.parse((await t.get('/admin/audit?category=security&limit=500', admin)).body);
    expect(records.length - 1).toBe(json.total);
    expect(records.slice(1).map((record) => Number(record[0]))).toEqual(json.items.map((entry) => entry.id));
    expect(records.every((record) => record.length === 11)).toBe(true);
    expect(records[1]![1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+0[23]:00$/);
    expect(JSON.parse(records[1]![10]!)).toEqual(json.items[0]!.details);
    // The formula guard: a cell a spreadsheet would run (= + - @) is prefixed with '; a plain number is not.
    for (const subject of ['=HYPERLINK("http://evil","x")', '+1+1', '-2', '@SUM(A1)']) {
      await t.server.audit.record({ category: 'operator', action: 'market.phase', actorUserId: null, actorRole: null, subject, outcome: 'ok', code: null, remoteAddress: null, details: {} });
    }
    const guardedText = await (await fetch(`${t.api}/admin/audit.csv?action=market.phase`, { headers: { authorization: `Bearer ${admin}` } })).text();
    expect(guardedText).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(parseCsv(guardedText.slice(1)).slice(1).map((record) => record[6])).toEqual(['@SUM(A1)', '-2', '+1+1', '=HYPERLINK("http://evil","x")'].map((subject) => (subject === '-2' ? subject : `'${subject}`)));
  });

  it('refuses both routes to anyone but the administrator', async () => {
    for (const path of ['/admin/audit', '/admin/audit.csv']) {
      expect(await t.get(path, broker1)).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN', params: { scope: 'admin' } } } });
      expect((await t.get(path)).status).toBe(401);
    }
  });
});
