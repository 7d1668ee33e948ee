import { currentCode } from '../../server/auth/totp.ts';
import { readDemoUsers } from '../../server/demo/demo-exchange.ts';
import { startExchangeServer, type ExchangeServer, type ExchangeServerOptions } from '../../server/exchange-server.ts';
import { TestClock } from './test-clock.ts';

export const demoUsers = readDemoUsers();
export function demoUser(username: string) {
  const user = demoUsers.find((candidate) => candidate.username === username);
  if (!user) throw new Error(`no demo user ${username}`);
  return user;
}

/** A response body as the tests read it: parsed JSON, asserted on field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests reach into bodies (`.body.error.code`) and assert, so a checked type would only add casts
type JsonBody = any;

export interface TestServer {
  server: ExchangeServer;
  clock: TestClock;
  api: string;
  post(path: string, body: unknown, token?: string): Promise<{ status: number; body: JsonBody }>;
  get(path: string, token?: string): Promise<{ status: number; body: JsonBody }>;
  /** Signs a demo user in with its current code (moving the clock to a fresh TOTP step). */
  login(username: string, password?: string): Promise<string>;
  codeFor(username: string): string;
}

/** `clockAt`: where the test clock starts (default a fixed instant; e2e tests start at real time). */
export async function startTestServer(options: Partial<ExchangeServerOptions> = {}, clockAt?: number): Promise<TestServer> {
  const clock = new TestClock(clockAt);
  const server = await startExchangeServer({
    port: 0,
    host: '127.0.0.1',
    dataDir: undefined,
    databaseUrl: undefined,
    clientDir: '/nonexistent-client-dir',
    now: clock.now,
    // Tests move the clock by hours and days: a market schedule would close the books under them.
    timetables: null,
    ...options,
  });
  const api = `http://127.0.0.1:${server.port}/session/api`;
  async function request(method: string, path: string, body?: unknown, token?: string) {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(api + path, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }
  const codeFor = (username: string) => currentCode(demoUser(username).totpSecret, clock.now());
  return {
    server,
    clock,
    api,
    post: (path, body, token) => request('POST', path, body, token),
    get: (path, token) => request('GET', path, undefined, token),
    codeFor,
    async login(username, password = demoUser(username).password) {
      clock.nextTotpStep();
      const result = await request('POST', '/login', { username, password, code: codeFor(username) });
      if (result.status !== 200) throw new Error(`login ${username} failed: ${JSON.stringify(result.body)}`);
      return result.body.token as string;
    },
  };
}
