import { describe, expect, it } from 'vitest';
import {
  checkDeclaredLength,
  CONTRACT_FILE_NAME_MAX_LENGTH,
  contentDispositionFor,
  isMultipartFormData,
  isPdf,
  isSafeContractFileName,
  mediaTypeOf,
  MULTIPART_OVERHEAD_BYTES,
  sha256Of,
} from '../../../server/workflows/contract-files.ts';
import { CONTRACT_MAX_BYTES } from '../../../protocol/workflows.ts';

describe('contract file names', () => {
  it('accepts plain names ending in .pdf, diacritics and spaces included', () => {
    for (const name of ['contract.pdf', 'Contract 2026-11.PDF', 'contract_ro-ștampilat.pdf', 'a.pdf', `${'x'.repeat(CONTRACT_FILE_NAME_MAX_LENGTH - 4)}.pdf`]) {
      expect(isSafeContractFileName(name), name).toBe(true);
    }
  });

  it('refuses paths, control and reserved characters, `..`, other extensions and odd lengths', () => {
    const refused = [
      '',
      '.pdf',
      ' .pdf',
      '.hidden.pdf',
      'contract .pdf',
      '../x.pdf',
      '..\\x.pdf',
      'dir/x.pdf',
      'C:\\x.pdf',
      'x..pdf',
      'a\u0000b.pdf',
      'a\nb.pdf',
      'a\u007fb.pdf',
      'a\u0085b.pdf',
      'evil\u202efdp.exe',
      'x\u202e.pdf',
      'a"b.pdf',
      'a<b>.pdf',
      'a|b.pdf',
      'a?.pdf',
      'a*.pdf',
      'contract.pdf.exe',
      'contract.txt',
      'contract',
      'e\u0301.pdf',
      `${'x'.repeat(CONTRACT_FILE_NAME_MAX_LENGTH - 3)}.pdf`,
    ];
    for (const name of refused) expect(isSafeContractFileName(name), JSON.stringify(name)).toBe(false);
  });
});

describe('PDF by its magic bytes', () => {
  it('needs %PDF- at the very start, whatever the name says', () => {
    expect(isPdf(Buffer.from('%PDF-1.7\n%...'))).toBe(true);
    expect(isPdf(new Uint8Array(Buffer.from('%PDF-')))).toBe(true);
    expect(isPdf(Buffer.from('%PDF'))).toBe(false);
    expect(isPdf(Buffer.from(' %PDF-1.7'))).toBe(false);
    expect(isPdf(Buffer.from('hello, I am a text file'))).toBe(false);
    expect(isPdf(Buffer.alloc(0))).toBe(false);
    const sliced = Buffer.from('xx%PDF-1.4').subarray(2);
    expect(isPdf(sliced)).toBe(true);
  });

  it('hashes with sha256', () => {
    expect(sha256Of(Buffer.from('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('headers', () => {
  it('names the download safely: an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDispositionFor('contract.pdf')).toBe(`attachment; filename="contract.pdf"; filename*=UTF-8''contract.pdf`);
    expect(contentDispositionFor('contract ștampilat (1).pdf')).toBe(
      `attachment; filename="contract _tampilat _1_.pdf"; filename*=UTF-8''contract%20%C8%99tampilat%20%281%29.pdf`,
    );
  });

  it('reads the media type and refuses a declared length over the limit before reading', () => {
    expect(mediaTypeOf(undefined)).toBe('none');
    expect(mediaTypeOf('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(isMultipartFormData('multipart/form-data; boundary=abc')).toBe(true);
    expect(isMultipartFormData('multipart/mixed; boundary=abc')).toBe(false);
    expect(() => checkDeclaredLength(String(CONTRACT_MAX_BYTES + MULTIPART_OVERHEAD_BYTES + 1))).toThrow(expect.objectContaining({ code: 'CONTRACT_TOO_LARGE' }));
    expect(() => checkDeclaredLength(String(CONTRACT_MAX_BYTES + MULTIPART_OVERHEAD_BYTES))).not.toThrow();
    expect(() => checkDeclaredLength(undefined)).not.toThrow();
  });
});
