import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';

/**
 * Per-account login back-off (docs/security.md#login-back-off): the per-address limit does not stop
 * a guesser who spreads one account's attempts over many addresses, so wrong passwords are also
 * counted on the account itself, in the database, so the count holds across instances and restarts.
 * Fixed constants rather than settings: they bound guessing, and nobody should need to loosen them.
 */

/** Wrong passwords in a row after which the account refuses password logins for a while. */
export const LOGIN_BACKOFF_AFTER = 10;
/** The first delay; each further wrong password (once blocked and the delay over) doubles it. */
export const LOGIN_BACKOFF_FIRST_SECONDS = 60;
export const LOGIN_BACKOFF_MAX_SECONDS = 60 * 60;

/** Seconds left of the account's block, or 0 when password logins are open (a select column). */
export const blockedSecondsSql = sql<number>`greatest(0, coalesce(ceil(extract(epoch from (${users.loginBlockedUntil} - now()))), 0))::int`;

/**
 * Counts a wrong password in one statement: the row lock of the update makes concurrent failures
 * each count (no lost update), and the block is decided from the same row version it increments.
 */
export async function recordFailedLogin(db: Db, userId: string): Promise<void> {
  const first = LOGIN_BACKOFF_FIRST_SECONDS;
  // The exponent is capped so the power stays small however long the streak grows.
  const maxDoublings = Math.ceil(Math.log2(LOGIN_BACKOFF_MAX_SECONDS / first));
  await db.execute(sql`
    update ${users}
    set failed_logins = failed_logins + 1,
        login_blocked_until = case
          when failed_logins + 1 >= ${LOGIN_BACKOFF_AFTER}
            then now() + make_interval(secs => least(${LOGIN_BACKOFF_MAX_SECONDS}::double precision,
              ${first}::double precision * power(2, least(failed_logins + 1 - ${LOGIN_BACKOFF_AFTER}, ${maxDoublings}::int))))
          else login_blocked_until
        end
    where id = ${userId}`);
}

/** A good password or a completed reset ends the streak; skips the write when there is none. */
export async function clearFailedLogins(db: Db, userId: string): Promise<void> {
  await db.execute(sql`
    update ${users} set failed_logins = 0, login_blocked_until = null
    where id = ${userId} and (failed_logins <> 0 or login_blocked_until is not null)`);
}
