import { createHash, createHmac, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { SqlValue } from '../../db/compiled.ts';
import { authTokens, tempKeys, users, vipOrders } from '../../db/schema/users.ts';
import { derivedKey } from '../system/secrets.ts';

export type VipOrder = { vipOrderId: string; vipPackageLevel: number; vipPackageName: string; endTime: string };

export type AuthUser = {
  id: string;
  email: string;
  userName: string;
  role: 'user' | 'admin';
  vipOrder: VipOrder | null;
  /** 0 for free users, else the active order's package level (1 to 3). */
  vipLevel: number;
  /** Who invited this account (null: nobody): only invited accounts may owe their inviter a credit. */
  invitedBy: string | null;
  /** The id of the user's picture in the file store (head-img.ts); null or absent without one. */
  headImg?: string | null;
  /** The phone number the user gave (normalised); null or absent without one. */
  phone?: string | null;
};

export type TokenPolicy = { ttlDays: number; renewAfterSeconds: number };

/** When a token is renewed, the old one keeps working this long, so requests in flight do not fail. */
const RENEW_GRACE_MS = 60_000;

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('base64url');
/** 256 random bits, URL-safe. */
export const newSecret = () => randomBytes(32).toString('base64url');

/** A new login's first token; `loginId` (the chain's id) is its own hash. */
export async function issueToken(db: Db, userId: string, policy: TokenPolicy): Promise<string> {
  const token = newSecret();
  const tokenHash = hashSecret(token);
  await db.insert(authTokens).values({
    tokenHash,
    userId,
    loginId: tokenHash,
    expiresAt: new Date(Date.now() + policy.ttlDays * 86_400_000),
  });
  return token;
}

/**
 * The one successor of a token: derived from it under the server's secret, so every request that
 * presents the old token while it is being renewed (the web app starts with several calls at once)
 * is handed the same new token, on any instance sharing SECRET_KEY, and a login never forks into
 * siblings that outlive its Logout. Only the server can derive it: a token seen once in the past
 * does not give the tokens after it.
 */
const successorOf = (ctx: AppContext, rawToken: string) =>
  createHmac('sha256', derivedKey(ctx, 'token-renewal')).update(rawToken).digest('base64url');

async function renewToken(ctx: AppContext, rawToken: string, tokenHash: string, row: { id: string; loginId: string }, policy: TokenPolicy) {
  const renewedToken = successorOf(ctx, rawToken);
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(authTokens)
      .values({ tokenHash: hashSecret(renewedToken), userId: row.id, loginId: row.loginId, expiresAt: new Date(Date.now() + policy.ttlDays * 86_400_000) })
      .onConflictDoNothing();
    await tx
      .update(authTokens)
      .set({ expiresAt: sql`least(${authTokens.expiresAt}, ${new Date(Date.now() + RENEW_GRACE_MS)})` })
      .where(eq(authTokens.tokenHash, tokenHash));
  });
  return renewedToken;
}

/** The plan in force: the highest-level order that has not ended. */
export const activeVipOrderSql = (userIdColumn: unknown) => sql<VipOrder | null>`(
  select json_build_object('vipOrderId', v.id, 'vipPackageLevel', v.package_level, 'vipPackageName', v.package_name,
    'endTime', to_char(v.end_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
  from ${vipOrders} v where v.user_id = ${userIdColumn} and v.end_time > now()
  order by v.package_level desc, v.end_time desc limit 1)`;

/**
 * Resolves a bearer token to its user in one query. Returns a renewed token when this one is older
 * than the renewal age (sliding expiry); the caller sends it in the Authorization response header.
 */
export async function authenticate(
  ctx: AppContext,
  rawToken: string,
  policy: TokenPolicy,
): Promise<{ user: AuthUser; renewedToken?: string; validUntil?: number } | null> {
  if (!rawToken || rawToken.length > 200) return null;
  const tokenHash = hashSecret(rawToken);
  const rows = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      userName: users.userName,
      role: users.role,
      invitedBy: users.invitedBy,
      headImg: users.headImg,
      phone: users.phone,
      loginId: authTokens.loginId,
      tokenCreatedAt: authTokens.createdAt,
      tokenExpiresAt: authTokens.expiresAt,
      vipOrder: activeVipOrderSql(users.id),
    })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(
      and(
        eq(authTokens.tokenHash, tokenHash),
        isNull(authTokens.revokedAt),
        gt(authTokens.expiresAt, sql`now()`),
        eq(users.status, 'active'),
      ),
    )
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const user: AuthUser = {
    id: row.id,
    email: row.email,
    userName: row.userName,
    role: row.role,
    vipOrder: row.vipOrder ?? null,
    vipLevel: row.vipOrder?.vipPackageLevel ?? 0,
    invitedBy: row.invitedBy,
    headImg: row.headImg,
    phone: row.phone,
  };
  const renewAt = row.tokenCreatedAt.getTime() + policy.renewAfterSeconds * 1000;
  if (Date.now() < renewAt) {
    // What is read here holds until the token is due for renewal, expires, or the plan ends.
    const planEnds = user.vipOrder ? Date.parse(user.vipOrder.endTime) : Infinity;
    return { user, validUntil: Math.min(renewAt, row.tokenExpiresAt.getTime(), planEnds) };
  }
  return { user, renewedToken: await renewToken(ctx, rawToken, tokenHash, row, policy) };
}

/**
 * Tokens verified recently, for routes on the chat's hot path (no database round trip before the
 * model is called). An entry holds for CACHE_MS at most, and never past the token's renewal age, its
 * expiry or the end of the plan it saw. It is a hint, not the authority: the statement that charges
 * a message checks the token and the plan again in the same round trip (tokenStillValidSql,
 * planLevelSql), so a revoked token or a plan ended early is refused there; revocation also drops
 * entries at once here and, through the bus, in every other instance. A plan bought meanwhile is
 * seen by asking again with `fresh` before refusing the user (see AddMessage).
 */
const CACHE_MS = 10 * 60_000;
const CACHE_MAX = 10_000;
const REVOKE_CHANNEL = 'auth-revoke';
type CachedUser = { user: AuthUser; until: number };
const caches = new WeakMap<AppContext, Map<string, CachedUser>>();

function forget(cache: Map<string, CachedUser>, message: string) {
  if (message.startsWith('t:')) cache.delete(message.slice(2));
  else for (const [hash, entry] of cache) if (entry.user.id === message.slice(2)) cache.delete(hash);
}

function cacheOf(ctx: AppContext): Map<string, CachedUser> {
  let cache = caches.get(ctx);
  if (!cache) {
    const created = new Map<string, CachedUser>();
    caches.set(ctx, (cache = created));
    ctx.bus.subscribe(REVOKE_CHANNEL, (message) => forget(created, message));
  }
  return cache;
}

/** `fresh` skips the cache (and refreshes it): for when a stale plan would refuse the user. */
export async function authenticateCached(ctx: AppContext, rawToken: string, policy: TokenPolicy, fresh = false) {
  const cache = cacheOf(ctx);
  const tokenHash = hashSecret(rawToken);
  const hit = cache.get(tokenHash);
  if (!fresh && hit && hit.until > Date.now()) return { user: hit.user };
  const found = await authenticate(ctx, rawToken, policy);
  if (found?.validUntil) {
    cache.delete(tokenHash);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(tokenHash, { user: found.user, until: Math.min(Date.now() + CACHE_MS, found.validUntil) });
  } else cache.delete(tokenHash);
  return found;
}

/**
 * Whose token this is, for keying rate limits by person rather than by address: from the token
 * cache when it holds it, else one lookup by the token's hash (no renewal, no plan). Null for a
 * token that is not live (the route then refuses it anyway).
 */
export async function userIdOfToken(ctx: AppContext, rawToken: string): Promise<string | null> {
  if (!rawToken || rawToken.length > 200) return null;
  const tokenHash = hashSecret(rawToken);
  const hit = cacheOf(ctx).get(tokenHash);
  if (hit && hit.until > Date.now()) return hit.user.id;
  const [row] = await ctx.db
    .select({ userId: authTokens.userId })
    .from(authTokens)
    .where(and(eq(authTokens.tokenHash, tokenHash), isNull(authTokens.revokedAt), gt(authTokens.expiresAt, sql`now()`)));
  return row?.userId ?? null;
}

/** Drops one token's cached user in this instance (the database refused what the cache said). */
export function forgetCachedToken(ctx: AppContext, tokenHash: string): void {
  cacheOf(ctx).delete(tokenHash);
}

/** In a statement: the token is not revoked or expired, and its account (`userId`) is active. */
export const tokenStillValidSql = (tokenHash: SqlValue<string>, userId: SqlValue<string>) => sql<boolean>`exists (
  select 1 from ${authTokens} t join ${users} u on u.id = t.user_id
  where t.token_hash = ${tokenHash} and t.user_id = ${userId} and t.revoked_at is null and t.expires_at > now() and u.status = 'active')`;

/** In a statement: the level of the plan in force (0 without one), as activeVipOrderSql picks it. */
export const planLevelSql = (userId: SqlValue<string>) =>
  sql<number>`coalesce((select max(v.package_level) from ${vipOrders} v where v.user_id = ${userId} and v.end_time > now()), 0)`;

async function announceRevocation(ctx: AppContext, message: string) {
  forget(cacheOf(ctx), message);
  await ctx.bus.publish(REVOKE_CHANNEL, message);
}

/** Logout: ends the login the token belongs to, every renewal of it included. */
export async function revokeToken(ctx: AppContext, rawToken: string): Promise<void> {
  const tokenHash = hashSecret(rawToken);
  const login = ctx.db.select({ loginId: authTokens.loginId }).from(authTokens).where(eq(authTokens.tokenHash, tokenHash));
  const revoked = await ctx.db
    .update(authTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(sql`${authTokens.loginId} = (${login})`, isNull(authTokens.revokedAt)))
    .returning({ tokenHash: authTokens.tokenHash });
  for (const { tokenHash: hash } of [{ tokenHash }, ...revoked]) await announceRevocation(ctx, `t:${hash}`);
}

/**
 * The statements of ending every login of the account and its temp keys not yet exchanged, on `db`
 * (a caller's transaction, so they commit with what caused them); with `keepTokenHash`, the login that
 * token belongs to (every renewal of it) stays. Tell the other instances after the commit
 * (announceLoginsEnded).
 */
export async function endLogins(db: Db, userId: string, keepTokenHash?: string): Promise<void> {
  const keep = keepTokenHash
    ? sql`${authTokens.loginId} is distinct from (select k.login_id from ${authTokens} k where k.token_hash = ${keepTokenHash})`
    : undefined;
  await db
    .update(authTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(authTokens.userId, userId), isNull(authTokens.revokedAt), keep));
  await db.update(tempKeys).set({ usedAt: sql`now()` }).where(and(eq(tempKeys.userId, userId), isNull(tempKeys.usedAt)));
}

/** Drops the account's cached tokens here and, through the bus, in every other instance. */
export const announceLoginsEnded = (ctx: AppContext, userId: string) => announceRevocation(ctx, `u:${userId}`);

/**
 * Ends every login of the account ("sign out everywhere", a password reset, Close, Delete), and the
 * temp keys not yet exchanged: a key handed out just before cannot bring a login back.
 */
export async function revokeAllTokens(ctx: AppContext, userId: string): Promise<void> {
  await endLogins(ctx.db, userId);
  await announceLoginsEnded(ctx, userId);
}

export function bearerOf(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return m ? m[1] : null;
}
