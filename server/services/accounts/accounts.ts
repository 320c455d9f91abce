import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { and, count, desc, eq, gt, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';
import { tempKeys, users } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AddUserRequest } from '../../../shared/contracts/account.ts';
import { UserSettingSchema, type UserSetting } from '../../../shared/contracts/user.ts';
import { hashSecret, issueToken, newSecret, revokeAllTokens } from './auth.ts';
import { blockedSecondsSql, clearFailedLogins, recordFailedLogin } from './login-backoff.ts';
import { revokeAllShares } from '../chat/shares.ts';
import { findInviter } from '../points/invites.ts';
import { ensureBalance } from '../points/ledger.ts';
import { notify } from '../notifications/notifications.ts';
import { isUniqueViolation } from '../../core/db-errors.ts';
import { maskEmail } from '../../core/log-safety.ts';

const TEMP_KEY_TTL_MS = 60_000;
// 2 = Argon2id (the package's const enum cannot be imported under isolatedModules).
const ARGON2 = { algorithm: 2 } as const;

/** The stored form of a password (Argon2id), as sign-up makes it. */
export const hashPassword = (password: string) => hash(password, ARGON2);

/** Verified against for unknown e-mails, so a failed login takes as long whether the account exists or not. */
let dummyHash: Promise<string> | undefined;

export async function createAccount(
  ctx: AppContext,
  input: AddUserRequest,
  role?: 'user' | 'admin',
): Promise<{ userId: string; userName: string; email: string }> {
  const taken = await ctx.db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${input.email}`).limit(1);
  if (taken.length) throw new AppError(Codes.Conflict, 'emailTaken');
  const passwordHash = await hash(input.password, ARGON2);
  return insertAccount(ctx, { ...input, passwordHash, emailVerified: false }, role);
}

/**
 * An account made through a sign-in provider (server/services/accounts/sign-in-providers.ts): no
 * password until the person sets one in Settings; the e-mail counts as verified only when the
 * provider said so.
 */
export function createProviderAccount(
  ctx: AppContext,
  input: { email: string; userName?: string; emailVerified: boolean },
): Promise<{ userId: string; userName: string; email: string }> {
  return insertAccount(ctx, { ...input, passwordHash: null });
}

type NewAccount = { email: string; userName?: string; inviteCode?: string; passwordHash: string | null; emailVerified: boolean };

async function insertAccount(ctx: AppContext, input: NewAccount, role?: 'user' | 'admin'): Promise<{ userId: string; userName: string; email: string }> {
  const { db } = ctx;
  const { passwordHash } = input;
  const userId = randomUUID();
  const userName = (input.userName || input.email.split('@')[0]).slice(0, 50);
  // The very first account administers the server, unless the operator named an admin. Checked
  // after the slow hash, right before the insert, to keep the window for a second "first" small.
  let effectiveRole = role ?? 'user';
  if (!role && !ctx.config.ADMIN_EMAIL) {
    const [{ n }] = await db.select({ n: count() }).from(users);
    if (n === 0) effectiveRole = 'admin';
  }
  // A code that names no active account is ignored, and the answer is the same either way: sign-up
  // does not tell whether a code exists (docs/economy.md#invites).
  const inviter = input.inviteCode ? await findInviter(db, input.inviteCode) : null;
  try {
    // With its balance row or not at all: charging points relies on the row existing.
    await db.transaction(async (tx) => {
      await tx
        .insert(users)
        .values({
          id: userId,
          email: input.email,
          passwordHash,
          userName,
          role: effectiveRole,
          inviteCode: input.inviteCode || null,
          invitedBy: inviter?.id ?? null,
          emailVerifiedAt: input.emailVerified ? new Date() : null,
        });
      await ensureBalance(tx, userId);
      if (inviter) await notifyInvited(tx, userId, inviter.userName);
    });
  } catch (err) {
    // Two sign-ups with one e-mail at once: the unique index decides.
    if (isUniqueViolation(err)) throw new AppError(Codes.Conflict, 'emailTaken');
    throw err;
  }
  if (effectiveRole === 'admin' && !role) {
    ctx.log.warn({ userId, email: maskEmail(input.email) }, 'first account created: it is the administrator (set ADMIN_EMAIL to choose one)');
  }
  return { userId, userName, email: input.email };
}

/** The invitee's welcome, once (its dedupe key names the account). */
const notifyInvited = (db: Db, userId: string, inviterName: string) =>
  notify(db, {
    userId,
    kind: 'invite',
    titleKey: 'notifications.invitedWelcome.title',
    bodyKey: 'notifications.invitedWelcome.body',
    params: { name: inviterName },
    dedupeKey: `invited-welcome:${userId}`,
  });

/** Checks the password and hands out a single-use temp key, as the central login page does. */
export async function login(ctx: AppContext, email: string, password: string): Promise<{ tempKey: string }> {
  const rows = await ctx.db
    .select({ id: users.id, passwordHash: users.passwordHash, status: users.status, blockedSeconds: blockedSecondsSql })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  const user = rows[0];
  if (!user) {
    // An unknown address keeps no counter but answers like a known one (docs/security.md#login-back-off).
    dummyHash ??= hash('not-a-real-password', ARGON2);
    await verify(await dummyHash, password).catch(() => false);
    throw new AppError(Codes.LoginFailed, 'loginFailed');
  }
  // Refused before the hash is checked: a blocked account gives a guesser no answer about passwords.
  if (user.blockedSeconds > 0) throw new AppError(Codes.RateLimited, 'loginBlocked', { seconds: user.blockedSeconds });
  // An account made through a sign-in provider has no password until it sets one.
  // Checked against the dummy hash then, so the answer takes as long as for a wrong password.
  dummyHash ??= hash('not-a-real-password', ARGON2);
  const checked = await verify(user.passwordHash ?? (await dummyHash), password).catch(() => false);
  const ok = checked && !!user.passwordHash;
  if (!ok) {
    await recordFailedLogin(ctx.db, user.id);
    throw new AppError(Codes.LoginFailed, 'loginFailed');
  }
  await clearFailedLogins(ctx.db, user.id);
  if (user.status !== 'active') throw new AppError(Codes.LoginFailed, 'accountClosed');
  return { tempKey: await issueTempKey(ctx.db, user.id) };
}

/** A single-use key, valid 60 s, that GetTokenForTempKey exchanges for a token: what a login hands the page. */
export async function issueTempKey(db: Db, userId: string): Promise<string> {
  const tempKey = newSecret();
  await db.insert(tempKeys).values({ keyHash: hashSecret(tempKey), userId, expiresAt: new Date(Date.now() + TEMP_KEY_TTL_MS) });
  return tempKey;
}

/** Consumes a temp key in one statement, so even two parallel exchanges get one token between them. */
export async function exchangeTempKey(ctx: AppContext, tempKey: string): Promise<string> {
  const used = await ctx.db
    .update(tempKeys)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(tempKeys.keyHash, hashSecret(tempKey)),
        isNull(tempKeys.usedAt),
        gt(tempKeys.expiresAt, sql`now()`),
        // A closed account's keys give nothing, even one made just before it was closed.
        sql`exists (select 1 from ${users} u where u.id = ${tempKeys.userId} and u.status = 'active')`,
      ),
    )
    .returning({ userId: tempKeys.userId });
  if (!used.length) throw new AppError(Codes.LoginFailed, 'tempKeyInvalid');
  return issueToken(ctx.db, used[0].userId, {
    ttlDays: ctx.config.TOKEN_TTL_DAYS,
    renewAfterSeconds: ctx.config.TOKEN_RENEW_AFTER_SECONDS,
  });
}

/**
 * A token for an active account by its e-mail, with no password: only ever reached through
 * GetTokenForTest, which exists in test runs alone (TEST_TOKEN_ROUTE, docs/api.md#gettokenfortest).
 */
export async function tokenForTest(ctx: AppContext, email: string): Promise<string> {
  const [found] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, eq(users.status, 'active')));
  if (!found) throw new AppError(Codes.NotFound, 'notFound');
  return issueToken(ctx.db, found.id, { ttlDays: ctx.config.TOKEN_TTL_DAYS, renewAfterSeconds: ctx.config.TOKEN_RENEW_AFTER_SECONDS });
}

/** Sets (or, null, removes) the user's phone number; one already on another account answers 10409. */
export async function updatePhone(db: Db, userId: string, phone: string | null): Promise<void> {
  try {
    await db.update(users).set({ phone, updatedAt: sql`now()` }).where(eq(users.id, userId));
  } catch (err) {
    if (isUniqueViolation(err, 'users_phone_uq')) throw new AppError(Codes.Conflict, 'phoneTaken');
    throw err;
  }
}

export async function updateNickName(db: Db, userId: string, userName: string): Promise<void> {
  await db.update(users).set({ userName, updatedAt: sql`now()` }).where(eq(users.id, userId));
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Keeps each field (nested objects field by field) that the schema accepts, and drops the rest. */
function keepValid(shape: Record<string, z.ZodType>, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(value)) return out;
  for (const [key, field] of Object.entries(value)) {
    const schema = shape[key];
    if (!schema) continue;
    const inner = schema instanceof z.ZodOptional ? schema.unwrap() : schema;
    if (inner instanceof z.ZodObject) {
      if (isRecord(field)) out[key] = keepValid(inner.shape, field);
      continue;
    }
    const parsed = schema.safeParse(field);
    if (parsed.success && parsed.data !== undefined) out[key] = parsed.data;
  }
  return out;
}

/** What is stored may come from an older version: keep the valid fields, drop the rest. */
export const readSettings = (stored: unknown): UserSetting => keepValid(UserSettingSchema.shape, stored) as UserSetting;

export async function getSettings(db: Db, userId: string): Promise<UserSetting> {
  const rows = await db.select({ settings: users.settings }).from(users).where(eq(users.id, userId));
  return readSettings(rows[0]?.settings);
}

const jsonObject = (expr: SQL) => sql`(case when jsonb_typeof(${expr}) = 'object' then ${expr} else '{}'::jsonb end)`;

/**
 * Merges in one statement, so the extension and the web app saving at once do not lose each other's
 * fields; personalization is merged field by field too.
 */
export async function saveSettings(db: Db, userId: string, patch: UserSetting): Promise<UserSetting> {
  const { personalization, ...top } = patch;
  const current = jsonObject(sql`${users.settings}`);
  let merged = sql`${current} || ${JSON.stringify(top)}::jsonb`;
  if (personalization) {
    const currentPersonalization = jsonObject(sql`${users.settings} -> 'personalization'`);
    merged = sql`${merged} || jsonb_build_object('personalization', ${currentPersonalization} || ${JSON.stringify(personalization)}::jsonb)`;
  }
  const rows = await db
    .update(users)
    .set({ settings: merged, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning({ settings: users.settings });
  return readSettings(rows[0]?.settings);
}

export async function closeAccount(ctx: AppContext, userId: string): Promise<boolean> {
  const { db } = ctx;
  const closed = await db.update(users).set({ status: 'closed', updatedAt: sql`now()` }).where(eq(users.id, userId)).returning({ id: users.id });
  if (closed.length) {
    await revokeAllShares(db, userId);
    await revokeAllTokens(ctx, userId);
  }
  return closed.length > 0;
}

export async function listUsers(db: Db, q: { page: number; count: number; email?: string }) {
  const where = q.email ? ilike(users.email, `%${escapeLike(q.email)}%`) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ userId: users.id, email: users.email, userName: users.userName, role: users.role, status: users.status, createdAt: users.createdAt })
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt))
      .limit(q.count)
      .offset((q.page - 1) * q.count),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return {
    list: rows.map(({ createdAt, ...u }) => ({ ...u, createTime: createdAt.toISOString() })),
    total,
  };
}

/** ADMIN_EMAIL + ADMIN_PASSWORD: create that administrator, or promote the existing account (its password kept). */
export async function bootstrapAdmin(ctx: AppContext): Promise<void> {
  const { ADMIN_EMAIL, ADMIN_PASSWORD } = ctx.config;
  if (!ADMIN_EMAIL || !ADMIN_PASSWORD) return;
  const email = ADMIN_EMAIL.trim().toLowerCase();
  const promoted = await ctx.db
    .update(users)
    .set({ role: 'admin', updatedAt: sql`now()` })
    .where(sql`lower(${users.email}) = ${email}`)
    .returning({ id: users.id });
  if (promoted.length) {
    ctx.log.info({ email: maskEmail(email) }, 'ADMIN_EMAIL: existing account is an administrator');
    return;
  }
  try {
    await createAccount(ctx, { email, password: ADMIN_PASSWORD }, 'admin');
    ctx.log.info({ email: maskEmail(email) }, 'ADMIN_EMAIL: administrator account created');
  } catch (err) {
    // Another instance starting at the same moment created it.
    if (!(err instanceof AppError && err.code === Codes.Conflict)) throw err;
  }
}
