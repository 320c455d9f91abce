import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { signedMediaPath } from '../../server/services/media/links.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { parseChatStream } from '../helpers/chat.ts';
import { captureLog } from '../helpers/log-capture.ts';
import { auth, createAdmin, type TestUser } from '../helpers/users.ts';

/**
 * Whatever a request carries (tokens, temp keys, link signatures, passwords, e-mails, provider keys)
 * and whatever fails on its way (the database, the provider), the log never holds a secret.
 */

const PROVIDER_KEY = 'sk-live-ProviderKey0123456789abcdef';
const SECRET_KEY = 'log-secrets-test-secret-key-0123456789';

const json = { 'content-type': 'application/json-patch+json' };

/** A trigger that makes every insert into `table` fail, as a broken or full database would. */
async function breakInserts(t: TestApp, table: string) {
  await t.database.db.execute(sql.raw(`create or replace function tandem_test_fail() returns trigger as $$
    begin raise exception 'forced failure for the log test'; end $$ language plpgsql`));
  await t.database.db.execute(sql.raw(`create trigger tandem_test_fail_${table} before insert on ${table} for each row execute function tandem_test_fail()`));
}

describe('secrets never reach the log', () => {
  const log = captureLog();
  let t: TestApp;
  let fake: FakeOpenAI;
  let admin: TestUser;
  /** Every secret the test used; none may appear in the log. */
  const secrets = new Set<string>();

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp(
      { LOG_LEVEL: 'trace', SECRET_KEY, AUTH_RATE_LIMIT: '1000', OPENAI_API_KEY: PROVIDER_KEY, OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODELS: 'leaky' },
      { logger: log.logger },
    );
    admin = await createAdmin(t.app);
    secrets.add(PROVIDER_KEY);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    // Checked once more at the very end: nothing logged late (closing, sweeps) leaks either.
    for (const secret of secrets) expect(log.text).not.toContain(secret);
  });

  const expectNoSecret = () => {
    expect(log.text.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(log.text, `the log holds ${secret}`).not.toContain(secret);
  };

  it('signs up, logs in by temp key and follows login links without logging the credentials', async () => {
    const email = 'secret.person@example.test';
    const password = 'a very secret password';
    secrets.add(email).add(password);
    const added = (await t.app.inject({ method: 'POST', url: '/api/Account/AddUser', headers: json, payload: { email, password, userName: 'Secret' } })).json();
    expect(added.Code).toBe(10000);
    const hash = (await t.database.db.execute<{ password_hash: string }>(sql`select password_hash from users where id = ${added.Data.userId}`)).rows[0].password_hash;
    secrets.add(hash);
    const login = (await t.app.inject({ method: 'POST', url: '/api/Account/Login', headers: json, payload: { email, password } })).json();
    const tempKey = login.Data.tempKey as string;
    secrets.add(tempKey);
    const exchanged = (await t.app.inject({ method: 'GET', url: `/api/User/GetTokenForTempKey?tempKey=${tempKey}` })).json();
    expect(exchanged.Code).toBe(10000);
    const token = exchanged.Data as string;
    secrets.add(token);
    // Links into the web app carry credentials too; so may any other address.
    await t.app.inject({ method: 'GET', url: `/?token=${token}` });
    await t.app.inject({ method: 'GET', url: `/setting?tempkey=${tempKey}&x=1` });
    await t.app.inject({ method: 'GET', url: `/api/User/GetUserByLogin?access_token=${token}`, headers: auth(token) });
    expect(log.text).toContain('GetTokenForTempKey?tempKey=[redacted]');
    expectNoSecret();
  });

  it('keeps only harmless query parameters: reset links, share ids, searches, proxied addresses and webhook bodies stay out', async () => {
    const get = (url: string, token?: string) => t.app.inject({ method: 'GET', url, headers: token ? auth(token) : {} });
    // A password-reset link, as the operator's console makes it and the user opens it.
    const user = (await t.app.inject({ method: 'POST', url: '/api/Account/AddUser', headers: json, payload: { email: 'reset.me@example.test', password: 'reset me please' } })).json();
    const made = (await t.app.inject({ method: 'POST', url: '/api/admin/User/SendPasswordReset', headers: { ...json, ...auth(admin.token) }, payload: { userId: user.Data.userId } })).json();
    const resetToken = new URL(made.Data.link).searchParams.get('reset')!;
    expect(resetToken.length).toBeGreaterThan(10);
    secrets.add(resetToken).add('reset.me@example.test');
    await get(`/login?reset=${encodeURIComponent(resetToken)}`);
    await get(`/login?callback=x&state=state-${randomUUID()}&tempKey=temp-${randomUUID()}`);
    // A share link: the id is the capability to read the chat.
    const sessionId = randomUUID();
    await t.database.db.insert(chatSessions).values({ id: sessionId, userId: admin.userId, title: 'private title' });
    await t.database.db.insert(chatMessages).values({
      id: randomUUID(), sessionId, userId: admin.userId, inputMessage: 'hi', outputMessage: 'there', requestedModelId: 'leaky', modelName: 'Leaky', finishReason: 'stop', mediaIds: [],
    });
    const share = (await t.app.inject({ method: 'POST', url: '/api/Chat/ShareSession', headers: { ...json, ...auth(admin.token) }, payload: { chatSessionId: sessionId } })).json();
    expect(share.Code).toBe(10000);
    const shareId = share.Data.shareId as string;
    secrets.add(shareId);
    expect((await get(`/api/Share/GetShare?shareId=${shareId}`)).json().Code).toBe(10000);
    await get(`/share/${shareId}`);
    await t.app.inject({ method: 'POST', url: '/api/Chat/RevokeShare', headers: { ...json, ...auth(admin.token) }, payload: { shareId } });
    // What a user searches for and reads.
    const terms = ['searched-diagnosis-words', 'favourite-search-words', 'https://private.example/answer-image-path.png', 'SECRETCOUPON42'];
    for (const term of terms) secrets.add(term);
    expect((await get(`/api/Chat/SearchMessages?q=${encodeURIComponent(terms[0]!)}&page=1&count=20`, admin.token)).json().Code).toBe(10000);
    expect((await get(`/api/Save/GetList?q=${encodeURIComponent(terms[1]!)}&page=2`, admin.token)).json().Code).toBe(10000);
    await get(`/api/Chat/ProxyImage?url=${encodeURIComponent(terms[2]!)}`, admin.token);
    await get(`/api/Coupons/CheckCoupon?code=${terms[3]}`, admin.token);
    // A webhook's body (a payment's details) is never logged, signed or not.
    const webhookSecret = `cus_secret_${randomUUID()}`;
    secrets.add(webhookSecret);
    await t.app.inject({ method: 'POST', url: '/api/Vip/StripeWebhook', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' }, payload: JSON.stringify({ id: 'evt_1', data: { object: { customer: webhookSecret } } }) });
    // The lines are there, with their harmless parts.
    expect(log.text).toContain('/login?reset=[redacted]');
    expect(log.text).toContain('/share/[redacted]');
    expect(log.text).toContain('GetShare?shareId=[redacted]');
    expect(log.text).toContain('SearchMessages?q=[redacted]&page=1&count=20');
    expect(log.text).toContain('GetList?q=[redacted]&page=2');
    expectNoSecret();
  });

  it('serves a signed media link without logging its signature', async () => {
    const form = new FormData();
    form.append('mediaType', 'image');
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } }).png().toBuffer();
    form.append('imageFile', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'dot.png');
    const encoded = new Response(form);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Chat/AddChatMedia',
      headers: { ...auth(admin.token), 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    const link = signedMediaPath(t.app.ctx, res.json().Data.chatMediaId);
    const sig = new URL(link, 'http://x').searchParams.get('sig')!;
    expect(sig).toBeTruthy();
    secrets.add(sig);
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
    expect(log.text).toContain('sig=[redacted]');
    expectNoSecret();
  });

  it('refuses a NUL at the edge, and logs a failed statement by what failed, not by its values', async () => {
    const nul = (await t.app.inject({
      method: 'POST',
      url: '/api/Account/AddUser',
      headers: json,
      payload: { email: 'nul.person@example.test', password: 'another secret pw', userName: 'a\u0000b', inviteCode: 'x\u0000' },
    })).json();
    expect(nul).toMatchObject({ Code: 10400, Data: null });
    expect(nul.Msg).toContain('NUL');

    await breakInserts(t, 'users');
    const email = 'broken.db@example.test';
    const password = 'yet another secret pw';
    secrets.add(email).add(password);
    const res = await t.app.inject({ method: 'POST', url: '/api/Account/AddUser', headers: json, payload: { email, password } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ Code: 10500, Data: null });
    const failed = log.entries.find((e) => e.msg === 'unhandled error' && e.err?.type === 'DatabaseError');
    expect(failed?.err).toMatchObject({ operation: expect.stringMatching(/^insert into "users"/), code: 'P0001' });
    // The password hash argon2 made for this request is in the statement's parameters: it must not be logged.
    expect(log.text).not.toMatch(/\$argon2id\$v=19\$[^"]*/);
    expectNoSecret();
  });

  it('logs a failed save of a provider key without the key', async () => {
    await breakInserts(t, 'ai_deployments');
    const key = 'sk-admin-SavedKey9876543210zyxwv';
    secrets.add(key);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/AiModelMap/Save',
      headers: { ...json, ...auth(admin.token) },
      payload: { aiModelId: 'leaky', provider: 'openai-compatible', baseUrl: fake.baseUrl, apiKey: key, upstreamModelId: 'x' },
    });
    expect(res.json()).toMatchObject({ Code: 10500, Data: null });
    expect(log.entries.some((e) => e.err?.type === 'DatabaseError' && /ai_deployments/.test(e.err.operation))).toBe(true);
    expectNoSecret();
  });

  it('logs a provider refusal by deployment, without the key the provider echoes', async () => {
    fake.script('leaky', { status: 401, errorMessage: `Incorrect API key provided: ${PROVIDER_KEY}. Authorization: Bearer ${PROVIDER_KEY}` });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Chat/AddMessage',
      headers: { ...json, ...auth(admin.token) },
      payload: JSON.stringify({ aiModelId: 'leaky', inputMessage: 'hello?', chatMediaIds: [] }),
    });
    const last = parseChatStream(res.body).at(-1)!;
    expect(last.Code).toBe(10462);
    const warned = log.entries.find((e) => e.msg === 'deployment failed; trying the next');
    expect(warned).toMatchObject({ deploymentId: expect.any(String), kind: 'auth', status: 401 });
    expectNoSecret();
  });
});
