import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';

/**
 * Takes the user's row lock for the rest of the transaction. Every per-user limit (prompts and
 * prompt imports, share links, ...) counts and writes after it, so concurrent requests of one user
 * are checked one after the other and the count never passes the limit (docs/security.md#per-user-limits).
 * Other users are not held up: the lock is one row.
 */
export async function lockUser(tx: Db, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}
