// The HTTP area of the attack suite (npm run security:check -- http): the authorisation matrix, path
// traversal, oversized bodies, slow-loris and silent connections, security headers, framing and IDOR.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { runAuthorizationMatrix, runDestinationMatrix } from '../../tests/helpers/authorization-matrix.ts';
import { seedObjects } from '../../tests/helpers/rest-fuzzer.ts';
import type { TestServer } from '../../tests/helpers/test-server.ts';
import { isErrorCode } from '../../protocol/index.ts';
import type { Attack } from './attack.ts';

const AREA = 'http';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with the path sent exactly as written (fetch would normalise `../` away). */
function raw(t: TestServer, method: string, path: string, options: { body?: Buffer | string; headers?: Record<string, string>; localAddress?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: t.server.port, method, path, headers: options.headers, localAddress: options.localAddress, agent: false }, (response) => {
      let body = '';
      response.setEncoding('latin1');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    req.setTimeout(15_000, () => req.destroy(new Error('no answer in 15 s')));
    req.on('error', reject);
    req.end(options.body);
  });
}

const codeOf = (body: string): string | undefined => {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
};

/** 27 ways of climbing out of the documents folder: plain, encoded, double-encoded, backslashes, null bytes, overlong UTF-8. */
export const traversalForms = [
  '../../../../etc/passwd',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '%2e%2e/%2e%2e/etc/passwd',
  '..%252f..%252fetc%252fpasswd',
  '%252e%252e%252f%252e%252e%252fetc%252fpasswd',
  '..\\..\\..\\etc\\passwd',
  '..%5c..%5cetc%5cpasswd',
  '%2e%2e%5c%2e%2e%5cetc%5cpasswd',
  'GSPOT-DA-specification.pdf%00.txt',
  'GSPOT-DA-specification.pdf%00',
  '....//....//etc/passwd',
  '..;/..;/etc/passwd',
  '%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
  '%uff0e%uff0e/etc/passwd',
  '..%c0%af..%c0%afetc%c0%afpasswd',
  '..%ef%bc%8f..%ef%bc%8fetc%ef%bc%8fpasswd',
  '/etc/passwd',
  '%2fetc%2fpasswd',
  'file:%2f%2f%2fetc%2fpasswd',
  '..',
  '.',
  '%2e',
  '.%2e',
  '..%00',
  'GSPOT-DA-specification.pdf/../../../../package.json',
  '%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json',
];

/** Sockets from `localAddress` that send nothing (or dribble headers when `dribble`); resolves once the server accepted them. */
async function openSockets(t: TestServer, count: number, dribble: boolean): Promise<{ sockets: Socket[]; closedAt: Map<Socket, number>; answers: Map<Socket, string>; stop(): void }> {
  const closedAt = new Map<Socket, number>();
  const answers = new Map<Socket, string>();
  const sockets: Socket[] = [];
  const timers: NodeJS.Timeout[] = [];
  let seen = 0;
  const countSeen = () => (seen += 1);
  t.server.app.server.on('connection', countSeen);
  for (let start = 0; start < count; start += 100) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(100, count - start) }, () => {
        return new Promise<Socket>((resolve) => {
          const socket = connect({ host: '127.0.0.1', port: t.server.port, localAddress: '127.0.0.1' });
          socket.on('error', () => {});
          socket.on('data', (chunk) => answers.set(socket, (answers.get(socket) ?? '') + chunk.toString('latin1')));
          socket.on('close', () => closedAt.set(socket, Date.now()));
          socket.on('connect', () => {
            if (dribble) {
              const text = 'GET /session/api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(10_000);
              let index = 0;
              // A byte every 500 ms: never idle long enough for the idle timeout, only the header deadline ends it.
              timers.push(setInterval(() => socket.writable && socket.write(text[index++] ?? 'a'), 500));
            }
            resolve(socket);
          });
          socket.on('close', () => resolve(socket));
        });
      }),
    );
    sockets.push(...batch);
    const deadline = Date.now() + 5_000;
    while (seen < sockets.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  t.server.app.server.off('connection', countSeen);
  return { sockets, closedAt, answers, stop: () => timers.forEach(clearInterval) };
}

/** Floods one address, then checks another is served, and that every flooding socket is gone after the header deadline. */
async function flood(t: TestServer, count: number, dribble: boolean): Promise<{ held: boolean; outcome: string }> {
  const connections = () => new Promise<number>((resolve) => t.server.app.server.getConnections((_error, open) => resolve(open)));
  const before = await connections();
  const started = Date.now();
  const { sockets, closedAt, answers, stop } = await openSockets(t, count, dribble);
  try {
    const refusedAtOnce = closedAt.size;
    const other = Date.now();
    const otherAnswer = await raw(t, 'GET', '/session/api/health', { localAddress: '127.0.0.2' });
    const otherMs = Date.now() - other;
    const deadline = Date.now() + 20_000;
    while (closedAt.size < sockets.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const lastClosed = Math.max(...closedAt.values()) - started;
    // The server's side closes a moment after the client's: wait for it, so the next client is not over the cap.
    while ((await connections()) > before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const timedOut = [...answers.values()].filter((text) => text.startsWith('HTTP/1.1 408') && text.includes('REQUEST_TIMEOUT')).length;
    const held = otherAnswer.status === 200 && otherMs < 2_000 && closedAt.size === sockets.length && (await connections()) <= before;
    return { held, outcome: `${sockets.length} sockets: ${refusedAtOnce} refused at once, ${timedOut} got 408 REQUEST_TIMEOUT, all closed after ${lastClosed} ms; another address served in ${otherMs} ms` };
  } finally {
    stop();
    for (const socket of sockets) socket.destroy();
  }
}

const headerNames = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy'] as const;

export const attacks: Attack[] = [
  {
    area: AREA,
    name: 'authorisation matrix: every route and STOMP destination × every role, IDOR',
    expected: "each cell as the roles say; another user's order, workspace, trade party or chat never shown",
    async run(t) {
      const cells = [...(await runAuthorizationMatrix(t)), ...(await runDestinationMatrix(t))];
      const wrong = cells.filter((cell) => !cell.ok);
      return { held: wrong.length === 0, outcome: `${cells.length} cells, ${wrong.length} wrong${wrong[0] ? `: ${wrong[0].route} as ${wrong[0].principal} got ${wrong[0].actual}` : ''}` };
    },
  },
  {
    area: AREA,
    name: `path traversal on document downloads (${traversalForms.length} forms)`,
    expected: '400 REQUEST_INVALID or 404 NOT_FOUND, never a file',
    async run(t) {
      let refused = 0;
      const leaks: string[] = [];
      for (const form of traversalForms) {
        for (const path of [`/session/api/assets/GSPOT-DA/documents/${form}`, `/session/api/assets/${form}/documents/trading-rules.pdf`]) {
          const answer = await raw(t, 'GET', path);
          const code = codeOf(answer.body);
          if ((answer.status === 400 || answer.status === 404) && isErrorCode(code)) refused += 1;
          else leaks.push(`${path} -> ${answer.status}`);
          if (/root:|"name": ?"energy-exchange"/.test(answer.body)) leaks.push(`${path} served a file`);
        }
      }
      return { held: leaks.length === 0, outcome: `tried ${traversalForms.length * 2}, refused ${refused}${leaks[0] ? `; ${leaks[0]}` : ''}` };
    },
  },
  {
    area: AREA,
    name: 'oversized bodies (65 KiB, 1 MiB, 10 MiB, chunked)',
    expected: '413 REQUEST_BODY_TOO_LARGE, server unaffected',
    async run(t) {
      const outcomes: string[] = [];
      let held = true;
      for (const size of [65 * 1024, 1024 * 1024, 10 * 1024 * 1024]) {
        const body = Buffer.from(`{"username":"${'a'.repeat(size)}"}`);
        const answer = await raw(t, 'POST', '/session/api/login', { body, headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }).catch((error: Error) => ({ status: 0, body: error.message, headers: {} }));
        const code = codeOf(answer.body);
        // Fastify may close the socket before reading the rest: a reset after the 413 is also a refusal.
        if (!(answer.status === 413 && code === 'REQUEST_BODY_TOO_LARGE') && !/ECONNRESET|EPIPE/.test(answer.body)) held = false;
        outcomes.push(`${Math.round(size / 1024)} KiB ${answer.status || 'reset'}`);
      }
      const chunked = await raw(t, 'POST', '/session/api/login', { body: Buffer.alloc(200 * 1024, 'a'), headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }).catch((error: Error) => ({ status: 0, body: error.message, headers: {} }));
      if (!(chunked.status === 413 || /ECONNRESET|EPIPE/.test(chunked.body))) held = false;
      outcomes.push(`chunked 200 KiB ${chunked.status || 'reset'}`);
      const after = await raw(t, 'GET', '/session/api/health');
      if (after.status !== 200) held = false;
      return { held, outcome: `${outcomes.join(', ')}; health ${after.status}` };
    },
  },
  {
    area: AREA,
    name: 'slow-loris on HTTP: 300 sockets dribbling headers from one address',
    expected: '256 kept (per-address cap), 408 REQUEST_TIMEOUT at the 10 s header deadline; other clients served',
    run: (t) => flood(t, 300, true),
  },
  {
    area: AREA,
    name: '1,100 silent connections from one address',
    expected: 'over 256 closed at once, the rest at the header deadline; other clients served',
    run: (t) => flood(t, 1_100, false),
  },
  {
    area: AREA,
    name: 'missing security headers (page, API, 404, error)',
    expected: 'CSP, nosniff, X-Frame-Options DENY and Referrer-Policy everywhere; API no-store',
    async run(t) {
      const token = await t.login('broker1');
      const checks: Array<{ path: string; headers: Record<string, string>; api: boolean }> = [
        { path: '/session/trading', headers: {}, api: false },
        { path: '/session/api/user/info', headers: { authorization: `Bearer ${token}` }, api: true },
        { path: '/session/api/user/info', headers: {}, api: true },
        { path: '/session/api/nope', headers: {}, api: true },
        { path: '/session/api/orders/%ff', headers: {}, api: true },
        { path: '/elsewhere', headers: {}, api: false },
      ];
      const missing: string[] = [];
      for (const check of checks) {
        const answer = await raw(t, 'GET', check.path, { headers: check.headers });
        for (const name of headerNames) if (!answer.headers[name]) missing.push(`${name} on ${check.path}`);
        if (check.api && answer.headers['cache-control'] !== 'no-store') missing.push(`no-store on ${check.path}`);
        if (/unsafe-eval/.test(String(answer.headers['content-security-policy']))) missing.push(`unsafe-eval on ${check.path}`);
      }
      return { held: missing.length === 0, outcome: missing.length === 0 ? `${checks.length} responses, all headers present` : `missing: ${missing.slice(0, 3).join('; ')}` };
    },
  },
  {
    area: AREA,
    name: 'framing the trading page',
    expected: "X-Frame-Options DENY and frame-ancestors 'none' (Chromium: tests/e2e/security-headers.e2e.test.ts)",
    async run(t) {
      const answer = await raw(t, 'GET', '/session/trading/workspace');
      const frameOptions = answer.headers['x-frame-options'];
      const ancestors = /frame-ancestors 'none'/.test(String(answer.headers['content-security-policy']));
      return { held: frameOptions === 'DENY' && ancestors, outcome: `X-Frame-Options ${String(frameOptions)}, frame-ancestors 'none' ${ancestors ? 'present' : 'missing'}` };
    },
  },
  {
    area: AREA,
    name: "IDOR: broker1 walks order and workspace ids of broker2",
    expected: '404 ORDER_NOT_FOUND / WORKSPACE_NOT_FOUND for every id not its own, nothing changed',
    async run(t) {
      const broker1 = await t.login('broker1');
      const broker2 = await t.login('broker2');
      const own = await seedObjects(t, broker1, 'RO-HIDRO');
      const theirs = await Promise.all([seedObjects(t, broker2, 'RO-TERMO'), seedObjects(t, broker2, 'RO-INDUS')]);
      let tried = 0;
      let reached = 0;
      const maxOrderId = Math.max(Number(own.orderId), ...theirs.map((objects) => Number(objects.orderId))) + 3;
      for (let id = 1; id <= maxOrderId; id += 1) {
        if (String(id) === own.orderId) continue;
        for (const [method, path, body] of [
          ['GET', `/session/api/orders/${id}/events`, undefined],
          ['PATCH', `/session/api/orders/${id}`, '{"qty":30}'],
          ['POST', `/session/api/orders/${id}/cancel`, undefined],
        ] as const) {
          tried += 1;
          const answer = await raw(t, method, path, { body, headers: { authorization: `Bearer ${broker1}`, ...(body ? { 'content-type': 'application/json' } : {}) } });
          if (answer.status !== 404 || codeOf(answer.body) !== 'ORDER_NOT_FOUND') reached += 1;
        }
      }
      for (const objects of theirs) {
        for (const method of ['PUT', 'DELETE'] as const) {
          tried += 1;
          const body = method === 'PUT' ? JSON.stringify({ name: 'Mine now', type: 'gas', marketId: 'GAS-SPOT', assetIds: [], ringIds: [] }) : undefined;
          const answer = await raw(t, method, `/session/api/workspaces/${objects.workspaceId}`, { body, headers: { authorization: `Bearer ${broker1}`, ...(body ? { 'content-type': 'application/json' } : {}) } });
          if (answer.status !== 404 || codeOf(answer.body) !== 'WORKSPACE_NOT_FOUND') reached += 1;
        }
      }
      // broker2's objects are untouched: its orders still live, its workspaces still named as made.
      const mine = await t.get('/orders/mine', broker2);
      const workspaces = await t.get('/workspaces', broker2);
      const intact = theirs.every((objects) => mine.body.items.some((order: { orderId: string; qty: number }) => order.orderId === objects.orderId && order.qty === 10)) && workspaces.body.workspaces.length === 2 && workspaces.body.workspaces.every((workspace: { name: string }) => workspace.name.startsWith('Seed '));
      return { held: reached === 0 && intact, outcome: `tried ${tried}, reached ${reached}, broker2's objects ${intact ? 'intact' : 'CHANGED'}` };
    },
  },
];
