import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearingRoutes, type DailySettlementNote, type MonthlySettlementSummary } from '../../../protocol/clearing.ts';
import { clientScopeOf, type DocumentSource, type TransactionReportData } from '../../../server/clearing/documents/document-source.ts';
import { API_PREFIX, createHttpApp } from '../../../server/http/app.ts';
import { documentsRoutes } from '../../../server/http/documents.routes.ts';
import { dailyNote, monthlySummary, noteLine, transaction, transactionReport } from '../clearing/documents/fixtures.ts';
import { parsePdf } from '../clearing/documents/pdf-text.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

// Demo clients (fixtures/demo/exchange.json): AG-NORD has RO-HIDRO and RO-GAZEST; AG-CARP has RO-TERMO,
// RO-INDUS and RO-DORMANT. broker1 acts for RO-HIDRO and RO-GAZEST, client1 for RO-HIDRO only, agency1 is
// AG-NORD's agency, broker2 acts for RO-TERMO and RO-INDUS (not RO-DORMANT, though of its agency).
const clientNames: Record<string, string> = {
  'RO-HIDRO': 'Hidro Furnizare SA',
  'RO-GAZEST': 'Gaz Est Distributie SRL',
  'RO-TERMO': 'Termocentrala Vest SA',
  'RO-DORMANT': 'Dormant Energy SRL',
};
const notes = new Map<string, DailySettlementNote>(
  Object.entries(clientNames).map(([clientCode, clientName]) => [`N-${clientCode}`, dailyNote([noteLine(1), noteLine(2)], { noteId: `N-${clientCode}`, clientCode, clientName })]),
);
const summaries = new Map<string, MonthlySettlementSummary>([['RO-HIDRO 2026-11', monthlySummary()], ['RO-TERMO 2026-11', monthlySummary({ clientCode: 'RO-TERMO', clientName: 'Termocentrala Vest SA' })]]);
const reports = new Map<string, TransactionReportData>([
  [
    'TR-HIDRO',
    {
      report: transactionReport({ reportId: 'TR-HIDRO' }),
      transactions: [transaction(7, { buyer: 'RO-HIDRO', seller: 'RO-TERMO', price: 40_012, qty: 105, timestamp: '2026-11-24T08:15:00.000Z' })],
    },
  ],
]);

/** What the routes asked the source for, to see that a hidden client's data is not even read. */
const asked: string[] = [];
const source: DocumentSource = {
  async dailyNote(noteId) {
    asked.push(`note ${noteId}`);
    return notes.get(noteId) ?? null;
  },
  async monthlySummary(clientCode, month) {
    asked.push(`summary ${clientCode} ${month}`);
    return summaries.get(`${clientCode} ${month}`) ?? null;
  },
  async transactionReport(reportId) {
    asked.push(`report ${reportId}`);
    return reports.get(reportId) ?? null;
  },
};

let t: TestServer;
let app: FastifyInstance;
let api: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  // The routes are not in exchange-server.ts yet: a second app on the same store and sign-ins carries them.
  app = await createHttpApp({ store: t.server.store, auth: t.server.auth, clientDir: '/nonexistent-client-dir' });
  await app.register(documentsRoutes({ auth: t.server.auth, store: t.server.store, source, canSeeClient: clientScopeOf(t.server.store) }), { prefix: API_PREFIX });
  await app.listen({ port: 0, host: '127.0.0.1' });
  api = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}${API_PREFIX}`;
  for (const username of ['admin', 'broker1', 'broker2', 'agency1', 'client1']) tokens[username] = await t.login(username);
});
afterAll(async () => {
  await app?.close();
  await t?.server.close();
});

async function download(path: string, username?: string) {
  const response = await fetch(api + path, { headers: username ? { authorization: `Bearer ${tokens[username]}` } : {} });
  const body = Buffer.from(await response.arrayBuffer());
  const json = response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(body.toString('utf8')) : null;
  return { status: response.status, headers: response.headers, body, json };
}

const textOf = async (pdf: Buffer) => (await parsePdf(pdf)).pages.flat().join(' ');

describe('clearing document downloads', () => {
  it("answers a daily note as a PDF attachment named after the client and date, in the user's language or ?lang", async () => {
    const ro = await download(clearingRoutes.dailyNotePdf('N-RO-HIDRO'), 'broker1');
    expect(ro.status).toBe(200);
    expect(ro.headers.get('content-type')).toBe('application/pdf');
    expect(ro.headers.get('content-disposition')).toBe('attachment; filename="nota-decontare-RO-HIDRO-2026-11-24.pdf"');
    expect(ro.headers.get('cache-control')).toBe('no-store');
    expect(ro.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const roText = await textOf(ro.body);
    expect(roText).toContain('Notă zilnică de decontare');
    expect(roText).toContain('Hidro Furnizare SA (RO-HIDRO)');

    const en = await download(`${clearingRoutes.dailyNotePdf('N-RO-HIDRO')}?lang=en`, 'broker1');
    expect(en.status).toBe(200);
    expect(en.headers.get('content-disposition')).toBe('attachment; filename="settlement-note-RO-HIDRO-2026-11-24.pdf"');
    expect(await textOf(en.body)).toContain('Daily settlement note');
    // The same note gives the same file.
    expect((await download(`${clearingRoutes.dailyNotePdf('N-RO-HIDRO')}?lang=en`, 'broker1')).body.equals(en.body)).toBe(true);
  });

  it("writes in the user's preferred language when the address does not name one", async () => {
    const preferences = { language: 'en', theme: 'light', notifications: true, soundNotifications: false };
    const saved = await fetch(`${t.api}/user/preferences`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${tokens.broker2}`, 'content-type': 'application/json' },
      body: JSON.stringify(preferences),
    });
    expect(saved.status).toBeLessThan(300);
    try {
      const answer = await download(clearingRoutes.dailyNotePdf('N-RO-TERMO'), 'broker2');
      expect(answer.headers.get('content-disposition')).toBe('attachment; filename="settlement-note-RO-TERMO-2026-11-24.pdf"');
      const text = await textOf(answer.body);
      expect(text).toContain('Daily settlement note');
      expect(text).toContain('Termocentrala Vest SA (RO-TERMO)');
      const asked = await download(`${clearingRoutes.dailyNotePdf('N-RO-TERMO')}?lang=ro`, 'broker2');
      expect(await textOf(asked.body)).toContain('Notă zilnică de decontare');
    } finally {
      await fetch(`${t.api}/user/preferences`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${tokens.broker2}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...preferences, language: 'ro' }),
      });
    }
  });

  it("answers another's client's note exactly as a note that does not exist", async () => {
    const cases: Array<[string, string, boolean]> = [
      ['broker1', 'N-RO-GAZEST', true],
      ['broker1', 'N-RO-TERMO', false],
      ['client1', 'N-RO-HIDRO', true],
      ['client1', 'N-RO-GAZEST', false], // same agency, not its client
      ['agency1', 'N-RO-GAZEST', true],
      ['broker2', 'N-RO-TERMO', true],
      ['broker2', 'N-RO-DORMANT', false], // its agency's client, not one it acts for
      ['admin', 'N-RO-DORMANT', true],
    ];
    for (const [username, noteId, allowed] of cases) {
      const answer = await download(clearingRoutes.dailyNotePdf(noteId), username);
      if (allowed) {
        expect(answer.status, `${username} ${noteId}`).toBe(200);
        expect(await textOf(answer.body), `${username} ${noteId}`).toContain(`(${notes.get(noteId)!.clientCode})`);
      } else {
        expect([answer.status, answer.json], `${username} ${noteId}`).toEqual([404, { error: { code: 'CLEARING_NOTE_NOT_FOUND', params: { noteId } } }]);
      }
    }
    const unknown = await download(clearingRoutes.dailyNotePdf('N-NO-SUCH'), 'broker1');
    expect([unknown.status, unknown.json]).toEqual([404, { error: { code: 'CLEARING_NOTE_NOT_FOUND', params: { noteId: 'N-NO-SUCH' } } }]);
  });

  it("answers a monthly summary, and never reads a hidden client's", async () => {
    const ok = await download(clearingRoutes.monthlySummaryPdf('RO-HIDRO', '2026-11'), 'client1');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-disposition')).toBe('attachment; filename="situatie-lunara-decontare-RO-HIDRO-2026-11.pdf"');
    const text = await textOf(ok.body);
    expect(text).toContain('Situație lunară de decontare');
    expect(text).toContain('Hidro Furnizare SA (RO-HIDRO)');
    expect(text).toContain('noiembrie 2026');

    asked.length = 0;
    const hidden = await download(clearingRoutes.monthlySummaryPdf('RO-TERMO', '2026-11'), 'broker1');
    expect([hidden.status, hidden.json]).toEqual([404, { error: { code: 'CLEARING_NOTE_NOT_FOUND', params: { noteId: 'RO-TERMO 2026-11' } } }]);
    expect(asked).toEqual([]);
    const none = await download(clearingRoutes.monthlySummaryPdf('RO-HIDRO', '2026-10'), 'broker1');
    expect([none.status, none.json?.error.code]).toEqual([404, 'CLEARING_NOTE_NOT_FOUND']);
    expect(asked).toEqual(['summary RO-HIDRO 2026-10']);
    expect((await download(clearingRoutes.monthlySummaryPdf('RO-TERMO', '2026-11'), 'broker2')).status).toBe(200);
  });

  it("answers a transaction report with the assets' names and decimals from the store", async () => {
    const [asset] = (await t.server.store.reference.assets()).filter((candidate) => candidate.id === 'ESPOT-DA-H01');
    expect(asset).toBeDefined();
    const ro = await download(clearingRoutes.transactionReportPdf('TR-HIDRO'), 'broker1');
    expect(ro.status).toBe(200);
    expect(ro.headers.get('content-disposition')).toBe('attachment; filename="raport-tranzactii-RO-HIDRO-2026-11-24.pdf"');
    const roText = await textOf(ro.body);
    expect(roText).toContain(asset!.names.ro);
    // 400,12 × 10,5 = 4.201,26 (the demo asset: prices with 2 decimals, quantities with 1).
    expect(roText).toContain('10,5 400,12 4.201,26');
    const en = await download(`${clearingRoutes.transactionReportPdf('TR-HIDRO')}?lang=en`, 'admin');
    expect(en.headers.get('content-disposition')).toBe('attachment; filename="transaction-report-RO-HIDRO-2026-11-24.pdf"');
    const enText = await textOf(en.body);
    expect(enText).toContain(asset!.names.en);
    expect(enText).toContain('10.5 400.12 4,201.26');

    for (const [username, reportId] of [['broker2', 'TR-HIDRO'], ['broker1', 'TR-NO-SUCH']] as const) {
      const refused = await download(clearingRoutes.transactionReportPdf(reportId), username);
      expect([refused.status, refused.json]).toEqual([404, { error: { code: 'CLEARING_REPORT_NOT_FOUND', params: { reportId } } }]);
    }
  });

  it('refuses a missing sign-in, a bad language and malformed ids with their codes, never a server error', async () => {
    const anonymous = await download(clearingRoutes.dailyNotePdf('N-RO-HIDRO'));
    expect([anonymous.status, anonymous.json?.error.code]).toEqual([401, 'AUTH_TOKEN_MISSING']);
    const cases: Array<[string, string]> = [
      [`${clearingRoutes.dailyNotePdf('N-RO-HIDRO')}?lang=fr`, 'lang'],
      [`${clearingRoutes.dailyNotePdf('N-RO-HIDRO')}?format=docx`, 'format'],
      [clearingRoutes.dailyNotePdf('N.RO-HIDRO'), 'noteId'],
      [clearingRoutes.dailyNotePdf('x'.repeat(65)), 'noteId'],
      [clearingRoutes.monthlySummaryPdf('RO-HIDRO', '2026-13'), 'month'],
      [clearingRoutes.monthlySummaryPdf('RO HIDRO', '2026-11'), 'clientCode'],
      [clearingRoutes.transactionReportPdf('TR%27HIDRO'), 'reportId'],
    ];
    for (const [path, field] of cases) {
      const answer = await download(path, 'broker1');
      expect([answer.status, answer.json?.error.code, answer.json?.error.params.field], path).toEqual([400, 'REQUEST_INVALID', field]);
    }
  });
});
