import type { Duplex } from 'node:stream';
import pg from 'pg';

/**
 * A few PostgreSQL connections in pg's pipeline mode, for the statements of the hot path (one per
 * chat start, one per batch of answers' ends: `runPrepared` in client.ts).
 *
 * Through the pool, each statement checks a connection out, waits for its reply and gives it back on
 * a later turn of the event loop, so under load a busy loop kept every connection idle between
 * round trips while the chat starts queued for one (bench/README.md, load). Here a statement is
 * written at once on the connection with the fewest in flight, behind the others: each still has its
 * own Sync, so it is its own transaction and one statement's error does not touch the next. The
 * statements written in one turn leave in one write (the socket is corked until the turn's ticks
 * are done), and PostgreSQL answers them in order.
 *
 * A statement waiting for a row lock holds up those behind it on its connection. A connection that
 * has answered nothing for HELD_UP_MS while it carries statements gets no new ones while another
 * does not look held up, so new statements pass the lock on another connection. A connection that fails
 * rejects what it carried (nothing is retried: a chat start may have committed) and is replaced for
 * the next statement.
 */

/** Enough for the writes to pass a connection held up by a lock; each is one PostgreSQL backend. */
const CONNECTIONS = 2;
/** The embedded database (PGlite) has one session: one connection prepares its named statements. */
const EMBEDDED_CONNECTIONS = 1;
/** A statement of the hot path takes about a millisecond; a connection silent this long is held up. */
const HELD_UP_MS = 50;

type Connection = {
  client: pg.Client;
  connected: Promise<unknown>;
  inFlight: number;
  /** When it last answered, or was given a statement while it carried none. */
  progressAt: number;
  broken: boolean;
  corked: boolean;
};

export type Pipelines = {
  query<T extends Record<string, unknown>>(q: { name: string; text: string; values: unknown[] }): Promise<T[]>;
  close(): Promise<void>;
};

/** On PostgreSQL at `url`, or on the embedded database through `stream` (pglite-engine.ts). */
export function openPipelines(to: { url: string } | { stream: () => Duplex }): Pipelines {
  const target = 'url' in to ? { connectionString: to.url } : { stream: to.stream, user: 'postgres', database: 'postgres' };
  const open = (): Connection => {
    const client = new pg.Client({ ...target, pipeline: true, keepAlive: true, application_name: 'tandem-pipeline' });
    const c: Connection = { client, connected: client.connect(), inFlight: 0, progressAt: 0, broken: false, corked: false };
    const lost = () => {
      c.broken = true;
    };
    c.connected.catch(lost);
    client.on('error', lost);
    client.on('end', lost);
    return c;
  };
  const connections = Array.from({ length: 'url' in to ? CONNECTIONS : EMBEDDED_CONNECTIONS }, open);
  let closing = false;

  const pick = (): Connection => {
    for (let i = 0; i < connections.length; i++) {
      if (!connections[i]!.broken) continue;
      connections[i]!.client.end().catch(() => {});
      connections[i] = open();
    }
    const now = performance.now();
    const heldUp = (c: Connection) => c.inFlight > 0 && now - c.progressAt > HELD_UP_MS;
    const flowing = connections.filter((c) => !heldUp(c));
    return (flowing.length ? flowing : connections).reduce((best, c) => (c.inFlight < best.inFlight ? c : best));
  };

  return {
    async query<T extends Record<string, unknown>>(q: { name: string; text: string; values: unknown[] }) {
      if (closing) throw new Error('the database is closing');
      const c = pick();
      if (c.inFlight++ === 0) c.progressAt = performance.now();
      try {
        await c.connected;
        if (!c.corked) {
          const socket = c.client.connection.stream;
          c.corked = true;
          socket.cork();
          process.nextTick(() => {
            c.corked = false;
            socket.uncork();
          });
        }
        return (await c.client.query<T>(q)).rows;
      } finally {
        c.inFlight--;
        c.progressAt = performance.now();
      }
    },
    async close() {
      closing = true;
      // pg ends a pipelined connection once what it carries has been answered.
      await Promise.all(connections.map((c) => c.client.end().catch(() => {})));
    },
  };
}
