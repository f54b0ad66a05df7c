import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The thread's code, run as a CommonJS worker (`eval`): it opens its own connection to the database file and runs
 * the one audit statement for every batch it is sent, answering each with its id and, if the write failed, the
 * error's message and code. Kept as text so that the same module works from the built package and from source.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { createClient } = require(workerData.client);
const client = createClient({ url: workerData.url });
const ready = client.execute('PRAGMA busy_timeout = ' + workerData.busyTimeoutMs);
parentPort.on('message', (message) => {
  ready
    .then(() => client.execute({ sql: workerData.sql, args: [message.rows] }))
    .then(
      () => parentPort.postMessage({ id: message.id }),
      (error) => parentPort.postMessage({ id: message.id, error: { message: String(error && error.message), code: error && error.code } }),
    );
});
`;

interface Answer {
  id: number;
  error?: { message: string; code?: string };
}

/**
 * Writes audit batches to an SQLite file from a thread of its own, with a connection of its own. The insert (its
 * rows, the indexes, the write-ahead log) is the largest piece of work the gateway does per request outside the two
 * HTTP exchanges; on the event loop it delayed every request waiting behind it, here it runs beside them. The
 * thread starts with the first batch, holds the process open only while a batch is in flight, and a batch it could
 * not write rejects as a write on the event loop would (the audit log holds or spools it). A thread that dies fails
 * the batches in flight; the next batch starts a new one.
 */
export class SqliteAuditWriter {
  private worker: Worker | undefined;
  /** Batches in flight by id, with the thread each was sent to. */
  private readonly pending = new Map<
    number,
    { worker: Worker; written: Promise<void>; resolve: () => void; reject: (error: Error) => void }
  >();
  private nextId = 0;
  private closed = false;

  constructor(
    /** `file:` URL of the database. */
    private readonly url: string,
    /** The statement: one parameter, the batch's rows as one JSON array. */
    private readonly sql: string,
    private readonly busyTimeoutMs = 5000,
  ) {}

  write(rows: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The audit writer is closed'));
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    if (this.pending.size === 0) worker.ref();
    let settle = { resolve: () => {}, reject: (_error: Error) => {} };
    const written = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    this.pending.set(id, { worker, written, ...settle });
    worker.postMessage({ id, rows });
    return written;
  }

  /** Waits for the batches in flight, then stops the thread. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.pending.values()].map((batch) => batch.written));
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private settle(id: number, error?: Error): void {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    if (error) waiting.reject(error);
    else waiting.resolve();
    if (this.pending.size === 0) this.worker?.unref();
  }

  private start(): Worker {
    const client = createRequire(import.meta.url).resolve('@libsql/client/sqlite3');
    const worker = new Worker(THREAD, {
      eval: true,
      workerData: { client, url: this.url, sql: this.sql, busyTimeoutMs: this.busyTimeoutMs },
    });
    worker.unref();
    worker.on('message', (answer: Answer) => {
      if (!answer.error) return this.settle(answer.id);
      const error = Object.assign(new Error(answer.error.message), answer.error.code ? { code: answer.error.code } : {});
      this.settle(answer.id, error);
    });
    // only this thread's batches: a new thread may have been started for the next ones meanwhile
    const lost = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, batch] of [...this.pending]) if (batch.worker === worker) this.settle(id, error);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`The audit writer thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
