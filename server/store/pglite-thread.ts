import { Worker } from 'node:worker_threads';
import type { CopyLoad, Database, Queryable, Statement } from './database.ts';

/** An error as the worker describes it (server/store/pglite-worker.mjs). */
interface WorkerError {
  name: string;
  message: string;
  [field: string]: unknown;
}

type Answer = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: WorkerError };

/** Text parameters from this many characters on cross the thread as UTF-8 bytes (see withBytes). */
export const BYTES_FROM_CHARS = 16 * 1024;
const encoder = new TextEncoder();

/**
 * A query's parameters with the long strings (the read models' JSON rows, hundreds of KB) encoded
 * to UTF-8 and moved, not copied, to the worker, which decodes them (`textParams` says which): the
 * structured clone of a long string cost this thread about twice the encoding.
 */
function withBytes(params: unknown[]): { params: unknown[]; textParams: number[]; transfer: ArrayBuffer[] } {
  let textParams: number[] | null = null;
  let out = params;
  const transfer: ArrayBuffer[] = [];
  for (let index = 0; index < params.length; index++) {
    const param = params[index];
    if (typeof param !== 'string' || param.length < BYTES_FROM_CHARS) continue;
    if (!textParams) {
      textParams = [];
      out = [...params];
    }
    const bytes = encoder.encode(param);
    out[index] = bytes;
    textParams.push(index);
    transfer.push(bytes.buffer as ArrayBuffer);
  }
  return { params: out, textParams: textParams ?? [], transfer };
}

/** Rebuilt on this side with the database's own fields (code, detail, constraint...). */
function toError(described: WorkerError): Error {
  const { name, message, ...fields } = described;
  return Object.assign(new Error(message), { name }, fields);
}

/** PGlite's database, which can also write itself out as a tar file (PGlite's dumpDataDir). */
export interface PgliteDatabase extends Database {
  /** Writes the data directory to `file` (written aside and renamed into place). */
  dumpTo(file: string): Promise<void>;
}

/**
 * PGlite in a worker thread behind the Database interface: the WebAssembly Postgres costs the read
 * models some 30-50 µs a row, which would otherwise stall the engine, the journal and the sockets.
 * Requests are answered in the order PGlite runs them; a transaction stays open in the worker while
 * its work runs here (PGlite holds every other query until it ends). When the thread dies, every
 * pending and later request fails with the reason. The thread keeps the process alive only while a
 * request is pending.
 */
export async function openPgliteThread(dataDir: string | undefined, template?: string): Promise<PgliteDatabase> {
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir, template } });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let nextTx = 1;
  let dead: Error | null = null;

  const opening = {
    message: null as ((message: { ready: boolean; error?: WorkerError }) => void) | null,
    error: null as ((error: Error) => void) | null,
    exit: null as ((code: number) => void) | null,
  };
  try {
    await new Promise<void>((resolve, reject) => {
      opening.message = (message) => {
        if (message.ready) resolve();
        else {
          reject(toError(message.error!));
          void worker.terminate();
        }
      };
      opening.error = reject;
      opening.exit = (code) => reject(new Error(`PGlite thread exited with ${code} while opening`));
      worker.once('message', opening.message).once('error', opening.error).once('exit', opening.exit);
    });
  } finally {
    // Only our own: Node's Worker keeps listeners of its own (removeAllListeners would break its ref counting).
    worker.off('message', opening.message!).off('error', opening.error!).off('exit', opening.exit!);
  }
  worker.unref();

  function settle(id: number, outcome: { ok: true; value: unknown } | { ok: false; error: Error }): void {
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    if (outcome.ok) waiting.resolve(outcome.value);
    else waiting.reject(outcome.error);
  }

  worker.on('message', (answer: Answer) => {
    if (answer.ok) settle(answer.id, { ok: true, value: answer.result });
    else settle(answer.id, { ok: false, error: toError(answer.error) });
  });
  const die = (reason: Error) => {
    dead ??= reason;
    for (const id of [...pending.keys()]) settle(id, { ok: false, error: dead });
  };
  worker.on('error', (error) => die(new Error(`PGlite thread failed: ${error.message}`, { cause: error })));
  worker.on('exit', (code) => die(new Error(`PGlite thread exited with ${code}`)));

  /** Registers an answer for `id` (before the request that leads to it is sent). */
  function expect<T>(id: number): Promise<T> {
    if (dead) return Promise.reject(dead);
    if (pending.size === 0) worker.ref();
    return new Promise<T>((resolve, reject) => pending.set(id, { resolve: resolve as (value: unknown) => void, reject }));
  }

  function request<T>(message: Record<string, unknown>, params?: unknown[], transfer: ArrayBuffer[] = []): Promise<T> {
    const id = nextId++;
    const answer = expect<T>(id);
    if (!dead) {
      try {
        if (params) {
          const encoded = withBytes(params);
          worker.postMessage({ ...message, params: encoded.params, textParams: encoded.textParams, id }, encoded.transfer);
        } else worker.postMessage({ ...message, id }, transfer);
      } catch (error) {
        // A parameter that cannot cross the thread (a function, say): this request fails, nothing else.
        settle(id, { ok: false, error: error as Error });
      }
    }
    return answer;
  }

  return {
    kind: 'pglite',
    query<Row>(sql: string, params: unknown[] = []) {
      return request<Row[]>({ op: 'query', sql }, params);
    },
    async transaction<T>(work: (tx: Queryable) => Promise<T>) {
      const tx = nextTx++;
      const endId = nextId++;
      const ended = expect<void>(endId);
      // Not awaited when the begin fails: the worker answers that with the begin's own id.
      ended.catch(() => {});
      try {
        await request({ op: 'begin', tx, endId });
      } catch (error) {
        settle(endId, { ok: false, error: error as Error });
        throw error;
      }
      let result: T;
      try {
        result = await work({ query: <Row>(sql: string, params: unknown[] = []) => request<Row[]>({ op: 'txQuery', tx, sql }, params) });
      } catch (error) {
        if (!dead) worker.postMessage({ op: 'end', tx, commit: false });
        await ended.catch(() => {});
        throw error;
      }
      if (!dead) worker.postMessage({ op: 'end', tx, commit: true });
      await ended;
      return result;
    },
    async copyThenRun(loads: CopyLoad[], statements: Statement[]) {
      // The rows go as UTF-8 bytes moved to the thread, not cloned; PGlite reads them there as they are.
      const transfer: ArrayBuffer[] = [];
      const encoded = loads.map(({ table, columns, text }) => {
        const bytes = encoder.encode(text);
        transfer.push(bytes.buffer as ArrayBuffer);
        return { table, columns, bytes };
      });
      await request({ op: 'copyThenRun', loads: encoded, statements }, undefined, transfer);
    },
    async exec(sql: string) {
      await request({ op: 'exec', sql });
    },
    async dumpTo(file: string) {
      await request({ op: 'dumpTo', file });
    },
    async close() {
      if (dead) return;
      await request({ op: 'close' });
      dead = new Error('database closed');
      await worker.terminate();
    },
  };
}
