import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../protocol/market-data.ts';
import { CONTRACT_MAX_BYTES, workflowInstanceSchema } from '../../../protocol/workflows.ts';
import { testDatabases } from '../../helpers/test-databases.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

/**
 * The contract routes over HTTP on the real server: every upload check with a real multipart body
 * (FormData through fetch, and by hand), the download's headers and rights, the list's date filter,
 * and accept / approve / reject through the generic action route. RO-HIDRO is broker1's (and
 * client1's) client, RO-TERMO broker2's; SIM-NORD-1 belongs to the simulator's agency.
 */

function transaction(transactionId: string, buyer: string, seller: string, timestamp = '2026-11-22T10:00:00.000Z'): Transaction {
  return {
    transactionId,
    assetId: 'GSPOT-DA',
    price: 12_345,
    qty: 10_000,
    noCnt: 10,
    aggressor: 'bid',
    txDate: timestamp.slice(0, 10),
    timestamp,
    buyer,
    seller,
    buyOrderId: '1',
    sellOrderId: '2',
    marginsExposureActive: false,
    externalTransactionId: null,
    gasfwTransactionId: null,
    transferTimestamp: null,
    parentTransactionId: null,
    grandParentTransactionId: null,
    splitTimestamp: null,
  };
}

function pdf(size = 2_000, marker = 'contract'): Buffer {
  const bytes = Buffer.alloc(size, 0x20);
  bytes.write(`%PDF-1.7\n% ${marker}\n`);
  return bytes;
}

describe.each(testDatabases)('contract routes on $name', (database) => {
  let t: TestServer;
  let drop: () => Promise<void>;
  const tokens: Record<string, string> = {};
  let nextId = 8000;

  beforeAll(async () => {
    const target = await database.create();
    drop = target.drop;
    t = await startTestServer({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
    for (const username of ['broker1', 'broker2', 'client1', 'admin', 'sim-nord']) tokens[username] = await t.login(username);
  });
  afterAll(async () => {
    await t.server.close();
    await drop();
  });

  async function newTransaction(buyer = 'RO-HIDRO', seller = 'RO-TERMO', timestamp?: string): Promise<string> {
    const id = String(nextId++);
    await t.server.store.trading.insertTransactions([transaction(id, buyer, seller, timestamp)]);
    return id;
  }

  async function upload(username: string, transactionId: string | null, file: { name: string; bytes: Uint8Array } | null, headers: Record<string, string> = {}) {
    const form = new FormData();
    if (transactionId !== null) form.append('transactionId', transactionId);
    if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: 'application/pdf' }), file.name);
    const response = await fetch(`${t.api}/workflows/contract`, { method: 'POST', headers: { authorization: `Bearer ${tokens[username]}`, ...headers }, body: form });
    return { status: response.status, body: await response.json(), headers: response.headers };
  }

  async function act(username: string, instanceId: string, action: string, reason?: string) {
    return t.post(`/workflows/${instanceId}/actions`, { action, ...(reason ? { reason } : {}) }, tokens[username]);
  }

  async function download(username: string, instanceId: string) {
    const response = await fetch(`${t.api}/workflows/${instanceId}/contract.pdf`, { headers: { authorization: `Bearer ${tokens[username]}` } });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, bytes, headers: response.headers };
  }

  const contractRows = async () => (await t.server.store.db.query<{ n: number }>('select count(*)::int as n from transaction_contract_files'))[0]!.n;

  it('uploads a PDF: 201 with the instance awaiting the partner, the file stored as sent', async () => {
    const id = await newTransaction();
    const bytes = pdf(10_000);
    const answer = await upload('broker1', id, { name: 'Contract ștampilat.pdf', bytes });
    expect(answer.status).toBe(201);
    expect(workflowInstanceSchema.safeParse(answer.body).error).toBeUndefined();
    expect(answer.body).toMatchObject({ kind: 'contract', status: 'AWAITING_PARTNER_ACCEPT', waitingOn: 'partner', initiatorClient: 'RO-HIDRO', partnerClient: 'RO-TERMO' });
    expect(answer.body.data).toMatchObject({ transactionId: id, fileName: 'Contract ștampilat.pdf', fileSize: 10_000 });
    const file = await download('broker2', answer.body.instanceId);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(bytes)).toBe(true);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="Contract _tampilat.pdf"; filename*=UTF-8''Contract%20%C8%99tampilat.pdf`);
    expect(file.headers.get('cache-control')).toBe('no-store');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
  });

  describe('every upload check, each with its code, none storing anything', () => {
    let stored = 0;
    beforeEach(async () => {
      stored = await contractRows();
    });
    it('not multipart: CONTRACT_NOT_MULTIPART with the type sent, before the body is read', async () => {
      const id = await newTransaction();
      const json = await t.post('/workflows/contract', { transactionId: id }, tokens.broker1);
      expect(json).toEqual({ status: 415, body: { error: { code: 'CONTRACT_NOT_MULTIPART', params: { contentType: 'application/json' } } } });
      const raw = await fetch(`${t.api}/workflows/contract`, { method: 'POST', headers: { authorization: `Bearer ${tokens.broker1}`, 'content-type': 'application/pdf' }, body: new Uint8Array(pdf()) });
      expect(await raw.json()).toEqual({ error: { code: 'CONTRACT_NOT_MULTIPART', params: { contentType: 'application/pdf' } } });
      const none = await fetch(`${t.api}/workflows/contract`, { method: 'POST', headers: { authorization: `Bearer ${tokens.broker1}` } });
      expect(await none.json()).toEqual({ error: { code: 'CONTRACT_NOT_MULTIPART', params: { contentType: 'none' } } });
      // signed-in first: an anonymous form is 401, whatever it carries
      const anonymous = await fetch(`${t.api}/workflows/contract`, { method: 'POST', body: new FormData() });
      expect(anonymous.status).toBe(401);
      expect(await contractRows()).toBe(stored);
    });

    it('a text file renamed .pdf: CONTRACT_NOT_PDF (the magic bytes decide, not the name or the declared type)', async () => {
      const id = await newTransaction();
      const answer = await upload('broker1', id, { name: 'notes.pdf', bytes: Buffer.from('These are my notes, not a PDF.\n') });
      expect(answer).toMatchObject({ status: 415, body: { error: { code: 'CONTRACT_NOT_PDF', params: { fileName: 'notes.pdf' } } } });
      expect(await contractRows()).toBe(stored);
    });

    it('5 MiB + 1 byte: CONTRACT_TOO_LARGE, and the connection is not kept to read the rest; exactly 5 MiB passes', async () => {
      const id = await newTransaction();
      const tooLarge = await upload('broker1', id, { name: 'big.pdf', bytes: pdf(CONTRACT_MAX_BYTES + 1) });
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body).toEqual({ error: { code: 'CONTRACT_TOO_LARGE', params: { limitBytes: CONTRACT_MAX_BYTES } } });
      expect(tooLarge.headers.get('connection')).toBe('close');
      expect(await contractRows()).toBe(stored);
      const atLimit = await upload('broker1', id, { name: 'limit.pdf', bytes: pdf(CONTRACT_MAX_BYTES) });
      expect(atLimit.status).toBe(201);
      expect(atLimit.body.data.fileSize).toBe(CONTRACT_MAX_BYTES);
    });

    it('a body that declares more than a contract can be is refused before it is read', async () => {
      const answer = await new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
        const request = httpRequest(
          `${t.api}/workflows/contract`,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${tokens.broker1}`,
              'content-type': 'multipart/form-data; boundary=xyz',
              'content-length': String(50 * 1024 * 1024),
            },
          },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (body += chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body, connection: response.headers.connection }));
          },
        );
        request.on('error', reject);
        // Only the first bytes of the 50 MiB it announced: the answer comes without waiting for the rest.
        request.write('--xyz\r\n');
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({ error: { code: 'CONTRACT_TOO_LARGE', params: { limitBytes: CONTRACT_MAX_BYTES } } });
      expect(answer.connection).toBe('close');
    });

    it('`../x.pdf` and other unsafe names: CONTRACT_INVALID_FILE_NAME with the name as sent', async () => {
      const id = await newTransaction();
      for (const name of ['../x.pdf', 'dir/contract.pdf', 'contract.pdf.exe', 'x\u202efdp.exe', '.pdf']) {
        const answer = await upload('broker1', id, { name, bytes: pdf() });
        expect(answer.status, name).toBe(422);
        expect(answer.body, name).toEqual({ error: { code: 'CONTRACT_INVALID_FILE_NAME', params: { fileName: name } } });
      }
      expect(await contractRows()).toBe(stored);
    });

    it('a missing transaction, or one of other clients: CONTRACT_TRANSACTION_NOT_FOUND alike', async () => {
      const foreign = await newTransaction('RO-TERMO', 'SIM-NORD-1');
      expect((await upload('broker1', '987654321', { name: 'c.pdf', bytes: pdf() })).body).toEqual({
        error: { code: 'CONTRACT_TRANSACTION_NOT_FOUND', params: { transactionId: '987654321' } },
      });
      const probe = await upload('broker1', foreign, { name: 'c.pdf', bytes: pdf() });
      expect(probe).toMatchObject({ status: 404, body: { error: { code: 'CONTRACT_TRANSACTION_NOT_FOUND', params: { transactionId: foreign } } } });
      expect(await contractRows()).toBe(stored);
    });

    it('a non-participant who sees the transaction (the administrator): CONTRACT_NOT_PARTICIPANT', async () => {
      const id = await newTransaction();
      expect(await upload('admin', id, { name: 'c.pdf', bytes: pdf() })).toMatchObject({ status: 403, body: { error: { code: 'CONTRACT_NOT_PARTICIPANT', params: { transactionId: id } } } });
    });

    it('a form without its parts: REQUEST_INVALID naming the field', async () => {
      const id = await newTransaction();
      expect((await upload('broker1', id, null)).body).toEqual({ error: { code: 'REQUEST_INVALID', params: { field: 'file', issue: 'required' } } });
      expect((await upload('broker1', null, { name: 'c.pdf', bytes: pdf() })).body).toEqual({ error: { code: 'REQUEST_INVALID', params: { field: 'transactionId', issue: 'required' } } });
      expect((await upload('broker1', 'abc', { name: 'c.pdf', bytes: pdf() })).body).toEqual({ error: { code: 'REQUEST_INVALID', params: { field: 'transactionId', issue: 'invalid_format' } } });
      const malformed = await fetch(`${t.api}/workflows/contract`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.broker1}`, 'content-type': 'multipart/form-data; boundary=xyz' },
        body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 cut short',
      });
      expect(malformed.status).toBe(400);
      expect(await malformed.json()).toEqual({ error: { code: 'REQUEST_INVALID', params: { field: 'body', issue: 'malformed_multipart' } } });
      expect(await contractRows()).toBe(stored);
    });

    it('a second upload: CONTRACT_EXISTS; after a rejection a new upload replaces the file', async () => {
      const id = await newTransaction();
      const first = await upload('broker1', id, { name: 'v1.pdf', bytes: pdf(3_000, 'v1') });
      expect(first.status).toBe(201);
      expect(await upload('broker2', id, { name: 'v2.pdf', bytes: pdf(3_000, 'v2') })).toMatchObject({ status: 409, body: { error: { code: 'CONTRACT_EXISTS', params: { transactionId: id } } } });
      expect((await download('broker1', first.body.instanceId)).bytes.equals(pdf(3_000, 'v1'))).toBe(true);

      const rejected = await act('broker2', first.body.instanceId, 'reject', 'wrong quantity');
      expect(rejected.status).toBe(200);
      expect(rejected.body).toMatchObject({ status: 'NOT_INITIALIZED', reason: { text: 'wrong quantity' }, data: { fileName: null } });
    expect(workflowInstanceSchema.safeParse(rejected.body).error).toBeUndefined();
      expect((await download('broker1', first.body.instanceId)).status).toBe(404);

      const second = await upload('broker2', id, { name: 'v2.pdf', bytes: pdf(4_000, 'v2') });
      expect(second.status).toBe(201);
      expect(second.body).toMatchObject({ instanceId: first.body.instanceId, status: 'AWAITING_PARTNER_ACCEPT', data: { fileName: 'v2.pdf', fileSize: 4_000 } });
      expect((await download('admin', first.body.instanceId)).bytes.equals(pdf(4_000, 'v2'))).toBe(true);
      expect(second.body.history.map((event: { action: string }) => event.action)).toEqual(['create', 'upload', 'reject', 'upload']);
    });
  });

  it('accept by the other side, approve by the administrator; `upload` is not an action of the generic route', async () => {
    const id = await newTransaction();
    const uploaded = (await upload('client1', id, { name: 'c.pdf', bytes: pdf() })).body;
    expect((await act('broker1', uploaded.instanceId, 'upload')).body).toEqual({ error: { code: 'WORKFLOW_ACTION_NOT_ALLOWED', params: { action: 'upload', status: 'AWAITING_PARTNER_ACCEPT' } } });
    expect((await act('broker2', uploaded.instanceId, 'reject')).body.error.code).toBe('WORKFLOW_REASON_REQUIRED');
    expect((await act('broker2', uploaded.instanceId, 'accept')).body).toMatchObject({ status: 'AWAITING_ADMIN_APPROVAL', waitingOn: 'administrator' });
    const finalized = await act('admin', uploaded.instanceId, 'approve');
    expect(finalized.body).toMatchObject({ status: 'FINALIZED', waitingOn: 'none', data: { fileName: 'c.pdf' } });
    expect((await download('client1', uploaded.instanceId)).status).toBe(200);
    expect((await upload('broker1', id, { name: 'again.pdf', bytes: pdf() })).body.error.code).toBe('CONTRACT_EXISTS');
  });

  it('download: the participants and the administrator; another agency gets WORKFLOW_NOT_FOUND', async () => {
    const id = await newTransaction();
    const uploaded = (await upload('broker1', id, { name: 'c.pdf', bytes: pdf() })).body;
    for (const username of ['broker1', 'client1', 'broker2', 'admin']) expect((await download(username, uploaded.instanceId)).status, username).toBe(200);
    const other = await download('sim-nord', uploaded.instanceId);
    expect(other.status).toBe(404);
    expect(JSON.parse(other.bytes.toString('utf8'))).toEqual({ error: { code: 'WORKFLOW_NOT_FOUND', params: { instanceId: uploaded.instanceId } } });
    expect((await t.get('/workflows/wf-unknown/contract.pdf', tokens.admin)).body.error.code).toBe('WORKFLOW_NOT_FOUND');
  });

  it('the list filters contracts by their start and end date (Bucharest days)', async () => {
    const a = await newTransaction();
    t.clock.advance(2 * 86_400_000);
    tokens.broker1 = await t.login('broker1');
    const b = await newTransaction();
    const first = (await upload('broker1', a, { name: 'a.pdf', bytes: pdf() })).body;
    t.clock.advance(86_400_000);
    tokens.broker1 = await t.login('broker1');
    const second = (await upload('broker1', b, { name: 'b.pdf', bytes: pdf() })).body;
    const day = (iso: string) => new Date(Date.parse(iso) + 2 * 3_600_000).toISOString().slice(0, 10);
    const list = async (query: string) =>
      ((await t.get(`/workflows?kind=contract&${query}`, tokens.broker1)).body.instances as Array<{ instanceId: string }>).map((instance) => instance.instanceId);
    expect(await list(`from=${day(first.createdAt)}&to=${day(first.createdAt)}`)).toContain(first.instanceId);
    expect(await list(`from=${day(first.createdAt)}&to=${day(first.createdAt)}`)).not.toContain(second.instanceId);
    expect(await list(`from=${day(second.createdAt)}`)).toEqual([second.instanceId]);
    expect(await list(`from=${day(first.createdAt)}&to=${day(second.createdAt)}`)).toEqual(expect.arrayContaining([first.instanceId, second.instanceId]));
  });

  it('the multipart parser is the contract route\'s only: other routes still refuse a form', async () => {
    const form = new FormData();
    form.append('name', 'desk');
    const response = await fetch(`${t.api}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${tokens.broker1}` }, body: form });
    expect(response.status).toBe(415);
    expect((await response.json()).error.code).toBe('REQUEST_UNSUPPORTED_MEDIA_TYPE');
    const whitelist = await fetch(`${t.api}/workflows/whitelist`, { method: 'POST', headers: { authorization: `Bearer ${tokens.broker1}` }, body: form });
    expect((await whitelist.json()).error.code).toBe('REQUEST_UNSUPPORTED_MEDIA_TYPE');
  });
});
