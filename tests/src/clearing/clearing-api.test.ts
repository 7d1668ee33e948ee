// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearingRoutes } from '../../../protocol/clearing.ts';
import { downloadPdf, fetchWarranties } from '../../../src/clearing/clearing-api.ts';
import { list, signIn, signOut, stubApi, warranty } from '../pages/my-account/clearing-fixtures.tsx';

beforeEach(signIn);
afterEach(() => {
  signOut();
  vi.unstubAllGlobals();
});

describe('clearing API', () => {
  it('passes the list query and accepts only rows the contract allows', async () => {
    const fetchMock = stubApi({ [clearingRoutes.warranties]: list([warranty()]) });
    const answer = await fetchWarranties(undefined, { clientCode: 'RO-HIDRO', from: '2026-11-01', to: '' });
    expect(answer.items.map((row) => row.clientWarrantyId)).toEqual(['W1']);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/session/api/clearing/warranties?clientCode=RO-HIDRO&from=2026-11-01');
    stubApi({ [clearingRoutes.warranties]: list([{ ...warranty(), value: 12.5 }]) });
    await expect(fetchWarranties()).rejects.toMatchObject({ code: 'UNKNOWN_ERROR' });
  });

  it('takes a PDF only when the server says it is one', async () => {
    stubApi({ [clearingRoutes.dailyNotePdf('N1')]: { body: { not: 'a pdf' } } });
    await expect(downloadPdf(clearingRoutes.dailyNotePdf('N1'), 'en')).rejects.toMatchObject({ code: 'UNKNOWN_ERROR' });
  });

  it('is not sent without a session', async () => {
    const fetchMock = stubApi({});
    signOut();
    await expect(fetchWarranties()).rejects.toMatchObject({ code: 'AUTH_TOKEN_EXPIRED' });
    await expect(downloadPdf(clearingRoutes.dailyNotePdf('N1'), 'ro')).rejects.toMatchObject({ code: 'AUTH_TOKEN_EXPIRED' });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
