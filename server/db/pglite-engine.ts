import { Duplex } from 'node:stream';
import { Worker } from 'node:worker_threads';

/**
 * The embedded database (PGlite) in a worker thread of its own (pglite-worker.ts), reached over
 * PostgreSQL's wire protocol: `connection()` is a stream that `pg` takes in place of a socket, so
 * the server uses one driver, one pool and the same prepared statements on PGlite and PostgreSQL,
 * and no statement runs on the event loop that streams the answers. docs/architecture.md#the-database.
 */

export type PgliteWorkerData = { dataDir?: string; loadDataDir?: Blob };
export type ToPglite =
  | { type: 'open' | 'end'; id: number }
  | { type: 'data'; id: number; bytes: Uint8Array }
  | { type: 'dump' | 'close' };
export type FromPglite =
  | { type: 'ready' | 'closed' }
  | { type: 'failed'; message: string }
  | { type: 'data'; id: number; bytes: Uint8Array }
  | { type: 'error'; id: number; message: string }
  | { type: 'dump'; bytes: Uint8Array };

export type PgliteEngine = {
  /** A new connection's byte stream, for pg's `stream` option. */
  connection(): Duplex;
  /** The data folder as a tarball (PGlite's dumpDataDir), e.g. the tests' migrated template. */
  dump(): Promise<Uint8Array>;
  /** Closes PGlite (its files consistent) and ends the thread; a second call resolves with the first. */
  close(): Promise<void>;
  /** The thread itself (tests end it to see what a crash of it does). */
  thread: Worker;
};

/** The thread runs TypeScript like the server; its entry registers the loader (see the file). */
const WORKER_ENTRY = new URL('./pglite-worker.boot.mjs', import.meta.url);

/** Starts PGlite in `dataDir` (a folder, or none for memory) and resolves once it is open. */
export async function startPglite(data: PgliteWorkerData): Promise<PgliteEngine> {
  const worker = new Worker(WORKER_ENTRY, { workerData: data, execArgv: [] });
  const streams = new Map<number, PgliteStream>();
  let nextId = 1;
  let dumpWaiter: { resolve: (bytes: Uint8Array) => void; reject: (err: Error) => void } | undefined;
  let closedWaiter: (() => void) | undefined;
  /** Set once the thread is gone (closed, or died): what every later call fails with. */
  let gone: Error | undefined;
  let closing: Promise<void> | undefined;

  await new Promise<void>((resolve, reject) => {
    const failed = (err: Error) => {
      worker.off('message', answered).off('error', failed).off('exit', exited);
      reject(err);
    };
    const exited = (code: number) => failed(new Error(`the embedded database stopped while opening (exit ${code})`));
    const answered = (m: FromPglite) => {
      if (m.type !== 'ready') return failed(new Error(m.type === 'failed' ? m.message : 'the embedded database did not open'));
      worker.off('message', answered).off('error', failed).off('exit', exited);
      resolve();
    };
    worker.on('message', answered).on('error', failed).on('exit', exited);
  });

  worker.on('message', (m: FromPglite) => {
    if (m.type === 'data') streams.get(m.id)?.push(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength));
    else if (m.type === 'error') streams.get(m.id)?.destroy(new Error(`embedded database: ${m.message}`));
    else if (m.type === 'dump') dumpWaiter?.resolve(m.bytes);
    else if (m.type === 'closed') closedWaiter?.();
  });
  // The thread ends only when closed. If it dies, every connection fails as a lost socket would, and
  // so does every later one (a statement fails at once instead of waiting for ever); so does a dump,
  // and a close has nothing left to wait for.
  const lost = (err: Error) => {
    if (!gone && !closing) console.error('the embedded database stopped', err);
    gone ??= err;
    for (const s of streams.values()) s.destroy(err);
    streams.clear();
    dumpWaiter?.reject(err);
    closedWaiter?.();
  };
  worker.on('error', lost);
  worker.on('exit', () => lost(new Error('the embedded database stopped')));

  const post = (message: ToPglite, transfer: ArrayBuffer[] = []) => worker.postMessage(message, transfer);
  return {
    connection() {
      if (gone) return new PgliteStream(gone);
      const id = nextId++;
      const stream = new PgliteStream(
        undefined,
        (bytes) => post({ type: 'data', id, bytes }, [bytes.buffer as ArrayBuffer]),
        () => {
          streams.delete(id);
          post({ type: 'end', id });
        },
      );
      streams.set(id, stream);
      post({ type: 'open', id });
      return stream;
    },
    dump: () =>
      new Promise<Uint8Array>((resolve, reject) => {
        if (gone) return reject(gone);
        dumpWaiter = { resolve, reject };
        post({ type: 'dump' });
      }),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        if (gone) return resolve();
        closedWaiter = resolve;
        post({ type: 'close' });
      }).then(() => worker.terminate().then(() => {}))),
    thread: worker,
  };
}

/**
 * One connection, shaped as the socket pg expects: what pg writes in one turn of the event loop
 * (a statement's Parse, Bind, Execute and Sync) goes to the thread as one message.
 */
class PgliteStream extends Duplex {
  private pending: Uint8Array[] = [];
  private hungUp = false;

  /** `refused`: the thread is gone, the connection fails as it starts. */
  constructor(
    private readonly refused?: Error,
    private readonly sendBytes: (bytes: Uint8Array) => void = () => {},
    private readonly hangUp: () => void = () => {},
  ) {
    super();
  }

  connect(): this {
    process.nextTick(() => (this.refused ? this.destroy(this.refused) : this.emit('connect')));
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    if (this.pending.length === 0) queueMicrotask(() => this.flush());
    this.pending.push(chunk);
    done();
  }

  override _final(done: (err?: Error | null) => void): void {
    this.flush();
    this.end_();
    this.push(null);
    done();
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.end_();
    done(err);
  }

  private flush(): void {
    if (this.pending.length === 0 || this.hungUp) return;
    const chunks = this.pending;
    this.pending = [];
    // A copy of its own: pg's buffers may share a pooled ArrayBuffer, which must not be transferred.
    this.sendBytes(joined(chunks));
  }

  private end_(): void {
    if (this.hungUp || this.refused) return;
    this.hungUp = true;
    this.hangUp();
  }
}

/** The chunks in one array of its own (a Buffer may share a pooled ArrayBuffer, which must not be transferred). */
export function joined(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
