import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { FromPglite, PgliteWorkerData, ToPglite } from './pglite-engine.ts';

/**
 * The embedded database's thread (started by pglite-engine.ts): PGlite runs here, off the server's
 * event loop, and speaks PostgreSQL's wire protocol to the connections the server opens over the
 * message port, so the server reaches it with the `pg` driver exactly as it reaches PostgreSQL.
 * PGlite has one session: statements of all connections run one batch at a time, in arrival order,
 * and a connection that goes away inside a transaction has it rolled back.
 */

const port = parentPort!;
const { dataDir, loadDataDir } = workerData as PgliteWorkerData;

/** Protocol version 3.0 in a startup message, and the code of an SSL request in its place. */
const SSL_REQUEST = 80_877_103;

type Connection = { buffer: Buffer; started: boolean };
const connections = new Map<number, Connection>();
let line: Promise<void> = Promise.resolve();

const send = (message: FromPglite, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

let db: PGlite;
try {
  db = await PGlite.create(dataDir, { extensions: { pg_trgm }, ...(loadDataDir ? { loadDataDir } : {}) });
  send({ type: 'ready' });
} catch (err) {
  send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  process.exit(1);
}

/** Runs whole messages of one connection after everything queued before them, and answers its bytes. */
function run(id: number, messages: Buffer): void {
  line = line.then(async () => {
    if (!connections.has(id)) return;
    let out: Uint8Array;
    try {
      out = await db.runExclusive(() => db.execProtocolRaw(messages));
    } catch (err) {
      send({ type: 'error', id, message: err instanceof Error ? err.message : String(err) });
      return;
    }
    if (out.length === 0) return;
    // An answer of its own to transfer (the startup's is a view of a buffer PGlite reuses).
    const bytes = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out : out.slice();
    send({ type: 'data', id, bytes }, [bytes.buffer as ArrayBuffer]);
  });
}

/** Splits a connection's bytes into whole protocol messages; a partial one waits for the rest. */
function receive(id: number, bytes: Uint8Array): void {
  const c = connections.get(id);
  if (!c) return;
  c.buffer = c.buffer.length ? Buffer.concat([c.buffer, bytes]) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!c.started) {
    // The startup message has no type byte: its length, then the protocol version (or SSL request).
    if (c.buffer.length < 8 || c.buffer.length < c.buffer.readInt32BE(0)) return;
    const length = c.buffer.readInt32BE(0);
    const startup = c.buffer.subarray(0, length);
    c.buffer = c.buffer.subarray(length);
    if (startup.readInt32BE(4) === SSL_REQUEST) {
      const no = new TextEncoder().encode('N');
      send({ type: 'data', id, bytes: no }, [no.buffer as ArrayBuffer]);
    } else {
      c.started = true;
      run(id, startup);
    }
    if (c.buffer.length) receive(id, new Uint8Array(0));
    return;
  }
  let end = 0;
  while (end + 5 <= c.buffer.length && end + 1 + c.buffer.readInt32BE(end + 1) <= c.buffer.length) end += 1 + c.buffer.readInt32BE(end + 1);
  if (end === 0) return;
  run(id, c.buffer.subarray(0, end));
  c.buffer = c.buffer.subarray(end);
}

/**
 * A connection that ends leaves the session as a new connection must find it: its transaction
 * rolled back, its prepared statements and settings gone (pg's pool ends a connection after an
 * error and opens another, which knows nothing of what the first one prepared).
 */
function hangUp(id: number): void {
  line = line.then(async () => {
    if (!connections.delete(id)) return;
    if (db.isInTransaction()) await db.exec('rollback').catch(() => {});
    await db.exec('discard all').catch(() => {});
  });
}

port.on('message', (message: ToPglite) => {
  switch (message.type) {
    case 'open':
      connections.set(message.id, { buffer: Buffer.alloc(0), started: false });
      return;
    case 'data':
      return receive(message.id, message.bytes);
    case 'end':
      return hangUp(message.id);
    case 'dump':
      line = line.then(async () => {
        const bytes = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
        send({ type: 'dump', bytes }, [bytes.buffer]);
      });
      return;
    case 'close':
      line = line.then(async () => {
        await db.close();
        send({ type: 'closed' });
        port.close();
      });
      return;
  }
});
