import os from 'node:os';
import { and, eq, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import pg from 'pg';
import { ChatFinishReasons } from '../../../shared/contracts/chat.ts';
import type { AppContext } from '../../context.ts';
import { chatMessages } from '../../db/schema/chat.ts';
import { serverInstances } from '../../db/schema/instances.ts';

/**
 * Which instance writes which answer, so that recovery after a crash marks as interrupted only the
 * answers of instances that are gone (docs/deployment.md#crash-recovery).
 *
 * On PostgreSQL each instance registers a row in server_instances and holds, on a connection of its
 * own, the advisory lock (INSTANCE_LOCKS, its id). PostgreSQL releases the lock when that
 * connection ends, so the moment a process dies (even by SIGKILL) its answers are orphans, while an
 * instance that is alive keeps its lock however long it runs. Answers carry their writer's id
 * (chat_messages.writer_instance_id, stamped with each stored batch by chat/answer-store.ts); one
 * not stamped yet is recovered by age only (UNSTAMPED_STALE_MS), as it may be another instance's
 * answer that has not stored its first batch.
 *
 * PGlite runs inside one process: at start-up every unfinished answer is a dead one.
 */

/** The first key of the two-key advisory locks naming instances (the second is the instance id). */
const INSTANCE_LOCKS = 7_317_002;
/** An answer with no writer yet that has not been touched for this long is a dead one. */
const UNSTAMPED_STALE_MS = 120_000;
const HEARTBEAT_MS = 30_000;
/** While running, orphans of instances that died are looked for this often. */
const SWEEP_MS = 30_000;
/** Rows of instances gone this long are removed when an instance starts. */
const FORGET_AFTER = '7 days';

/** Ids of the instances alive now: those whose lock some session of this database holds. */
const liveInstanceIds = sql`(
  select objid::bigint from pg_locks
  where locktype = 'advisory' and granted and objsubid = 2 and classid::bigint = ${INSTANCE_LOCKS}
    and database = (select oid from pg_database where datname = current_database())
)`;

type Registration = { id: number; stop(): Promise<void> };

const registrations = new WeakMap<AppContext, Registration>();

/** This instance's id on PostgreSQL, once registered; null on PGlite (nothing else can write). */
export function instanceIdOf(ctx: AppContext): number | null {
  return registrations.get(ctx)?.id ?? null;
}

/** Holds the instance's lock on a connection of its own, taking it again if the connection drops. */
function holdLock(ctx: AppContext, url: string, id: number): { ready: Promise<void>; stop(): Promise<void> } {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, keepAlive: true, application_name: `tandem-instance-${id}` });
    c.on('error', (err) => ctx.log.error({ err, instance: id }, 'the instance lock connection failed'));
    c.on('end', () => {
      if (stopped || client !== c) return;
      // Until the lock is taken again, another instance starting now would take this instance's
      // unfinished answers for orphans: say so, and take it back at once.
      ctx.log.error({ instance: id }, 'the instance lock connection ended; taking the lock again');
      client = undefined;
      retry = setTimeout(() => void connect().catch(() => {}), 1000);
      retry.unref();
    });
    await c.connect();
    await c.query('select pg_advisory_lock($1, $2)', [INSTANCE_LOCKS, id]);
    client = c;
  };
  return {
    ready: connect(),
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}

/**
 * Registers this instance (PostgreSQL) before it takes requests: a row, then the lock named by its
 * id. The returned registration's stop releases both, at close.
 */
export async function registerInstance(ctx: AppContext): Promise<void> {
  const url = ctx.database.url;
  if (ctx.database.kind !== 'postgres' || !url || registrations.has(ctx)) return;
  const [row] = await ctx.db.insert(serverInstances).values({ host: os.hostname(), pid: process.pid }).returning({ id: serverInstances.id });
  const lock = holdLock(ctx, url, row.id);
  await lock.ready;
  const heartbeat = setInterval(() => {
    ctx.db
      .update(serverInstances)
      .set({ heartbeatAt: sql`now()` })
      .where(eq(serverInstances.id, row.id))
      .catch((err: unknown) => ctx.log.warn({ err }, 'instance heartbeat failed'));
  }, HEARTBEAT_MS);
  heartbeat.unref();
  registrations.set(ctx, {
    id: row.id,
    async stop() {
      clearInterval(heartbeat);
      await lock.stop();
    },
  });
  await ctx.db
    .delete(serverInstances)
    .where(and(lt(serverInstances.heartbeatAt, sql`now() - ${FORGET_AFTER}::interval`), notInArray(serverInstances.id, liveInstanceIds)));
}

/** Releases this instance's lock (its answers are stored by then, or are orphans). */
export async function unregisterInstance(ctx: AppContext): Promise<void> {
  const registration = registrations.get(ctx);
  registrations.delete(ctx);
  await registration?.stop();
}

/**
 * Ends as 'interrupted' the unfinished answers nobody writes any more, keeping their stored text.
 * On PostgreSQL: answers whose writer holds no lock, and unstamped ones untouched for
 * UNSTAMPED_STALE_MS; on PGlite, at start-up, every one. Returns how many were marked.
 */
export async function recoverOrphanedAnswers(ctx: AppContext): Promise<number> {
  const orphaned =
    ctx.database.kind === 'pglite'
      ? undefined
      : or(
          and(sql`${chatMessages.writerInstanceId} is not null`, sql`${chatMessages.writerInstanceId} not in ${liveInstanceIds}`),
          and(isNull(chatMessages.writerInstanceId), lt(chatMessages.updatedAt, sql`now() - make_interval(secs => ${UNSTAMPED_STALE_MS / 1000})`)),
        );
  const marked = await ctx.db
    .update(chatMessages)
    .set({ finishReason: ChatFinishReasons.interrupted, finishedAt: sql`now()` })
    .where(and(isNull(chatMessages.finishReason), orphaned))
    .returning({ id: chatMessages.id });
  if (marked.length > 0) ctx.log.warn({ count: marked.length }, 'marked interrupted chat messages (their instance is gone)');
  return marked.length;
}

/** While the instance runs (PostgreSQL): answers of instances that died are ended within SWEEP_MS. Returns the stop. */
export function startOrphanSweep(ctx: AppContext): () => void {
  if (ctx.database.kind !== 'postgres') return () => {};
  const timer = setInterval(() => {
    recoverOrphanedAnswers(ctx).catch((err: unknown) => ctx.log.error({ err }, 'sweeping orphaned chat messages failed'));
  }, SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
