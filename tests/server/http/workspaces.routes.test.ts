import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.server.close();
});

async function call(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(t.api + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const draft = { name: 'Gas day desk', type: 'gas', marketId: 'GAS-SPOT', assetIds: ['GSPOT-DA', 'GSPOT-WD'], ringIds: ['R-GAS-DAY'] };

describe('personal workspaces', () => {
  it('creates, lists, edits and deletes a workspace of the signed-in user only', async () => {
    const broker1 = await t.login('broker1');
    const broker2 = await t.login('broker2');
    expect((await call('GET', '/workspaces', broker1)).body).toEqual({ workspaces: [] });

    const created = await call('POST', '/workspaces', broker1, draft);
    expect(created.status).toBe(201);
    const id = created.body.workspace.id as string;
    expect(created.body.workspace).toEqual({ id, ...draft });

    // Another browser of the same user sees it (a new sign-in); another user does not.
    const again = await t.login('broker1');
    expect((await call('GET', '/workspaces', again)).body.workspaces).toEqual([{ id, ...draft }]);
    expect((await call('GET', '/workspaces', broker2)).body.workspaces).toEqual([]);

    const edited = await call('PUT', `/workspaces/${id}`, broker1, { ...draft, name: 'Day only', assetIds: ['GSPOT-DA'] });
    expect(edited.status).toBe(200);
    expect(edited.body.workspace).toMatchObject({ id, name: 'Day only', assetIds: ['GSPOT-DA'] });
    expect((await call('PUT', `/workspaces/${id}`, broker2, draft)).body).toEqual({ error: { code: 'WORKSPACE_EDIT_FAILED', params: {} } });
    expect((await call('DELETE', `/workspaces/${id}`, broker2)).body).toEqual({ error: { code: 'WORKSPACE_DELETE_FAILED', params: {} } });

    expect((await call('DELETE', `/workspaces/${id}`, broker1)).status).toBe(204);
    expect((await call('GET', '/workspaces', broker1)).body.workspaces).toEqual([]);
    expect((await call('DELETE', `/workspaces/${id}`, broker1)).body.error.code).toBe('WORKSPACE_DELETE_FAILED');
  });

  it('refuses a workspace with an empty name, an asset of another market or a market the user does not see', async () => {
    const client1 = await t.login('client1'); // electricity markets only
    const broker1 = await t.login('broker1');
    for (const body of [
      { ...draft, name: '  ' },
      { ...draft, assetIds: ['GFWD-M-2027-01'] },
      { ...draft, type: 'coal' },
    ]) {
      expect((await call('POST', '/workspaces', broker1, body)).body).toEqual({ error: { code: 'WORKSPACE_SAVE_FAILED', params: {} } });
    }
    expect((await call('POST', '/workspaces', client1, draft)).body.error.code).toBe('WORKSPACE_SAVE_FAILED');
    expect((await call('GET', '/workspaces', 'not-a-token')).status).toBe(401);
  });
});
