import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSessionsDir } from '../../../server/http/qa.routes.ts';
import { parseRecording } from '../../../streams/recording.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

let t: TestServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'qa-recordings-'));
  copyFileSync(join(defaultSessionsDir(), 'ordinary-trading.jsonl'), join(dir, 'ordinary-trading.jsonl'));
  const good = '{"t":0,"command":"@open","headers":{"url":"ws://x"},"body":"","socket":1}\n';
  writeFileSync(join(dir, 'broken.jsonl'), `${good}{"t":5,"command":"MESSAGE","headers":{},"body":"","socket":0}\n`);
  writeFileSync(join(dir, 'notes.txt'), 'not a recording');
  t = await startTestServer({ qaSessionsDir: dir });
});
afterAll(async () => {
  await t.server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function get(path: string, token: string) {
  const response = await fetch(t.api + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('GET /qa/recordings', () => {
  it('lists the .jsonl recordings with their sizes, for qa and the administrator', async () => {
    const expected = {
      recordings: [
        { name: 'broken', sizeBytes: statSync(join(dir, 'broken.jsonl')).size },
        { name: 'ordinary-trading', sizeBytes: statSync(join(dir, 'ordinary-trading.jsonl')).size },
      ],
    };
    for (const user of ['qa1', 'admin']) {
      const answer = await get('/qa/recordings', await t.login(user));
      expect(answer.status, user).toBe(200);
      expect(JSON.parse(answer.text)).toEqual(expected);
    }
  });

  it('refuses traders and terminals with FORBIDDEN, and anonymous callers', async () => {
    for (const user of ['broker1', 'terminal1', 'client1']) {
      const token = await t.login(user);
      for (const path of ['/qa/recordings', '/qa/recordings/ordinary-trading']) {
        const answer = await get(path, token);
        expect([answer.status, JSON.parse(answer.text)], `${user} ${path}`).toEqual([403, { error: { code: 'FORBIDDEN', params: { scope: 'qa' } } }]);
      }
    }
    expect((await fetch(`${t.api}/qa/recordings`)).status).toBe(401);
  });
});

describe('GET /qa/recordings/:name', () => {
  it('answers the file as JSON lines, the parser reads it', async () => {
    const answer = await get('/qa/recordings/ordinary-trading', await t.login('qa1'));
    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/^application\/x-ndjson/);
    expect(parseRecording(answer.text).length).toBe(56);
  });

  it('refuses a bad recording with RECORDING_INVALID naming the line and the issue', async () => {
    const answer = await get('/qa/recordings/broken', await t.login('qa1'));
    expect([answer.status, JSON.parse(answer.text)]).toEqual([422, { error: { code: 'RECORDING_INVALID', params: { line: 2, issue: 'socket: Too small: expected number to be >0' } } }]);
  });

  it('answers NOT_FOUND for a name without a file, REQUEST_INVALID for a name that is no name', async () => {
    const token = await t.login('admin');
    const missing = await get('/qa/recordings/nothing-here', token);
    expect([missing.status, JSON.parse(missing.text).error.code]).toEqual([404, 'NOT_FOUND']);
    const traversal = await get('/qa/recordings/..%2Fusers', token);
    expect(traversal.status).toBe(400);
  });
});
