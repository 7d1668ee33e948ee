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
    // Another user's workspace is answered as one that does not exist: 404, not a server failure.
    const othersEdit = await call('PUT', `/workspaces/${id}`, broker2, draft);
    expect([othersEdit.status, othersEdit.body]).toEqual([404, { error: { code: 'WORKSPACE_NOT_FOUND', params: {} } }]);
    const othersDelete = await call('DELETE', `/workspaces/${id}`, broker2);
    expect([othersDelete.status, othersDelete.body]).toEqual([404, { error: { code: 'WORKSPACE_NOT_FOUND', params: {} } }]);

    expect((await call('DELETE', `/workspaces/${id}`, broker1)).status).toBe(204);
    expect((await call('GET', '/workspaces', broker1)).body.workspaces).toEqual([]);
    const deletedTwice = await call('DELETE', `/workspaces/${id}`, broker1);
    expect([deletedTwice.status, deletedTwice.body.error.code]).toEqual([404, 'WORKSPACE_NOT_FOUND']);
    const editedAfter = await call('PUT', `/workspaces/${id}`, broker1, draft);
    expect([editedAfter.status, editedAfter.body.error.code]).toEqual([404, 'WORKSPACE_NOT_FOUND']);
  });

  it('refuses a workspace with an empty name, an asset of another market or a market the user does not see', async () => {
    const client1 = await t.login('client1'); // electricity markets only
    const broker1 = await t.login('broker1');
    // A refused body is the client's error (400) naming the field, never a server failure (500).
    for (const [body, field] of [
      [{ ...draft, name: '  ' }, 'body'],
      [{ ...draft, type: 'coal' }, 'body'],
      [{ ...draft, assetIds: ['GFWD-M-2027-01'] }, 'assetIds'],
      [{ ...draft, ringIds: ['no-such-ring'] }, 'ringIds'],
    ] as const) {
      const refused = await call('POST', '/workspaces', broker1, body);
      expect([refused.status, refused.body]).toEqual([400, { error: { code: 'WORKSPACE_INVALID', params: { field } } }]);
    }
    const otherMarket = await call('POST', '/workspaces', client1, draft);
    expect([otherMarket.status, otherMarket.body]).toEqual([400, { error: { code: 'WORKSPACE_INVALID', params: { field: 'marketId' } } }]);
    const unknownEdit = await call('PUT', '/workspaces/no-such-workspace', broker1, draft);
    expect([unknownEdit.status, unknownEdit.body.error.code]).toEqual([404, 'WORKSPACE_NOT_FOUND']);
    expect((await call('GET', '/workspaces', 'not-a-token')).status).toBe(401);
  });
});
