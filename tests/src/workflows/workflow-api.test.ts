// @vitest-environment jsdom
/** The workflows' REST client: routes, schemas, idempotency keys per intent, multipart upload, the client-side file checks. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTRACT_MAX_BYTES, workflowRoutes } from '../../../protocol/workflows.ts';
import {
  checkContractFile,
  createIntentKeys,
  fetchWorkflows,
  requestTransfer,
  sendWorkflowAction,
  uploadContract,
} from '../../../src/workflows/workflow-api.ts';
import { signIn, signOut, stubApi } from '../pages/my-account/clearing-fixtures.tsx';
import { broker1, instance } from './workflow-fixtures.tsx';

beforeEach(signIn);
afterEach(() => {
  signOut();
  vi.unstubAllGlobals();
});

describe('workflow API', () => {
  it('lists with the query and accepts only instances the contract allows', async () => {
    const deal = instance('otc');
    const fetchMock = stubApi({ [workflowRoutes.list]: { body: { instances: [deal] } } });
    expect(await fetchWorkflows({ kind: 'otc', awaiting: 'administrator', from: '' })).toEqual([deal]);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/session/api/workflows?kind=otc&awaiting=administrator');
    stubApi({ [workflowRoutes.list]: { body: { instances: [{ ...deal, status: 'approved' }] } } });
    await expect(fetchWorkflows()).rejects.toMatchObject({ code: 'UNKNOWN_ERROR' });
  });

  it('posts an action with the version seen and the idempotency key in its header', async () => {
    const deal = instance('otc');
    const after = instance('otc', [['activate', broker1]]);
    const fetchMock = stubApi({ [`POST ${workflowRoutes.action(deal.instanceId)}`]: { body: after } });
    expect(await sendWorkflowAction(deal, 'activate', undefined, 'key-0001')).toEqual(after);
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init?.method).toBe('POST');
    expect(init?.headers).toMatchObject({ 'Idempotency-Key': 'key-0001', 'Content-Type': 'application/json', Authorization: 'Bearer tok' });
    expect(JSON.parse(String(init?.body))).toEqual({ action: 'activate', version: 1 });
  });

  it('refuses a transfer body the contract does not allow before sending it', async () => {
    const fetchMock = stubApi({});
    await expect(requestTransfer({ transactionId: 'T-1' }, 'key-0002')).rejects.toThrow();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('uploads a contract as multipart FormData (fetch sets the boundary), with its key', async () => {
    const contract = instance('contract', [['upload', broker1]]);
    const fetchMock = stubApi({ [`POST ${workflowRoutes.contract}`]: { body: contract } });
    const file = new File([new Uint8Array([0x25, 0x50, 0x44, 0x46])], 'contract.pdf', { type: 'application/pdf' });
    expect(await uploadContract('1003', file, 'key-0003')).toEqual(contract);
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init?.body).toBeInstanceOf(FormData);
    const form = init?.body as FormData;
    expect(form.get('transactionId')).toBe('1003');
    expect((form.get('file') as File).name).toBe('contract.pdf');
    expect((init?.headers as Record<string, string>)['Content-Type']).toBeUndefined();
    expect((init?.headers as Record<string, string>)['Idempotency-Key']).toBe('key-0003');
  });
});

describe('idempotency keys per intent', () => {
  it('keeps the key while the same intent is retried and makes a new one for a new intent or after success', () => {
    let n = 0;
    const keys = createIntentKeys(() => `key-${++n}`);
    expect(keys.keyFor('WF-1:3:approve:')).toBe('key-1');
    expect(keys.keyFor('WF-1:3:approve:')).toBe('key-1');
    expect(keys.keyFor('WF-1:3:reject:late')).toBe('key-2');
    expect(keys.keyFor('WF-1:3:approve:')).toBe('key-3');
    keys.done();
    expect(keys.keyFor('WF-1:3:approve:')).toBe('key-4');
  });
});

describe('contract file checks in the browser', () => {
  it('takes a PDF within the size and refuses another type, a too large file and an unsafe name with the server codes', () => {
    expect(checkContractFile({ name: 'contract 1003.pdf', size: 1000, type: 'application/pdf' })).toBeNull();
    expect(checkContractFile({ name: 'scan.PDF', size: 1000, type: '' })).toBeNull();
    expect(checkContractFile({ name: 'contract.docx', size: 1000, type: 'application/msword' })).toEqual({ code: 'CONTRACT_NOT_PDF', params: { fileName: 'contract.docx' } });
    expect(checkContractFile({ name: 'contract.pdf', size: 1000, type: 'image/png' })?.code).toBe('CONTRACT_NOT_PDF');
    expect(checkContractFile({ name: 'big.pdf', size: CONTRACT_MAX_BYTES + 1, type: 'application/pdf' })).toEqual({ code: 'CONTRACT_TOO_LARGE', params: { limitBytes: CONTRACT_MAX_BYTES } });
    expect(checkContractFile({ name: '../etc/passwd.pdf', size: 10, type: 'application/pdf' })?.code).toBe('CONTRACT_INVALID_FILE_NAME');
    expect(checkContractFile({ name: '.hidden.pdf', size: 10, type: 'application/pdf' })?.code).toBe('CONTRACT_INVALID_FILE_NAME');
  });
});
