import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { apiError, ExchangeError } from '../../protocol/index.ts';

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  keyLength: number;
}

/**
 * Each worker derives with scryptSync on its own thread. The async scrypt of node:crypto would run on
 * libuv's thread pool (4 threads, shared by every worker of the process), where the journal's writes
 * and fdatasync wait: a sign-in burst there delays every order acknowledgement.
 */
const workerSource = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
parentPort.on('message', ({ id, password, salt, N, r, p, keyLength }) => {
  try {
    const key = scryptSync(password, Buffer.from(salt), keyLength, { N, r, p, maxmem: 256 * N * r });
    parentPort.postMessage({ id, key });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

export interface PasswordHasherPoolOptions {
  /** Threads that hash (default: 2, and at least one core left to the engine and the journal: 1 on 2 cores). */
  workers?: number;
  /** Hashes waiting for a thread; beyond it a request is refused with AUTH_BUSY (default 32). */
  maxQueued?: number;
}

interface Job {
  id: number;
  message: { id: number; password: string; salt: Uint8Array } & ScryptParams;
  resolve(key: Buffer): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

/** A bounded pool of worker threads for scrypt, so password hashing never takes libuv's thread pool. */
export class PasswordHasherPool {
  private readonly size: number;
  private readonly maxQueued: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed = false;
  /** Derivations run to the end (a figure for tests and the attack suite: how many guesses reached a hash). */
  completed = 0;

  constructor(options: PasswordHasherPoolOptions = {}) {
    this.size = Math.max(1, options.workers ?? Math.min(2, availableParallelism() - 1));
    this.maxQueued = Math.max(0, options.maxQueued ?? 32);
  }

  /** Resolves with the derived key; rejects with AUTH_BUSY when the queue is full. */
  derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
    if (this.closed) return Promise.reject(new ExchangeError(apiError('SERVICE_UNAVAILABLE')));
    const idle = this.idleSlot();
    if (!idle && this.queue.length >= this.maxQueued) {
      return Promise.reject(new ExchangeError(apiError('AUTH_BUSY', { retryAfterSeconds: 1 })));
    }
    return new Promise<Buffer>((resolve, reject) => {
      const id = ++this.nextId;
      const job: Job = { id, message: { id, password, salt: new Uint8Array(salt), ...params }, resolve, reject };
      if (idle) this.start(idle, job);
      else this.queue.push(job);
    });
  }

  /** Stops the threads; waiting and running hashes are refused with SERVICE_UNAVAILABLE. */
  async close(): Promise<void> {
    this.closed = true;
    const refused = () => new ExchangeError(apiError('SERVICE_UNAVAILABLE'));
    for (const job of this.queue.splice(0)) job.reject(refused());
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      slot.job?.reject(refused());
      slot.job = null;
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private idleSlot(): Slot | null {
    const idle = this.slots.find((slot) => slot.job === null);
    if (idle) return idle;
    if (this.slots.length < this.size) return this.spawn();
    return null;
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(workerSource, { eval: true }), job: null };
    slot.worker.unref();
    slot.worker.on('message', (reply: { id: number; key?: Uint8Array; error?: string }) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      slot.job = null;
      slot.worker.unref();
      if (reply.key) {
        this.completed += 1;
        job.resolve(Buffer.from(reply.key.buffer, reply.key.byteOffset, reply.key.byteLength));
      } else job.reject(new Error(`password hash failed: ${reply.error ?? 'unknown'}`));
      this.next(slot);
    });
    // A thread that dies takes its job with it; the next hash starts a new thread.
    const lost = (error: Error) => {
      const index = this.slots.indexOf(slot);
      if (index < 0) return;
      this.slots.splice(index, 1);
      slot.job?.reject(error);
      slot.job = null;
      const waiting = this.queue.shift();
      if (waiting && !this.closed) this.start(this.idleSlot()!, waiting);
    };
    slot.worker.on('error', lost);
    slot.worker.on('exit', (code) => lost(new Error(`password hasher exited with ${code}`)));
    this.slots.push(slot);
    return slot;
  }

  private next(slot: Slot): void {
    const job = this.queue.shift();
    if (job) this.start(slot, job);
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    // Held open only while it hashes: an idle pool never keeps the process alive.
    slot.worker.ref();
    slot.worker.postMessage(job.message);
  }
}
