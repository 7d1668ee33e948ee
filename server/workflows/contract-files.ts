/**
 * A transaction contract's PDF: reading the upload within its limits, the checks on its bytes and its
 * name, its row in transaction_contract_files, and the name it is downloaded under. Nothing here
 * knows the workflow: contracts.ts runs the transition and calls these inside its transaction.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { apiError, ExchangeError } from '../../protocol/error-codes.ts';
import { CONTRACT_MAX_BYTES } from '../../protocol/workflows.ts';
import type { Queryable } from '../store/database.ts';

/** Longest accepted file name, in characters (file systems allow 255 bytes; a name stays readable in a list). */
export const CONTRACT_FILE_NAME_MAX_LENGTH = 120;
/** What the multipart envelope may add to the file (boundaries, part headers, the transactionId field). */
export const MULTIPART_OVERHEAD_BYTES = 16 * 1024;
/** The first bytes of every PDF file (ISO 32000-1 §7.5.2). */
const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');

/**
 * Refused in a file name: path separators, control characters (C0, DEL, C1), the characters Windows
 * forbids in names, and the bidirectional overrides that can show `evil‮fdp.exe` as `evilexe.pdf`.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what the rule refuses
const UNSAFE_NAME_CHARACTERS = /[/\\\u0000-\u001f\u007f-\u009f<>:"|?*\u202a-\u202e\u2066-\u2069\u200e\u200f]/u;

/**
 * A safe contract file name: 1-120 characters, ends in `.pdf` (any case) after a non-empty base that
 * does not start with a dot or a space, no `..`, none of the characters above, no trailing dot or space
 * before the extension's end. The name is shown to the other participant and the administrator and
 * used for the download, so it must be harmless on every operating system.
 */
export function isSafeContractFileName(name: string): boolean {
  if (name.length === 0 || name.length > CONTRACT_FILE_NAME_MAX_LENGTH) return false;
  if (name !== name.normalize('NFC')) return false;
  if (UNSAFE_NAME_CHARACTERS.test(name)) return false;
  if (name.includes('..')) return false;
  if (!/\.pdf$/i.test(name)) return false;
  const base = name.slice(0, -4);
  return base.trim().length > 0 && !base.startsWith('.') && !base.startsWith(' ') && !base.endsWith(' ');
}

/** A PDF by its first bytes, whatever its name or declared type says. */
export function isPdf(bytes: Uint8Array): boolean {
  return bytes.length >= PDF_MAGIC.length && PDF_MAGIC.equals(Buffer.from(bytes.buffer, bytes.byteOffset, PDF_MAGIC.length));
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Content-Disposition for a download: an ASCII fallback (anything else becomes `_`) and the exact
 * UTF-8 name in RFC 5987's `filename*`. The stored name passed isSafeContractFileName already; the
 * fallback is escaped again so the header can never be broken by a name.
 */
export function contentDispositionFor(fileName: string): string {
  const ascii = fileName.replace(/[^A-Za-z0-9._ -]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The media type of a request, for CONTRACT_NOT_MULTIPART's parameter (`none` when absent). */
export function mediaTypeOf(contentType: string | undefined): string {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return essence === '' ? 'none' : essence.slice(0, 100);
}

export function isMultipartFormData(contentType: string | undefined): boolean {
  return mediaTypeOf(contentType) === 'multipart/form-data';
}

/** Refuses, before a byte of the body is read, a body that says it is larger than a contract can be. */
export function checkDeclaredLength(contentLength: string | undefined): void {
  if (contentLength === undefined) return;
  const declared = Number(contentLength);
  if (Number.isFinite(declared) && declared > CONTRACT_MAX_BYTES + MULTIPART_OVERHEAD_BYTES) {
    throw new ExchangeError(apiError('CONTRACT_TOO_LARGE', { limitBytes: CONTRACT_MAX_BYTES }));
  }
}

export interface ContractUpload {
  transactionId: string;
  fileName: string;
  bytes: Buffer;
}

const invalid = (field: string, issue: string) => new ExchangeError(apiError('REQUEST_INVALID', { field, issue }));

/** The multipart plugin's own refusals (too many parts, a malformed body), as catalogue codes. */
function multipartFailure(error: unknown): Error {
  if (error instanceof ExchangeError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new ExchangeError(apiError('CONTRACT_TOO_LARGE', { limitBytes: CONTRACT_MAX_BYTES }));
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') return invalid('body', 'too_many_parts');
  if (code === 'FST_PROTO_VIOLATION') return invalid('body', 'field_name');
  // busboy's words for a body that is not the multipart it says (no boundary, cut short, bad headers)
  return invalid('body', 'malformed_multipart');
}

/**
 * Reads the form: a `transactionId` field and one `file` part, in either order. The file is read
 * chunk by chunk and never past CONTRACT_MAX_BYTES (busboy stops handing bytes over at the limit, and
 * the caller closes the connection instead of reading the rest). Fields are a few bytes at most.
 * The file name is judged as soon as its part header arrives, before its bytes are read.
 */
export async function readContractUpload(request: FastifyRequest): Promise<ContractUpload> {
  let transactionId: string | null = null;
  let upload: { fileName: string; bytes: Buffer } | null = null;
  try {
    const parts = request.parts({
      // the name as sent: basename() would turn `../x.pdf` into an innocent `x.pdf`
      preservePath: true,
      limits: { fileSize: CONTRACT_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 64, fieldNameSize: 64, headerPairs: 20 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === 'transactionId' && typeof part.value === 'string') transactionId = part.value.trim();
        continue;
      }
      if (part.fieldname !== 'file' || upload) {
        part.file.resume();
        continue;
      }
      const fileName = part.filename;
      if (!isSafeContractFileName(fileName)) {
        part.file.resume();
        throw new ExchangeError(apiError('CONTRACT_INVALID_FILE_NAME', { fileName: fileName.slice(0, 200) }));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        chunks.push(chunk);
        if (part.file.truncated) break;
      }
      if (part.file.truncated || size > CONTRACT_MAX_BYTES) throw new ExchangeError(apiError('CONTRACT_TOO_LARGE', { limitBytes: CONTRACT_MAX_BYTES }));
      const bytes = Buffer.concat(chunks, size);
      if (!isPdf(bytes)) throw new ExchangeError(apiError('CONTRACT_NOT_PDF', { fileName }));
      upload = { fileName, bytes };
    }
  } catch (error) {
    throw multipartFailure(error);
  }
  if (!upload) throw invalid('file', 'required');
  if (transactionId === null || transactionId === '') throw invalid('transactionId', 'required');
  if (!/^[0-9]{1,18}$/.test(transactionId)) throw invalid('transactionId', 'invalid_format');
  return { transactionId, ...upload };
}

// ---------------------------------------------------------------------------------------------------
// transaction_contract_files
// ---------------------------------------------------------------------------------------------------

export interface ContractFileRecord {
  instanceId: string;
  fileName: string;
  size: number;
  sha256: string;
  uploadedBy: string;
  uploadedAt: Date;
}

/** Stores (or, after a rejection, replaces) the instance's file; runs in the transition's transaction. */
export async function saveContractFile(tx: Queryable, record: ContractFileRecord, content: Buffer): Promise<void> {
  await tx.query(
    `insert into transaction_contract_files (instance_id, file_name, size, sha256, content, uploaded_by, uploaded_at)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (instance_id) do update set file_name = excluded.file_name, size = excluded.size, sha256 = excluded.sha256,
       content = excluded.content, uploaded_by = excluded.uploaded_by, uploaded_at = excluded.uploaded_at`,
    [record.instanceId, record.fileName, record.size, record.sha256, content, record.uploadedBy, record.uploadedAt.toISOString()],
  );
}

/** The stored file, or null. PGlite gives bytea as a Uint8Array, pg as a Buffer: both become a Buffer. */
export async function readContractFile(db: Queryable, instanceId: string): Promise<{ fileName: string; sha256: string; content: Buffer } | null> {
  const rows = await db.query<{ file_name: string; sha256: string; content: Uint8Array }>(
    'select file_name, sha256, content from transaction_contract_files where instance_id = $1',
    [instanceId],
  );
  const row = rows[0];
  if (!row) return null;
  const content = Buffer.isBuffer(row.content) ? row.content : Buffer.from(row.content.buffer, row.content.byteOffset, row.content.byteLength);
  return { fileName: row.file_name, sha256: row.sha256, content };
}
