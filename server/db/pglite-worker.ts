import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { FromPglite, PgliteWorkerData, ToPglite } from './pglite-engine.ts';

/**
 * The embedded database's thread (started by pglite-engine.ts): PGlite runs here, off the server's
 * event loop, and speaks PostgreSQL's wire protocol to the connections the server opens over the
 * message port, so the server reaches it with the `pg` driver exactly as it reaches PostgreSQL.
 *
 * PGlite has one session, which the connections share: what a connection sends in one piece (pg
 * writes a statement's Parse, Bind, Execute and Sync at once) runs whole, one piece at a time in
 * arrival order, except that while a connection is inside a transaction only its own pieces run
 * (the others wait, as they would for its locks on PostgreSQL). A connection that ends has its
 * transaction rolled back and the statements it prepared deallocated, so a new one finds the
 * session as a new PostgreSQL connection would. Each statement name is prepared by one connection
 * (client.ts gives the named statements to one pipelined connection).
 */

const port = parentPort!;
const { dataDir, loadDataDir } = workerData as PgliteWorkerData;

/** The code of an SSL request in a startup message's place. */
const SSL_REQUEST = 80_877_103;
/** A Parse message's type byte ('P'). */
const PARSE = 0x50;

type Connection = { buffer: Buffer; started: boolean; prepared: Set<string> };
const connections = new Map<number, Connection>();

/** Work for the session: `id` 0 is the thread's own (dump, close), which runs outside transactions. */
type Task = { id: number; run: () => Promise<void> };
const waiting: Task[] = [];
/** The connection whose transaction is open: only its tasks run until it ends. */
let owner: number | null = null;
let running = false;

const send = (message: FromPglite, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

let db: PGlite;
try {
  db = await PGlite.create(dataDir, { extensions: { pg_trgm }, ...(loadDataDir ? { loadDataDir } : {}) });
  send({ type: 'ready' });
} catch (err) {
  send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  process.exit(1);
}

function enqueue(task: Task): void {
  waiting.push(task);
  if (!running) void pump();
}

/** Runs the tasks that may run, in order, until none may. */
async function pump(): Promise<void> {
  running = true;
  for (;;) {
    const next = waiting.findIndex((t) => owner === null || t.id === owner);
    if (next < 0) break;
    const [task] = waiting.splice(next, 1);
    await task!.run().catch((err: unknown) => console.error('the embedded database failed a task', err));
  }
  running = false;
}

/** Runs a piece of a connection's messages and answers its bytes. */
function execute(id: number, messages: Buffer): void {
  enqueue({
    id,
    run: async () => {
      if (!connections.has(id)) return;
      let out: Uint8Array;
      try {
        out = await db.runExclusive(() => db.execProtocolRaw(messages));
      } catch (err) {
        send({ type: 'error', id, message: err instanceof Error ? err.message : String(err) });
        return;
      } finally {
        owner = db.isInTransaction() ? id : null;
      }
      if (out.length === 0) return;
      // An answer of its own to transfer (the startup's is a view of a buffer PGlite reuses).
      const bytes = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out : out.slice();
      send({ type: 'data', id, bytes }, [bytes.buffer as ArrayBuffer]);
    },
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
      execute(id, startup);
    }
    if (c.buffer.length) receive(id, new Uint8Array(0));
    return;
  }
  let end = 0;
  while (end + 5 <= c.buffer.length && end + 1 + c.buffer.readInt32BE(end + 1) <= c.buffer.length) {
    // A Parse names its statement first; an unnamed one ends at once.
    if (c.buffer[end] === PARSE && c.buffer[end + 5] !== 0) c.prepared.add(c.buffer.toString('utf8', end + 5, c.buffer.indexOf(0, end + 5)));
    end += 1 + c.buffer.readInt32BE(end + 1);
  }
  if (end === 0) return;
  execute(id, c.buffer.subarray(0, end));
  c.buffer = c.buffer.subarray(end);
}

/** A connection that ends: its transaction rolled back, what it prepared deallocated. */
function hangUp(id: number): void {
  enqueue({
    id,
    run: async () => {
      const c = connections.get(id);
      if (!c) return;
      connections.delete(id);
      if (owner === id) await db.exec('rollback').catch(() => {});
      owner = null;
      for (const name of c.prepared) await db.exec(`deallocate "${name.replaceAll('"', '""')}"`).catch(() => {});
    },
  });
}

port.on('message', (message: ToPglite) => {
  switch (message.type) {
    case 'open':
      connections.set(message.id, { buffer: Buffer.alloc(0), started: false, prepared: new Set() });
      return;
    case 'data':
      return receive(message.id, message.bytes);
    case 'end':
      return hangUp(message.id);
    case 'dump':
      return enqueue({
        id: 0,
        run: async () => {
          const bytes = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
          send({ type: 'dump', bytes }, [bytes.buffer]);
        },
      });
    case 'close':
      return enqueue({
        id: 0,
        run: async () => {
          await db.close();
          send({ type: 'closed' });
          port.close();
        },
      });
  }
});
