import { randomUUID } from 'node:crypto';
import { verify } from '@node-rs/argon2';
import { and, asc, count, desc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import {
  PROVIDER_RETURN_PARAMS,
  type AdminSignInProvider,
  type AutoLinkRequest,
  type Provider,
  type ProviderError,
  type SaveSignInProvider,
  type UserProvider,
  type UserProviderList,
} from '../../../shared/contracts/sign-in-providers.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { providerLinkRequests, providerLogins, signInProviders, userProviders } from '../../db/schema/sign-in-providers.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';
import { isUniqueViolation } from '../../core/db-errors.ts';
import { maskEmail } from '../../core/log-safety.ts';
import {
  authorizationUrl,
  exchangeCode,
  issuerProblem,
  newChecks,
  ProviderFailure,
  type ProviderIdentity,
  type ProviderSettings,
} from '../../providers/sign-in.ts';
import { secretBox } from '../system/secrets.ts';
import { createProviderAccount, issueTempKey } from './accounts.ts';
import { hashSecret, newSecret } from './auth.ts';
import { blockedSecondsSql, clearFailedLogins, recordFailedLogin } from './login-backoff.ts';

/**
 * Sign in with another account (docs/api.md#sign-in-with-another-account). A sign-in or link starts
 * with a state record bound to the browser (a cookie's hash), lives 10 minutes and is used once by
 * the callback; the provider checks PKCE and (OpenID) the nonce. A new identity makes an account; an
 * identity whose verified e-mail names an existing account is linked only after the person proves
 * they own it (AutoLinkWeb); an unverified one that names an account is refused.
 */
const FLOW_TTL_MS = 10 * 60_000;

export const CALLBACK_PATH = '/api/Provider/Callback';

type Configured = ProviderSettings & { enabled: boolean; sortOrder: number; source: 'env' | 'console'; hasSecret: boolean };

/** The providers of the environment, in a fixed order: Google, GitHub, Microsoft, then OIDC_PROVIDERS. */
function envProviders(ctx: AppContext): Configured[] {
  const c = ctx.config;
  const out: Configured[] = [];
  const add = (p: Omit<Configured, 'enabled' | 'source' | 'hasSecret' | 'sortOrder'>) =>
    out.push({ ...p, enabled: true, source: 'env', hasSecret: true, sortOrder: out.length - 1000 });
  if (c.GOOGLE_CLIENT_ID && c.GOOGLE_CLIENT_SECRET) add({ providerKey: 'google', kind: 'google', displayName: 'Google', clientId: c.GOOGLE_CLIENT_ID, clientSecret: c.GOOGLE_CLIENT_SECRET });
  if (c.GITHUB_CLIENT_ID && c.GITHUB_CLIENT_SECRET) add({ providerKey: 'github', kind: 'github', displayName: 'GitHub', clientId: c.GITHUB_CLIENT_ID, clientSecret: c.GITHUB_CLIENT_SECRET });
  if (c.MICROSOFT_CLIENT_ID && c.MICROSOFT_CLIENT_SECRET) {
    add({ providerKey: 'microsoft', kind: 'microsoft', displayName: 'Microsoft', clientId: c.MICROSOFT_CLIENT_ID, clientSecret: c.MICROSOFT_CLIENT_SECRET, tenant: c.MICROSOFT_TENANT ?? null });
  }
  for (const p of c.OIDC_PROVIDERS) add({ providerKey: p.key, kind: 'oidc', displayName: p.name, issuer: p.issuer, clientId: p.clientId, clientSecret: p.clientSecret });
  return out;
}

/** Every provider, the environment's first; a key the environment sets hides the console's of that key. */
async function allProviders(ctx: AppContext): Promise<Configured[]> {
  const fromEnv = envProviders(ctx);
  const taken = new Set(fromEnv.map((p) => p.providerKey));
  const rows = await ctx.db.select().from(signInProviders).orderBy(asc(signInProviders.sortOrder), asc(signInProviders.createdAt));
  const box = secretBox(ctx);
  const stored: Configured[] = rows
    .filter((r) => !taken.has(r.providerKey))
    .map((r) => {
      let clientSecret = '';
      try {
        clientSecret = box.decrypt(r.clientSecretEnc);
      } catch {
        // Encrypted under another SECRET_KEY: shown in the console, never offered to sign in with.
      }
      return {
        providerKey: r.providerKey,
        kind: r.kind,
        displayName: r.displayName,
        issuer: r.issuer,
        tenant: r.tenant,
        clientId: r.clientId,
        clientSecret,
        enabled: r.enabled && clientSecret !== '',
        sortOrder: r.sortOrder,
        source: 'console' as const,
        hasSecret: clientSecret !== '',
      };
    });
  return [...fromEnv, ...stored];
}

async function enabledProvider(ctx: AppContext, providerKey: string): Promise<Configured | null> {
  return (await allProviders(ctx)).find((p) => p.providerKey === providerKey && p.enabled) ?? null;
}

/**
 * The login page's buttons: every enabled provider, but Google for visitors in mainland China, where
 * its sign-in cannot be reached (the country from the caller's address: IsChina).
 */
export async function providerList(ctx: AppContext, visitor: { isChina: boolean }): Promise<Provider[]> {
  return (await allProviders(ctx))
    .filter((p) => p.enabled && !(visitor.isChina && p.kind === 'google'))
    .map((p) => ({ providerKey: p.providerKey, displayName: p.displayName, kind: p.kind, icon: p.kind === 'oidc' ? 'key' : p.kind }));
}

const redirectUri = (ctx: AppContext) => `${ctx.config.publicUrl}${CALLBACK_PATH}`;

/**
 * Starts a sign-in (signed out) or a link (signed in): a state record bound to `browserSecret`,
 * then the provider's address. A link needs a signed-in user; a sign-in while signed in is a sign-in.
 */
export async function startProviderAction(
  ctx: AppContext,
  input: { providerKey: string; action: 'login' | 'link'; returnTo: string },
  userId: string | null,
  browserSecret: string,
): Promise<{ url: string }> {
  if (input.action === 'link' && !userId) throw new AppError(Codes.NotLoggedIn, 'notLoggedIn');
  const provider = await enabledProvider(ctx, input.providerKey);
  if (!provider) throw new AppError(Codes.NotFound, 'providerUnavailable');
  const checks = newChecks();
  let url: string;
  try {
    url = await authorizationUrl(provider, redirectUri(ctx), checks);
  } catch (err) {
    ctx.log.warn({ err, providerKey: provider.providerKey }, 'sign-in provider could not be reached');
    throw new AppError(Codes.ServiceFailed, 'providerUnreachable', { name: provider.displayName });
  }
  // Old records go as new ones come: nothing else reads them after 10 minutes.
  await ctx.db.delete(providerLogins).where(sql`${providerLogins.expiresAt} < now() - interval '1 hour'`);
  await ctx.db.insert(providerLogins).values({
    stateHash: hashSecret(checks.state),
    browserHash: hashSecret(browserSecret),
    providerKey: provider.providerKey,
    action: input.action,
    userId: input.action === 'link' ? userId : null,
    codeVerifier: checks.codeVerifier,
    nonce: checks.nonce,
    returnTo: input.returnTo,
    expiresAt: new Date(Date.now() + FLOW_TTL_MS),
  });
  return { url };
}

/** returnTo (a path on this server) with the callback's outcome as its only provider parameters. */
function returnWith(ctx: AppContext, returnTo: string, params: Partial<Record<(typeof PROVIDER_RETURN_PARAMS)[number], string>>): string {
  const url = new URL(returnTo, ctx.config.publicUrl);
  for (const name of PROVIDER_RETURN_PARAMS) url.searchParams.delete(name);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * The provider sent the browser back: answers where to send it next (a path on this server). Never
 * throws for what the provider or the browser sent: every failure is a providerError for the page.
 */
export async function finishProviderCallback(ctx: AppContext, callbackUrl: URL, browserSecret: string | undefined): Promise<string> {
  const state = callbackUrl.searchParams.get('state');
  const fail = (returnTo: string, error: ProviderError) => returnWith(ctx, returnTo, { providerError: error });
  if (!state || !browserSecret) return fail('/login', 'stateInvalid');
  // Used once, in one statement: two callbacks with one state get one flow between them.
  const [flow] = await ctx.db
    .update(providerLogins)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(providerLogins.stateHash, hashSecret(state)),
        eq(providerLogins.browserHash, hashSecret(browserSecret)),
        isNull(providerLogins.usedAt),
        gt(providerLogins.expiresAt, sql`now()`),
      ),
    )
    .returning();
  if (!flow) return fail('/login', 'stateInvalid');
  const provider = await enabledProvider(ctx, flow.providerKey);
  if (!provider) return fail(flow.returnTo, 'providerUnavailable');
  let identity: ProviderIdentity;
  try {
    identity = await exchangeCode(provider, callbackUrl, redirectUri(ctx), { state, nonce: flow.nonce, codeVerifier: flow.codeVerifier });
  } catch (err) {
    const reason = err instanceof ProviderFailure ? err.reason : 'providerFailed';
    if (reason !== 'cancelled') ctx.log.warn({ err, providerKey: provider.providerKey }, 'sign-in provider callback failed');
    return fail(flow.returnTo, reason);
  }
  if (flow.action === 'link') return linkToSignedIn(ctx, flow.returnTo, flow.userId!, provider, identity);
  return signInWith(ctx, flow.returnTo, provider, identity);
}

async function linkToSignedIn(ctx: AppContext, returnTo: string, userId: string, provider: Configured, identity: ProviderIdentity): Promise<string> {
  const [existing] = await ctx.db
    .select({ userId: userProviders.userId })
    .from(userProviders)
    .where(and(eq(userProviders.providerKey, provider.providerKey), eq(userProviders.subject, identity.subject)));
  if (existing && existing.userId !== userId) return returnWith(ctx, returnTo, { providerError: 'linkedElsewhere' });
  if (!existing) {
    const linked = await insertLink(ctx.db, userId, provider.providerKey, identity);
    if (!linked) return returnWith(ctx, returnTo, { providerError: 'linkedElsewhere' });
  }
  return returnWith(ctx, returnTo, { providerLinked: provider.providerKey });
}

/** Inserts a link; false when the identity was linked meanwhile (the unique index decides). */
async function insertLink(db: Db, userId: string, providerKey: string, identity: Pick<ProviderIdentity, 'subject' | 'email' | 'emailVerified' | 'name'>): Promise<boolean> {
  try {
    await db.insert(userProviders).values({
      id: randomUUID(),
      userId,
      providerKey,
      subject: identity.subject,
      email: identity.email,
      emailVerified: identity.emailVerified,
      displayName: identity.name,
      lastUsedAt: new Date(),
    });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

async function signInWith(ctx: AppContext, returnTo: string, provider: Configured, identity: ProviderIdentity): Promise<string> {
  const { db } = ctx;
  const [linked] = await db
    .select({ id: userProviders.id, userId: userProviders.userId, status: users.status })
    .from(userProviders)
    .innerJoin(users, eq(users.id, userProviders.userId))
    .where(and(eq(userProviders.providerKey, provider.providerKey), eq(userProviders.subject, identity.subject)));
  if (linked) {
    if (linked.status !== 'active') return returnWith(ctx, returnTo, { providerError: 'accountClosed' });
    await db.update(userProviders).set({ lastUsedAt: sql`now()` }).where(eq(userProviders.id, linked.id));
    return returnWith(ctx, returnTo, { providerTempKey: await issueTempKey(db, linked.userId) });
  }
  if (!identity.email) return returnWith(ctx, returnTo, { providerError: 'noEmail' });
  const [account] = await db.select({ id: users.id, status: users.status }).from(users).where(sql`lower(${users.email}) = ${identity.email}`);
  if (account) {
    // Never linked, never signed in on an e-mail the provider does not vouch for.
    if (!identity.emailVerified) return returnWith(ctx, returnTo, { providerError: 'emailNotVerified' });
    if (account.status !== 'active') return returnWith(ctx, returnTo, { providerError: 'accountClosed' });
    const linkId = newSecret();
    await db.insert(providerLinkRequests).values({
      idHash: hashSecret(linkId),
      userId: account.id,
      providerKey: provider.providerKey,
      subject: identity.subject,
      email: identity.email,
      displayName: identity.name,
      expiresAt: new Date(Date.now() + FLOW_TTL_MS),
    });
    return returnWith(ctx, returnTo, { providerLink: linkId, providerEmail: identity.email, providerName: provider.displayName });
  }
  let created: { userId: string };
  try {
    created = await createProviderAccount(ctx, { email: identity.email, userName: identity.name ?? undefined, emailVerified: identity.emailVerified });
  } catch (err) {
    // The same e-mail signed up at this very moment: the person tries again and is offered the link.
    if (err instanceof AppError && err.code === Codes.Conflict) return returnWith(ctx, returnTo, { providerError: 'providerFailed' });
    throw err;
  }
  if (!(await insertLink(db, created.userId, provider.providerKey, identity))) {
    return returnWith(ctx, returnTo, { providerError: 'linkedElsewhere' });
  }
  ctx.log.info({ userId: created.userId, email: maskEmail(identity.email), providerKey: provider.providerKey }, 'account created through a sign-in provider');
  return returnWith(ctx, returnTo, { providerTempKey: await issueTempKey(db, created.userId) });
}

/**
 * The person confirms linking (AutoLinkWeb): with the id only the callback's browser was given,
 * within 10 minutes, once; proving they own the account by being signed in to it or by its password (checked
 * as a login checks it, under the same back-off). Answers a temp key for that account.
 */
export async function confirmLink(ctx: AppContext, input: AutoLinkRequest, signedInUserId: string | null): Promise<{ tempKey: string }> {
  const { db } = ctx;
  const [request] = await db
    .select()
    .from(providerLinkRequests)
    .where(
      and(
        eq(providerLinkRequests.idHash, hashSecret(input.linkId)),
        isNull(providerLinkRequests.usedAt),
        gt(providerLinkRequests.expiresAt, sql`now()`),
      ),
    );
  if (!request) throw new AppError(Codes.LoginFailed, 'providerLinkInvalid');
  if (signedInUserId !== request.userId) {
    const [account] = await db
      .select({ passwordHash: users.passwordHash, status: users.status, blockedSeconds: blockedSecondsSql })
      .from(users)
      .where(eq(users.id, request.userId));
    if (!account || account.status !== 'active') throw new AppError(Codes.LoginFailed, 'accountClosed');
    if (account.blockedSeconds > 0) throw new AppError(Codes.RateLimited, 'loginBlocked', { seconds: account.blockedSeconds });
    if (!input.password) throw new AppError(Codes.LoginFailed, 'providerLinkPasswordRequired');
    const ok = account.passwordHash ? await verify(account.passwordHash, input.password).catch(() => false) : false;
    if (!ok) {
      await recordFailedLogin(db, request.userId);
      throw new AppError(Codes.LoginFailed, 'loginFailed');
    }
    await clearFailedLogins(db, request.userId);
  }
  const used = await db
    .update(providerLinkRequests)
    .set({ usedAt: sql`now()` })
    .where(and(eq(providerLinkRequests.idHash, request.idHash), isNull(providerLinkRequests.usedAt)))
    .returning({ idHash: providerLinkRequests.idHash });
  if (!used.length) throw new AppError(Codes.LoginFailed, 'providerLinkInvalid');
  const linked = await insertLink(db, request.userId, request.providerKey, {
    subject: request.subject,
    email: request.email,
    emailVerified: true,
    name: request.displayName,
  });
  if (!linked) {
    const [owner] = await db
      .select({ userId: userProviders.userId })
      .from(userProviders)
      .where(and(eq(userProviders.providerKey, request.providerKey), eq(userProviders.subject, request.subject)));
    if (owner?.userId !== request.userId) throw new AppError(Codes.Conflict, 'providerLinkedElsewhere');
  }
  // The e-mail is the provider's verified one: the account's own e-mail is verified by it too.
  await db.update(users).set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` }).where(eq(users.id, request.userId));
  return { tempKey: await issueTempKey(db, request.userId) };
}

async function providerNames(ctx: AppContext): Promise<Map<string, Configured>> {
  return new Map((await allProviders(ctx)).map((p) => [p.providerKey, p]));
}

async function linksOf(ctx: AppContext, where: SQL): Promise<UserProvider[]> {
  const names = await providerNames(ctx);
  const rows = await ctx.db.select().from(userProviders).where(where).orderBy(desc(userProviders.createdAt));
  return rows.map((r) => ({
    id: r.id,
    providerKey: r.providerKey,
    providerName: names.get(r.providerKey)?.displayName ?? r.providerKey,
    kind: names.get(r.providerKey)?.kind ?? null,
    email: r.email,
    emailVerified: r.emailVerified,
    displayName: r.displayName,
    createTime: r.createdAt.toISOString(),
    lastUsedTime: r.lastUsedAt?.toISOString() ?? null,
  }));
}

/** The caller's links, and whether the account has a password (Settings shows "set a password" without one). */
export async function userProviderList(ctx: AppContext, userId: string): Promise<UserProviderList> {
  const [account] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return { list: await linksOf(ctx, eq(userProviders.userId, userId)), hasPassword: !!account?.passwordHash };
}

/** One of the caller's links; another account's answers 10404 like a missing one. */
export async function userProviderById(ctx: AppContext, userId: string, id: string): Promise<UserProvider> {
  const [found] = await linksOf(ctx, and(eq(userProviders.id, id), eq(userProviders.userId, userId))!);
  if (!found) throw new AppError(Codes.NotFound, 'notFound');
  return found;
}

/** An account's links, for an administrator. */
export async function userProvidersByUserId(ctx: AppContext, userId: string): Promise<{ list: UserProvider[] }> {
  return { list: await linksOf(ctx, eq(userProviders.userId, userId)) };
}

/**
 * Unlinks one of the caller's providers. Refused when it is the last way to sign in (no password
 * and no other link): the account would be locked out. Checked and deleted in one statement.
 */
export async function unlinkProvider(ctx: AppContext, userId: string, id: string): Promise<void> {
  const deleted = await ctx.db
    .delete(userProviders)
    .where(
      and(
        eq(userProviders.id, id),
        eq(userProviders.userId, userId),
        sql`(exists (select 1 from ${users} u where u.id = ${userId} and u.password_hash is not null)
          or (select count(*) from ${userProviders} o where o.user_id = ${userId} and o.id <> ${id}) > 0)`,
      ),
    )
    .returning({ id: userProviders.id });
  if (deleted.length) return;
  const [mine] = await ctx.db.select({ n: count() }).from(userProviders).where(and(eq(userProviders.id, id), eq(userProviders.userId, userId)));
  if (!mine || mine.n === 0) throw new AppError(Codes.NotFound, 'notFound');
  throw new AppError(Codes.Conflict, 'providerLastSignIn');
}

// --- The console (admin/users/sign-in-providers-tab.tsx) ---

/** Every provider, the environment's (read-only) and the console's; never a secret. */
export async function adminProviderList(ctx: AppContext): Promise<{ list: AdminSignInProvider[] }> {
  return {
    list: (await allProviders(ctx)).map((p) => ({
      providerKey: p.providerKey,
      kind: p.kind,
      displayName: p.displayName,
      issuer: p.issuer ?? null,
      tenant: p.tenant ?? null,
      clientId: p.clientId,
      hasSecret: p.hasSecret,
      enabled: p.enabled,
      sortOrder: p.sortOrder,
      source: p.source,
    })),
  };
}

export async function adminProvider(ctx: AppContext, providerKey: string): Promise<AdminSignInProvider | null> {
  return (await adminProviderList(ctx)).list.find((p) => p.providerKey === providerKey) ?? null;
}

/** Adds or edits a console provider; one of the environment's is refused (change it there). */
export async function saveProvider(ctx: AppContext, input: SaveSignInProvider & { providerKey: string }): Promise<AdminSignInProvider> {
  if (envProviders(ctx).some((p) => p.providerKey === input.providerKey)) throw new AppError(Codes.Conflict, 'providerFromEnvironment', { key: input.providerKey });
  if (input.kind === 'oidc') {
    const problem = issuerProblem(input.issuer ?? '');
    if (problem) throw new AppError(Codes.BadRequest, 'badRequest', { detail: `issuer: ${problem}` });
  }
  const [existing] = await ctx.db.select({ enc: signInProviders.clientSecretEnc }).from(signInProviders).where(eq(signInProviders.providerKey, input.providerKey));
  const secret = input.clientSecret?.trim();
  if (!existing && !secret) throw new AppError(Codes.BadRequest, 'providerSecretRequired');
  const values = {
    kind: input.kind,
    displayName: input.displayName,
    issuer: input.kind === 'oidc' ? (input.issuer ?? null) : null,
    tenant: input.kind === 'microsoft' ? input.tenant || null : null,
    clientId: input.clientId,
    enabled: input.enabled ?? true,
    sortOrder: input.sortOrder ?? 0,
    updatedAt: new Date(),
  };
  const clientSecretEnc = secret ? secretBox(ctx).encrypt(secret) : existing!.enc;
  await ctx.db
    .insert(signInProviders)
    .values({ providerKey: input.providerKey, ...values, clientSecretEnc })
    .onConflictDoUpdate({ target: signInProviders.providerKey, set: { ...values, clientSecretEnc } });
  return (await adminProvider(ctx, input.providerKey))!;
}

/** Removes a console provider. Its links stay (shown by key) and work again if it is added back. */
export async function deleteProvider(ctx: AppContext, providerKey: string): Promise<void> {
  if (envProviders(ctx).some((p) => p.providerKey === providerKey)) throw new AppError(Codes.Conflict, 'providerFromEnvironment', { key: providerKey });
  const deleted = await ctx.db.delete(signInProviders).where(eq(signInProviders.providerKey, providerKey)).returning({ k: signInProviders.providerKey });
  if (!deleted.length) throw new AppError(Codes.NotFound, 'notFound');
}
