import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Codes } from '../../shared/contracts/envelope.ts';
import { startFakeOidc, type FakeOidc } from '../fixtures/fake-oidc.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { reservePort } from '../helpers/ports.ts';
import { browse, callback, CookieJar, providerSignIn, signInAtProvider, startProvider } from '../helpers/provider-flow.ts';
import { createAdmin, createUser, loginUser, type TestUser } from '../helpers/users.ts';

/**
 * Sign in with another account, end to end over real HTTP: the server listening on loopback, a real
 * OpenID provider (oidc-provider) beside it, a browser played by hand (cookie jar, redirects
 * followed one by one). State, PKCE and nonce are checked; an existing account is linked only by a
 * verified e-mail and after its owner confirms.
 */
let t: TestApp;
let fake: FakeOidc;
let appUrl: string;
let admin: TestUser;

beforeAll(async () => {
  const { port, release } = await reservePort();
  appUrl = `http://127.0.0.1:${port}`;
  fake = await startFakeOidc({ redirectUris: [`${appUrl}/api/Provider/Callback`] });
  t = await createTestApp({
    PUBLIC_URL: appUrl,
    AUTH_RATE_LIMIT: '1000',
    OIDC_PROVIDERS: JSON.stringify([{ key: 'fake', name: 'Fake ID', issuer: fake.issuer, clientId: fake.clientId, clientSecret: fake.clientSecret }]),
  });
  admin = await createAdmin(t.app);
  await release();
  await t.app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const tokenFor = async (tempKey: string) => {
  const body = await api(t.app).getBody(`/api/User/GetTokenForTempKey?tempKey=${encodeURIComponent(tempKey)}`);
  expect(body.Code, body.Msg).toBe(Codes.Success);
  return body.Data as string;
};
const me = async (token: string) => (await api(t.app, token).getBody('/api/User/GetUserByLogin')).Data;
const linkCount = async (subject: string) =>
  Number((await t.database.db.execute(sql`select count(*)::int as n from user_providers where subject = ${subject}`)).rows[0]!.n);
let seq = 0;
const unique = (what: string) => `${what}-${++seq}-${Date.now()}`;

describe('the login page', () => {
  it('lists the enabled providers, signed out, without any secret', async () => {
    const res = await api(t.app).get('/api/Account/GetProviderListAll');
    const body = res.json();
    expect(body.Code).toBe(Codes.Success);
    expect(body.Data.list).toEqual([{ providerKey: 'fake', displayName: 'Fake ID', kind: 'oidc', icon: 'key' }]);
    expect(res.body).not.toContain(fake.clientSecret);
  });

  it('refuses a return target off this server, and an unknown provider', async () => {
    const jar = new CookieJar();
    for (const returnTo of ['//evil.example/login', 'https://evil.example/', '/\\evil.example']) {
      const body = await startProvider(jar, appUrl, { providerKey: 'fake', returnTo });
      expect(body.Code, returnTo).toBe(Codes.BadRequest);
    }
    expect((await startProvider(jar, appUrl, { providerKey: 'nope' })).Code).toBe(Codes.NotFound);
  });

  it('starts with state, nonce and PKCE S256, and sets the browser cookie', async () => {
    const jar = new CookieJar();
    const started = await startProvider(jar, appUrl, { providerKey: 'fake' });
    const url = new URL(started.Data!.url);
    expect(url.origin).toBe(fake.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(`${appUrl}/api/Provider/Callback`);
    expect(jar.has(appUrl, 'tandem_provider')).toBe(true);
    // Stored hashed: the state itself is nowhere in the database.
    const rows = await t.database.db.execute(sql`select state_hash from provider_logins`);
    expect(JSON.stringify(rows.rows)).not.toContain(url.searchParams.get('state')!);
  });
});

describe('a new person', () => {
  it('gets an account with the provider’s verified e-mail and no password, and signs in again the same way', async () => {
    const sub = unique('newbie');
    const email = `${sub}@example.test`;
    fake.setAccount(sub, { email, email_verified: true, name: 'New Person' });
    const landed = await providerSignIn(new CookieJar(), appUrl, fake, sub, { providerKey: 'fake', returnTo: '/login?callback=%2Fchat&keep=1' });
    expect(landed.pathname).toBe('/login');
    // The login page's own parameters come back as they were.
    expect(landed.searchParams.get('callback')).toBe('/chat');
    expect(landed.searchParams.get('keep')).toBe('1');
    const token = await tokenFor(landed.searchParams.get('providerTempKey')!);
    const user = await me(token);
    expect(user).toMatchObject({ email, userName: 'New Person' });
    const state = await api(t.app, token).getBody('/api/Account/GetEmailState');
    expect(state.Data.verified).toBe(true);
    const links = (await api(t.app, token).getBody('/api/User/GetUserProviderList')).Data;
    expect(links.hasPassword).toBe(false);
    expect(links.list).toMatchObject([{ providerKey: 'fake', providerName: 'Fake ID', kind: 'oidc', email, emailVerified: true }]);
    // GetUserProviderById: the caller's own link; another account's id answers like a missing one.
    const one = await api(t.app, token).getBody(`/api/User/GetUserProviderById?id=${links.list[0].id}`);
    expect(one.Data).toMatchObject({ id: links.list[0].id, providerKey: 'fake' });
    expect((await api(t.app, admin).getBody(`/api/User/GetUserProviderById?id=${links.list[0].id}`)).Code).toBe(Codes.NotFound);

    const again = await providerSignIn(new CookieJar(), appUrl, fake, sub, { providerKey: 'fake' });
    expect((await me(await tokenFor(again.searchParams.get('providerTempKey')!))).userId).toBe(user.userId);
    expect(await linkCount(sub)).toBe(1);
  });

  it('with an unverified e-mail gets an account whose e-mail is not verified', async () => {
    const sub = unique('unverified-new');
    fake.setAccount(sub, { email: `${sub}@example.test`, email_verified: false });
    const landed = await providerSignIn(new CookieJar(), appUrl, fake, sub, { providerKey: 'fake' });
    const token = await tokenFor(landed.searchParams.get('providerTempKey')!);
    expect((await api(t.app, token).getBody('/api/Account/GetEmailState')).Data.verified).toBe(false);
  });

  it('without an e-mail is told so', async () => {
    const sub = unique('no-email');
    fake.setAccount(sub, { name: 'Nobody' });
    const landed = await providerSignIn(new CookieJar(), appUrl, fake, sub, { providerKey: 'fake' });
    expect(landed.searchParams.get('providerError')).toBe('noEmail');
    expect(await linkCount(sub)).toBe(0);
  });
});

describe('an existing account with the same e-mail', () => {
  it('is linked only after its owner confirms with its password', async () => {
    const owner = await createUser(t.app);
    const sub = unique('owner');
    fake.setAccount(sub, { email: owner.email.toUpperCase(), email_verified: true });
    const landed = await providerSignIn(new CookieJar(), appUrl, fake, sub, { providerKey: 'fake' });
    // Not signed in: the page asks to confirm.
    expect(landed.searchParams.get('providerTempKey')).toBeNull();
    expect(landed.searchParams.get('providerEmail')).toBe(owner.email);
    expect(landed.searchParams.get('providerName')).toBe('Fake ID');
    const linkId = landed.searchParams.get('providerLink')!;
    expect(linkId).toBeTruthy();
    expect(await linkCount(sub)).toBe(0);

    const without = await api(t.app).postBody('/api/User/AutoLinkWeb', { linkId });
    expect(without.Code).toBe(Codes.LoginFailed);
    const wrong = await api(t.app).postBody('/api/User/AutoLinkWeb', { linkId, password: 'not the password' });
    expect(wrong.Code).toBe(Codes.LoginFailed);
    expect(await linkCount(sub)).toBe(0);
    // Someone else's account is no proof.
    const other = await createUser(t.app);
    expect((await api(t.app, other).postBody('/api/User/AutoLinkWeb', { linkId })).Code).toBe(Codes.LoginFailed);

    const confirmed = await api(t.app).postBody('/api/User/AutoLinkWeb', { linkId, password: owner.password });
    expect(confirmed.Code, confirmed.Msg).toBe(Codes.Success);
    expect((await me(await tokenFor(confirmed.Data.tempKey))).userId).toBe(owner.userId);
    expect(await linkCount(sub)).toBe(1);
    // Once only.
    const reused = await api(t.app).postBody('/api/User/AutoLinkWeb', { linkId, password: owner.password }, { lang: 'zh' });
    expect(reused.Code).toBe(Codes.LoginFailed);
    expect(reused.Msg).toMatch(/关联请求/);
    // From now on the provider signs in to that account directly.
    const next = await providerSignIn(new CookieJar(), appUrl, fake, sub, { providerKey: 'fake' });
    expect((await me(await tokenFor(next.searchParams.get('providerTempKey')!))).userId).toBe(owner.userId);
  });

  it('is linked when its owner is signed in to it', async () => {
    const owner = await createUser(t.app);
    const sub = unique('signed-in-owner');
    fake.setAccount(sub, { email: owner.email, email_verified: true });
    const landed = await providerSignIn(new CookieJar(), appUrl, fake, sub, { providerKey: 'fake' });
    const confirmed = await api(t.app, owner).postBody('/api/User/AutoLinkWeb', { linkId: landed.searchParams.get('providerLink') });
    expect(confirmed.Code, confirmed.Msg).toBe(Codes.Success);
    expect(await linkCount(sub)).toBe(1);
  });

  it('is never linked nor signed in to by an unverified e-mail', async () => {
    const owner = await createUser(t.app);
    const sub = unique('impostor');
    fake.setAccount(sub, { email: owner.email, email_verified: false });
    const landed = await providerSignIn(new CookieJar(), appUrl, fake, sub, { providerKey: 'fake' });
    expect(landed.searchParams.get('providerError')).toBe('emailNotVerified');
    expect(landed.searchParams.get('providerTempKey')).toBeNull();
    expect(landed.searchParams.get('providerLink')).toBeNull();
    expect(await linkCount(sub)).toBe(0);
  });
});

describe('the state and the code', () => {
  it('refuses a wrong state, and a state from another browser', async () => {
    const sub = unique('state');
    fake.setAccount(sub, { email: `${sub}@example.test`, email_verified: true });
    const jar = new CookieJar();
    const started = await startProvider(jar, appUrl, { providerKey: 'fake', returnTo: '/login?x=1' });
    const back = new URL(await signInAtProvider(jar, fake, started.Data!.url, sub));
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state');
    expect((await callback(jar, appUrl, forged.href)).searchParams.get('providerError')).toBe('stateInvalid');
    // The right state, from a browser that did not start it (no cookie, or another one).
    expect((await callback(new CookieJar(), appUrl, back.href)).searchParams.get('providerError')).toBe('stateInvalid');
    const other = new CookieJar();
    await startProvider(other, appUrl, { providerKey: 'fake' });
    expect((await callback(other, appUrl, back.href)).searchParams.get('providerError')).toBe('stateInvalid');
    // The starting browser still can, once.
    expect((await callback(jar, appUrl, back.href)).searchParams.get('providerTempKey')).toBeTruthy();
    const used = await callback(jar, appUrl, back.href);
    expect(used.searchParams.get('providerError')).toBe('stateInvalid');
    expect(used.searchParams.get('providerTempKey')).toBeNull();
  });

  it('refuses a replayed code: the provider rejects it', async () => {
    const sub = unique('replay');
    fake.setAccount(sub, { email: `${sub}@example.test`, email_verified: true });
    const jar = new CookieJar();
    const first = await startProvider(jar, appUrl, { providerKey: 'fake' });
    const back = new URL(await signInAtProvider(jar, fake, first.Data!.url, sub));
    expect((await callback(jar, appUrl, back.href)).searchParams.get('providerTempKey')).toBeTruthy();
    // A fresh state of this browser, carrying the code already used.
    const second = await startProvider(jar, appUrl, { providerKey: 'fake', returnTo: '/login?y=2' });
    const replay = new URL(back);
    replay.searchParams.set('state', new URL(second.Data!.url).searchParams.get('state')!);
    const refusedBefore = fake.tokenRequests.filter((r) => r.status >= 400).length;
    const landed = await callback(jar, appUrl, replay.href);
    expect(landed.searchParams.get('providerError')).toBe('providerFailed');
    expect(landed.searchParams.get('y')).toBe('2');
    expect(landed.searchParams.get('providerTempKey')).toBeNull();
    expect(fake.tokenRequests.filter((r) => r.status >= 400).length).toBe(refusedBefore + 1);
  });

  it('refuses an expired state', async () => {
    const sub = unique('expired');
    fake.setAccount(sub, { email: `${sub}@example.test`, email_verified: true });
    const jar = new CookieJar();
    const started = await startProvider(jar, appUrl, { providerKey: 'fake' });
    const back = await signInAtProvider(jar, fake, started.Data!.url, sub);
    await t.database.db.execute(sql`update provider_logins set expires_at = now() - interval '1 second' where used_at is null`);
    expect((await callback(jar, appUrl, back)).searchParams.get('providerError')).toBe('stateInvalid');
    expect(await linkCount(sub)).toBe(0);
  });

  it('says when the person cancelled at the provider', async () => {
    const jar = new CookieJar();
    const started = await startProvider(jar, appUrl, { providerKey: 'fake' });
    const state = new URL(started.Data!.url).searchParams.get('state')!;
    const landed = await callback(jar, appUrl, `${appUrl}/api/Provider/Callback?error=access_denied&state=${state}&iss=${encodeURIComponent(fake.issuer)}`);
    expect(landed.searchParams.get('providerError')).toBe('cancelled');
  });
});

describe('Settings: linking and unlinking', () => {
  it('links a provider to the signed-in account, not one linked elsewhere', async () => {
    const user = await createUser(t.app);
    const sub = unique('linker');
    fake.setAccount(sub, { email: `${sub}@other.test`, email_verified: false });
    const jar = new CookieJar();
    expect((await startProvider(jar, appUrl, { providerKey: 'fake', action: 'link' })).Code).toBe(Codes.NotLoggedIn);
    const landed = await providerSignIn(jar, appUrl, fake, sub, { providerKey: 'fake', action: 'link', returnTo: '/settings/account' }, user.token);
    expect(landed.pathname).toBe('/settings/account');
    expect(landed.searchParams.get('providerLinked')).toBe('fake');
    const list = (await api(t.app, user).getBody('/api/User/GetUserProviderList')).Data;
    expect(list).toMatchObject({ hasPassword: true, list: [{ providerKey: 'fake', email: `${sub}@other.test` }] });
    // The same identity for another account: refused.
    const other = await createUser(t.app);
    const refused = await providerSignIn(new CookieJar(), appUrl, fake, sub, { providerKey: 'fake', action: 'link', returnTo: '/settings/account' }, other.token);
    expect(refused.searchParams.get('providerError')).toBe('linkedElsewhere');
    // A password account may unlink its only provider.
    expect((await api(t.app, user).postBody('/api/User/DeleteUserProvider', { id: list.list[0].id })).Code).toBe(Codes.Success);
    expect(await linkCount(sub)).toBe(0);
  });

  it('never unlinks the last way to sign in; a first password makes it possible', async () => {
    const sub = unique('only-provider');
    fake.setAccount(sub, { email: `${sub}@example.test`, email_verified: true });
    const landed = await providerSignIn(new CookieJar(), appUrl, fake, sub, { providerKey: 'fake' });
    const token = await tokenFor(landed.searchParams.get('providerTempKey')!);
    const [link] = (await api(t.app, token).getBody('/api/User/GetUserProviderList')).Data.list;
    const refused = await api(t.app, token).postBody('/api/User/DeleteUserProvider', { id: link.id });
    expect(refused.Code).toBe(Codes.Conflict);
    expect(refused.Msg).toMatch(/last way to sign in/);
    expect(await linkCount(sub)).toBe(1);
    // Someone else's link: not found, and still there.
    expect((await api(t.app, admin).postBody('/api/User/DeleteUserProvider', { id: link.id })).Code).toBe(Codes.NotFound);

    // No password yet: it cannot sign in with one, and sets its first without a current one.
    await expect(loginUser(t.app, `${sub}@example.test`, '')).rejects.toThrow();
    const first = await api(t.app, token).postBody('/api/Account/UpdateUserPassword', { newPassword: 'my first password' });
    expect(first.Code, first.Msg).toBe(Codes.Success);
    await loginUser(t.app, `${sub}@example.test`, 'my first password');
    // From then on the current password is asked for.
    const second = await api(t.app, token).postBody('/api/Account/UpdateUserPassword', { newPassword: 'my second password' });
    expect(second.Code).toBe(Codes.BadRequest);
    expect(second.Msg).toMatch(/current password/);
    expect((await api(t.app, token).getBody('/api/User/GetUserProviderList')).Data.hasPassword).toBe(true);
    expect((await api(t.app, token).postBody('/api/User/DeleteUserProvider', { id: link.id })).Code).toBe(Codes.Success);
  });
});

describe('the administrators’ look-up', () => {
  it('lists an account’s providers for an administrator only', async () => {
    const sub = unique('looked-up');
    fake.setAccount(sub, { email: `${sub}@example.test`, email_verified: true });
    const landed = await providerSignIn(new CookieJar(), appUrl, fake, sub, { providerKey: 'fake' });
    const userId = (await me(await tokenFor(landed.searchParams.get('providerTempKey')!))).userId;
    const user = await createUser(t.app);
    expect((await api(t.app, user).getBody(`/api/Account/GetUserProviderByUserId?userId=${userId}`)).Code).toBe(Codes.Forbidden);
    expect((await api(t.app).getBody(`/api/Account/GetUserProviderByUserId?userId=${userId}`)).Code).toBe(Codes.NotLoggedIn);
    const found = await api(t.app, admin).getBody(`/api/Account/GetUserProviderByUserId?userId=${userId}`);
    expect(found.Data.list).toMatchObject([{ providerKey: 'fake', email: `${sub}@example.test` }]);
  });
});

describe('providers added in the console', () => {
  it('are offered once saved, keep their secret encrypted and unseen, and go when disabled', async () => {
    const save = (body: Record<string, unknown>) => api(t.app, admin).postBody('/api/admin/SignInProvider/Save', body);
    const provider = { providerKey: 'console-id', kind: 'oidc', displayName: 'Console ID', issuer: fake.issuer, clientId: fake.clientId };
    expect((await save(provider)).Code).toBe(Codes.BadRequest); // no secret
    expect((await save({ ...provider, clientSecret: 'x', issuer: 'http://example.com' })).Code).toBe(Codes.BadRequest); // http off loopback
    expect((await save({ ...provider, providerKey: 'fake', clientSecret: 'x' })).Code).toBe(Codes.Conflict); // the environment's
    expect((await api(t.app, (await createUser(t.app))).postBody('/api/admin/SignInProvider/Save', { ...provider, clientSecret: 'x' })).Code).toBe(Codes.Forbidden);
    const saved = await save({ ...provider, clientSecret: fake.clientSecret });
    expect(saved.Code, saved.Msg).toBe(Codes.Success);
    expect(saved.Data).toMatchObject({ providerKey: 'console-id', hasSecret: true, enabled: true, source: 'console' });
    const listed = await api(t.app, admin).get('/api/admin/SignInProvider/GetList');
    expect(listed.body).not.toContain(fake.clientSecret);
    const stored = await t.database.db.execute(sql`select client_secret_enc from sign_in_providers`);
    expect(JSON.stringify(stored.rows)).not.toContain(fake.clientSecret);
    expect((await api(t.app).getBody('/api/Account/GetProviderListAll')).Data.list.map((p: { providerKey: string }) => p.providerKey)).toEqual(['fake', 'console-id']);

    // Google, unreachable from mainland China, is not offered to a visitor there (by address, as IsChina tells it).
    const google = await save({ providerKey: 'console-google', kind: 'google', displayName: 'Google', clientId: 'g-id', clientSecret: 'g-secret' });
    expect(google.Code, google.Msg).toBe(Codes.Success);
    const offered = async (remoteAddress: string) =>
      (await api(t.app).getBody('/api/Account/GetProviderListAll', { remoteAddress })).Data.list.map((p: { providerKey: string }) => p.providerKey);
    expect(await offered('8.8.8.8')).toEqual(['fake', 'console-id', 'console-google']);
    expect(await offered('1.2.4.8')).toEqual(['fake', 'console-id']);
    expect((await api(t.app, admin).postBody('/api/admin/SignInProvider/Delete', { providerKey: 'console-google' })).Code).toBe(Codes.Success);

    const sub = unique('console-user');
    fake.setAccount(sub, { email: `${sub}@example.test`, email_verified: true });
    const landed = await providerSignIn(new CookieJar(), appUrl, fake, sub, { providerKey: 'console-id' });
    expect(landed.searchParams.get('providerTempKey')).toBeTruthy();

    // Edited without a secret: the stored one is kept; disabled: gone from the page and refused.
    expect((await save({ ...provider, displayName: 'Renamed', enabled: false })).Data).toMatchObject({ displayName: 'Renamed', enabled: false, hasSecret: true });
    expect((await api(t.app).getBody('/api/Account/GetProviderListAll')).Data.list.map((p: { providerKey: string }) => p.providerKey)).toEqual(['fake']);
    expect((await startProvider(new CookieJar(), appUrl, { providerKey: 'console-id' })).Code).toBe(Codes.NotFound);
    expect((await api(t.app, admin).postBody('/api/admin/SignInProvider/Delete', { providerKey: 'console-id' })).Code).toBe(Codes.Success);
    expect((await api(t.app, admin).postBody('/api/admin/SignInProvider/Delete', { providerKey: 'console-id' })).Code).toBe(Codes.NotFound);
  });
});

describe('the callback page', () => {
  it('sends the browser on without a referrer and is never cached', async () => {
    const res = await browse(new CookieJar(), `${appUrl}/api/Provider/Callback?state=x&code=y`);
    expect(res.status).toBe(200);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toContain('/login?providerError=stateInvalid');
  });
});
