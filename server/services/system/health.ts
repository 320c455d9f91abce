import { sql } from 'drizzle-orm';
import type { Health } from '../../../shared/contracts/system.ts';
import type { AppContext } from '../../context.ts';
import { isDraining } from '../chat/running.ts';

/** A dependency that does not answer within this is down, as far as a load balancer should care. */
const CHECK_TIMEOUT_MS = 2000;

async function answers(check: () => Promise<unknown>): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS)));
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this instance can serve (docs/deployment.md#health-check): its database answers, its
 * message bus carries a message, and it is not shutting down.
 */
export async function checkHealth(ctx: AppContext): Promise<Health> {
  const busKind = ctx.config.REDIS_URL ? 'redis' : ctx.database.kind === 'postgres' && ctx.database.url ? 'postgres' : 'local';
  const [database, bus] = await Promise.all([answers(() => ctx.db.execute(sql`select 1`)), answers(() => ctx.bus.publish('health', ''))]);
  const draining = isDraining(ctx);
  const status = database === 'ok' && bus === 'ok' && !draining ? 'ok' : 'unavailable';
  return { status, database, bus, busKind, draining };
}
