// PGlite (Postgres compiled to WebAssembly) in its own thread, so the exchange's event loop never waits
// on it: the engine, the journal and the sockets keep the main thread. Plain JavaScript so Node loads it
// as it is, under tsx, vitest or plain node. The protocol is server/store/pglite-thread.ts's.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** What an error keeps across the thread boundary (structured clone drops an Error's own fields). */
function describe(error) {
  const out = { name: error?.name ?? 'Error', message: error?.message ?? String(error) };
  for (const field of ['code', 'detail', 'hint', 'constraint', 'table', 'column', 'schema', 'severity', 'position']) {
    if (error?.[field] !== undefined) out[field] = error[field];
  }
  return out;
}

let db;
const decoder = new TextDecoder();

/** The parameters as sent, with the long strings the main thread moved over as UTF-8 bytes decoded back. */
function paramsOf(message) {
  const params = message.params;
  for (const index of message.textParams ?? []) params[index] = decoder.decode(params[index]);
  return params;
}
/** Open transactions by id: their queries, and how the main thread ends them. */
const transactions = new Map();

function reply(id, result) {
  parentPort.postMessage({ id, ok: true, result });
}

function fail(id, error) {
  parentPort.postMessage({ id, ok: false, error: describe(error) });
}

async function handle(message) {
  const { id, op } = message;
  try {
    switch (op) {
      case 'query':
        reply(id, (await db.query(message.sql, paramsOf(message))).rows);
        return;
      case 'copyThenRun':
        // One transaction: every load COPYd from its bytes (PGlite reads them as the file /dev/blob), then the statements.
        await db.transaction(async (tx) => {
          for (const load of message.loads) await tx.query(`copy ${load.table} (${load.columns}) from '/dev/blob'`, [], { blob: new Blob([load.bytes]) });
          for (const statement of message.statements) await tx.query(statement.sql, statement.params);
        });
        reply(id, null);
        return;
      case 'exec':
        await db.exec(message.sql);
        reply(id, null);
        return;
      case 'begin':
        // Held open until the main thread commits or rolls back; PGlite queues every other query meanwhile.
        db.transaction(
          (tx) =>
            new Promise((resolve, reject) => {
              transactions.set(message.tx, { tx, resolve, reject });
              reply(id, null);
            }),
        ).then(
          () => {
            transactions.delete(message.tx);
            reply(message.endId, null);
          },
          (error) => {
            const started = transactions.delete(message.tx);
            // A rollback asked for is not a failure of the rollback.
            if (error?.rollbackRequested) reply(message.endId, null);
            else if (started) fail(message.endId, error);
            // Never begun: the begin itself failed.
            else fail(id, error);
          },
        );
        return;
      case 'txQuery': {
        const open = transactions.get(message.tx);
        if (!open) throw new Error(`transaction ${message.tx} is not open`);
        reply(id, (await open.tx.query(message.sql, paramsOf(message))).rows);
        return;
      }
      case 'end': {
        // The answer goes to the begin's endId once PGlite has committed or rolled back.
        const open = transactions.get(message.tx);
        if (!open) throw new Error(`transaction ${message.tx} is not open`);
        if (message.commit) open.resolve();
        else open.reject(Object.assign(new Error('rollback'), { rollbackRequested: true }));
        return;
      }
      case 'dumpTo': {
        // The whole data directory as a tar file, written beside its name and renamed, so a reader never sees half of it.
        const dump = await db.dumpDataDir('none');
        const partial = `${message.file}.${process.pid}.${id}.part`;
        writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
        renameSync(partial, message.file);
        reply(id, null);
        return;
      }
      case 'close':
        await db.close();
        reply(id, null);
        return;
      default:
        throw new Error(`unknown operation ${op}`);
    }
  } catch (error) {
    fail(id, error);
  }
}

try {
  // A new database from a template (a dumped, migrated empty one) when given: no initdb, which costs seconds of CPU.
  // A data directory that already holds a database is opened as it is.
  const template = workerData.template && !(workerData.dataDir && existsSync(`${workerData.dataDir}/PG_VERSION`));
  const options = template ? { loadDataDir: new Blob([readFileSync(workerData.template)]) } : {};
  db = workerData.dataDir ? await PGlite.create(workerData.dataDir, options) : await PGlite.create(options);
  parentPort.postMessage({ ready: true });
  parentPort.on('message', (message) => void handle(message));
} catch (error) {
  parentPort.postMessage({ ready: false, error: describe(error) });
}
