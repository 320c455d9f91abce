import { EventEmitter } from 'node:events';
import pg from 'pg';
import { Redis } from 'ioredis';

/**
 * Messages between API instances (stop a stream running elsewhere, drop a cache). Redis pub/sub when
 * REDIS_URL is set, else PostgreSQL LISTEN/NOTIFY, else (PGlite: one process) in-process only.
 */
export type Bus = {
  publish(channel: string, message: string): Promise<void>;
  /** Returns the unsubscribe. */
  subscribe(channel: string, handler: (message: string) => void): () => void;
  close(): Promise<void>;
};

const CHANNEL_PREFIX = 'tandem_';

export function localBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(channel, message) {
      emitter.emit(channel, message);
    },
    subscribe(channel, handler) {
      emitter.on(channel, handler);
      return () => emitter.off(channel, handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/** A bus where publish goes out and messages come back through `deliver`, fanned out locally. */
function fanOut(
  send: (channel: string, message: string) => Promise<void>,
  listen: (channel: string) => Promise<void>,
  onError: (err: Error) => void,
) {
  const local = localBus();
  const listening = new Set<string>();
  return {
    deliver: (channel: string, message: string) => void local.publish(channel, message),
    bus: {
      publish: send,
      subscribe(channel: string, handler: (message: string) => void) {
        if (!listening.has(channel)) {
          listening.add(channel);
          // A connection closing before its LISTEN completes must not become an unhandled rejection.
          listen(channel).catch(onError);
        }
        return local.subscribe(channel, handler);
      },
      close: local.close,
    } satisfies Bus,
  };
}

export async function postgresBus(url: string, onError: (err: Error) => void): Promise<Bus> {
  const listener = new pg.Client({ connectionString: url });
  listener.on('error', onError);
  await listener.connect();
  const sender = new pg.Pool({ connectionString: url, max: 2 });
  sender.on('error', onError);
  // One connection runs one query at a time: the LISTENs of channels subscribed together wait in turn.
  let listens: Promise<unknown> = Promise.resolve();
  const { bus, deliver } = fanOut(
    async (channel, message) => {
      await sender.query('select pg_notify($1, $2)', [CHANNEL_PREFIX + channel, message]);
    },
    async (channel) => {
      const listen = listens.then(() => listener.query(`LISTEN ${pg.escapeIdentifier(CHANNEL_PREFIX + channel)}`));
      listens = listen.catch(() => undefined);
      await listen;
    },
    onError,
  );
  listener.on('notification', (n) => deliver(n.channel.slice(CHANNEL_PREFIX.length), n.payload ?? ''));
  return {
    ...bus,
    async close() {
      await bus.close();
      await listener.end().catch(() => {});
      await sender.end().catch(() => {});
    },
  };
}

export async function redisBus(url: string, onError: (err: Error) => void): Promise<Bus> {
  const sub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const pubClient = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  sub.on('error', onError);
  pubClient.on('error', onError);
  await Promise.all([sub.connect(), pubClient.connect()]);
  const { bus, deliver } = fanOut(
    async (channel, message) => {
      await pubClient.publish(CHANNEL_PREFIX + channel, message);
    },
    async (channel) => {
      await sub.subscribe(CHANNEL_PREFIX + channel);
    },
    onError,
  );
  sub.on('message', (channel: string, message: string) => deliver(channel.slice(CHANNEL_PREFIX.length), message));
  return {
    ...bus,
    async close() {
      await bus.close();
      sub.disconnect();
      pubClient.disconnect();
    },
  };
}
