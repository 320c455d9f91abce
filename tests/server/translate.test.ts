import { eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { pointBalances, pointLedger } from '../../server/db/schema/points.ts';
import { systemSettings, translationRequests as requestIdRows } from '../../server/db/schema/system.ts';
import { sweepTranslationRequests } from '../../server/services/translate/request-ids.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api, http } from '../helpers/api.ts';
import { listening } from '../helpers/chat.ts';
import { createTestApp, fakeOpenAIEnv, type TestApp } from '../helpers/app.ts';
import { createAdmin, createUser, type TestUser } from '../helpers/users.ts';

/**
 * Translation (POST /api/System/TransText, docs/api.md#translation): segments translated in order
 * through the translation model, placeholder tags kept or stripped, charged by length through the
 * ledger before the model is asked and refunded when it fails, also under concurrency (this file
 * runs on PostgreSQL too: tests/database-behaviour.txt).
 */

const URL = '/api/System/TransText';

let fake: FakeOpenAI;
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  // basic-model: the Free plan's (1 point a message); pro-model: a Standard one (2 points).
  t = await createTestApp({ ...fakeOpenAIEnv(fake, 'basic-model,pro-model:1'), FREE_DAILY_POINTS: '0', AUTH_RATE_LIMIT: '1000' });
  admin = await createAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(async () => {
  fake.reset();
  await t.database.db.delete(systemSettings).where(eq(systemSettings.settingKey, 'translation_model'));
  await t.database.db.delete(systemSettings).where(eq(systemSettings.settingKey, 'translation_points_per_1k_chars'));
});

/** A user with `points` on their balance (and no free allowance: FREE_DAILY_POINTS is 0). */
const userWith = async (points: number) => {
  const user = await createUser(t.app);
  await t.database.db.update(pointBalances).set({ balance: points }).where(eq(pointBalances.userId, user.userId));
  return user;
};
const balanceOf = async (userId: string) => (await t.database.db.select().from(pointBalances).where(eq(pointBalances.userId, userId)))[0].balance;
const ledgerOf = (userId: string) => t.database.db.select().from(pointLedger).where(eq(pointLedger.userId, userId));
const setting = (key: string, value: string) => api(t.app, admin).postBody('/api/admin/System/SaveSetting', { settingKey: key, settingValue: value });
const translationRequests = () => fake.requests.filter((r) => JSON.stringify(r.body?.messages ?? []).includes('targetLanguage'));

describe('translation', () => {
  it('translates segments in order, answers blank ones empty without sending them, and detects the source', async () => {
    const user = await userWith(100);
    const res = await api(t.app, user).postBody(URL, { segments: ['Bonjour le monde', '   ', 'Second paragraph'], targetLanguage: 'zh-Hans' });
    expect(res.Code, res.Msg).toBe(10000);
    expect(res.Data).toMatchObject({
      translations: ['[zh-Hans] Bonjour le monde', '', '[zh-Hans] Second paragraph'],
      tagsKept: [true, true, true],
      detectedLanguage: 'fr',
      targetLanguage: 'zh-Hans',
      chars: 'Bonjour le monde'.length + 'Second paragraph'.length,
      cost: 1,
      balance: 99,
    });
    const [request] = translationRequests();
    expect(request.model).toBe('basic-model');
    const messages = request.body.messages as { role: string; content: unknown }[];
    expect(messages[0].role).toBe('system');
    const user0 = messages.find((m) => m.role === 'user')!;
    const text = typeof user0.content === 'string' ? user0.content : (user0.content as { text: string }[]).map((p) => p.text).join('');
    expect(JSON.parse(text)).toEqual({ targetLanguage: 'zh-Hans', segments: ['Bonjour le monde', 'Second paragraph'] });
  });

  it('translates one text', async () => {
    const user = await userWith(100);
    const res = await api(t.app, user).postBody(URL, { text: 'Hello', targetLanguage: 'ja' });
    expect(res.Code, res.Msg).toBe(10000);
    expect(res.Data).toMatchObject({ translations: ['[ja] Hello'], tagsKept: [true], detectedLanguage: 'en', chars: 5, cost: 1, balance: 99 });
  });

  it('keeps placeholder tags, and strips them from a translation that lost one (tagsKept false)', async () => {
    const user = await userWith(100);
    const segments = ['Read <t0>the docs</t0> and <t1>this</t1>', 'Click <t0>here</t0>'];
    const kept = await api(t.app, user).postBody(URL, { segments, targetLanguage: 'de' });
    expect(kept.Code, kept.Msg).toBe(10000);
    expect(kept.Data).toMatchObject({ translations: segments.map((s) => `[de] ${s}`), tagsKept: [true, true] });
    // Tags do not count: 'Read the docs and this' and 'Click here'.
    expect(kept.Data.chars).toBe('Read the docs and this'.length + 'Click here'.length);

    // The model drops </t1> in the first and invents <t5> in the second: both are stripped; fenced JSON is read.
    const answer = { detectedLanguage: 'en', translations: ['Lies <t0>die Doku</t0> und <t1>das', 'Klicke <t0>hier</t0> <t5>x</t5>'] };
    fake.script('basic-model', { chunks: ['```json\n', JSON.stringify(answer), '\n```'] });
    const stripped = await api(t.app, user).postBody(URL, { segments, targetLanguage: 'de' });
    expect(stripped.Code, stripped.Msg).toBe(10000);
    expect(stripped.Data).toMatchObject({ translations: ['Lies die Doku und das', 'Klicke hier x'], tagsKept: [false, false], detectedLanguage: 'en' });

    // Tags in another order but each once: kept.
    fake.script('basic-model', { chunks: [JSON.stringify({ detectedLanguage: 'en', translations: ['<t1>Dies</t1> und <t0>die Doku</t0> lesen', 'Klicke <t0>hier</t0>'] })] });
    const reordered = await api(t.app, user).postBody(URL, { segments, targetLanguage: 'de' });
    expect(reordered.Data).toMatchObject({ translations: ['<t1>Dies</t1> und <t0>die Doku</t0> lesen', 'Klicke <t0>hier</t0>'], tagsKept: [true, true] });
  });

  it('asks again once when the answer cannot be read, then answers a clear error and refunds', async () => {
    const user = await userWith(10);
    fake.script('basic-model', { chunks: ['Sorry, I cannot help with that.'] });
    const res = await api(t.app, user).postBody(URL, { segments: ['One', 'Two'], targetLanguage: 'fr' });
    expect(res.Code).toBe(10503);
    expect(res.Msg).toBe('The translation model gave an answer that could not be read. Your points were refunded; please try again.');
    expect(translationRequests()).toHaveLength(2);
    expect(await balanceOf(user.userId)).toBe(10);

    // A wrong number of translations is as unreadable.
    fake.reset();
    fake.script('basic-model', { chunks: [JSON.stringify({ detectedLanguage: 'en', translations: ['only one'] })] });
    const short = await api(t.app, user).postBody(URL, { segments: ['One', 'Two'], targetLanguage: 'fr' }, { lang: 'zh' });
    expect(short.Code).toBe(10503);
    expect(short.Msg).toBe('翻译模型的回答无法读取。积分已退还，请重试。');
    expect(translationRequests()).toHaveLength(2);
    expect(await balanceOf(user.userId)).toBe(10);
  });

});

describe('translation: the price, the points and the input', () => {
  it('answers an estimate without asking the model or charging', async () => {
    const user = await userWith(7);
    const res = await api(t.app, user).postBody(URL, { text: 'x'.repeat(2500), targetLanguage: 'fr', estimate: true });
    expect(res.Code, res.Msg).toBe(10000);
    expect(res.Data).toEqual({ translations: [], tagsKept: [], detectedLanguage: null, targetLanguage: 'fr', chars: 2500, cost: 3, balance: 7 });
    expect(fake.requests).toHaveLength(0);
    expect(await balanceOf(user.userId)).toBe(7);
    expect(await ledgerOf(user.userId)).toHaveLength(0);
  });

  it('charges ceil(chars / 1000 × translation_points_per_1k_chars), at least 1, on the ledger as translate', async () => {
    expect((await setting('translation_points_per_1k_chars', '3')).Code).toBe(10000);
    const user = await userWith(100);
    // 2,500 characters without the tags: ceil(2.5 × 3) = 8.
    const text = `<t0>${'a'.repeat(1000)}</t0>${'b'.repeat(1500)}`;
    const res = await api(t.app, user).postBody(URL, { text, targetLanguage: 'en' });
    expect(res.Code, res.Msg).toBe(10000);
    expect(res.Data).toMatchObject({ chars: 2500, cost: 8, balance: 92 });
    expect(await balanceOf(user.userId)).toBe(92);
    const entries = await ledgerOf(user.userId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ reason: 'translate', delta: -8, balanceAfter: 92 });
    expect(entries[0].idempotencyKey).toBe(`translate:${entries[0].refId}`);

    // A few characters still cost 1; a rate of 0 is free (nothing on the ledger).
    expect((await api(t.app, user).postBody(URL, { text: 'Hi', targetLanguage: 'en' })).Data).toMatchObject({ chars: 2, cost: 1, balance: 91 });
    expect((await setting('translation_points_per_1k_chars', '0')).Code).toBe(10000);
    expect((await api(t.app, user).postBody(URL, { text: 'Hi', targetLanguage: 'en' })).Data).toMatchObject({ cost: 0, balance: 91 });
    expect(await ledgerOf(user.userId)).toHaveLength(2);
  });

  it('refuses a translation the points do not cover, as the chat does, charging and asking nothing', async () => {
    const user = await userWith(0);
    const res = await api(t.app, user).postBody(URL, { text: 'Hello', targetLanguage: 'fr' });
    expect(res.Code).toBe(10470);
    expect(res.Msg).toBe('Not Enough Points. Check in daily for free points.');
    expect(fake.requests).toHaveLength(0);
    expect(await balanceOf(user.userId)).toBe(0);
    expect(await ledgerOf(user.userId)).toHaveLength(0);
  });

  it('refunds when the upstream fails, and says the model is busy', async () => {
    const user = await userWith(5);
    fake.script('basic-model', { status: 500 });
    const res = await api(t.app, user).postBody(URL, { text: 'Hello', targetLanguage: 'fr' });
    expect(res.Code).toBe(10503);
    expect(res.Msg).toBe('This model is busy now. Please try again later');
    expect(translationRequests().length).toBeGreaterThan(0);
    expect(await balanceOf(user.userId)).toBe(5);
    const entries = await ledgerOf(user.userId);
    expect(entries.map((e) => e.reason).sort()).toEqual(['refund', 'translate']);
    const charge = entries.find((e) => e.reason === 'translate')!;
    expect(entries.find((e) => e.reason === 'refund')).toMatchObject({ delta: 1, refId: charge.refId, idempotencyKey: `refund:${charge.idempotencyKey}` });
  });

  it('charges exactly the points there are under concurrency: 3 of 10 translated, never below zero', async () => {
    const user = await userWith(3);
    // Slow answers, so the requests overlap (on PostgreSQL they run side by side).
    fake.script('basic-model', { chunks: [JSON.stringify({ detectedLanguage: 'en', translations: ['ok'] })], headerDelayMs: 200 });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => api(t.app, user).postBody(URL, { text: `parallel ${i}`, targetLanguage: 'fr' })));
    expect(answers.filter((a) => a.Code === 10000)).toHaveLength(3);
    expect(answers.filter((a) => a.Code === 10470)).toHaveLength(7);
    expect(translationRequests()).toHaveLength(3);
    expect(await balanceOf(user.userId)).toBe(0);
    const charges = (await ledgerOf(user.userId)).filter((e) => e.reason === 'translate');
    expect(charges).toHaveLength(3);
    expect(charges.every((c) => (c.balanceAfter ?? -1) >= 0)).toBe(true);
  });

  it('refuses bad input with a message in the caller’s language', async () => {
    const user = await userWith(100);
    const as = api(t.app, user);
    const cases: [unknown, string, string][] = [
      [{ text: 'Hi', targetLanguage: 'xx' }, 'Choose a language to translate into from the list.', '请从列表中选择要翻译成的语言。'],
      [{ text: '   ', targetLanguage: 'fr' }, 'Give the text to translate.', '请提供要翻译的文字。'],
      [{ targetLanguage: 'fr' }, 'Give the text to translate.', '请提供要翻译的文字。'],
      [{ segments: Array.from({ length: 61 }, () => 'a'), targetLanguage: 'fr' }, 'Too many paragraphs in one request (at most 60).', '一次请求的段落太多（最多 60 段）。'],
      [{ segments: ['a'.repeat(5001)], targetLanguage: 'fr' }, 'One paragraph is too long to translate (at most 5000 characters).', '有一个段落太长，无法翻译（最多 5000 个字符）。'],
      [{ segments: Array.from({ length: 3 }, () => 'a'.repeat(4500)), targetLanguage: 'fr' }, 'This is too much text to translate at once (at most 12,000 characters).', '一次要翻译的文字太多（最多 12000 个字符）。'],
    ];
    for (const [body, en, zh] of cases) {
      const inEnglish = await as.postBody(URL, body);
      expect(inEnglish.Code).toBe(10400);
      expect(inEnglish.Msg).toContain(en);
      const inChinese = await as.postBody(URL, body, { lang: 'zh' });
      expect(inChinese.Code).toBe(10400);
      expect(inChinese.Msg).toContain(zh);
    }
    expect(fake.requests).toHaveLength(0);
    expect(await ledgerOf(user.userId)).toHaveLength(0);
  });

  it('refuses a caller who is not signed in', async () => {
    const res = await api(t.app).postBody(URL, { text: 'Hello', targetLanguage: 'fr' });
    expect(res.Code).toBe(10402);
    expect(fake.requests).toHaveLength(0);
  });

  it('translates with the translation_model setting’s model, and falls back when it cannot be used', async () => {
    const user = await userWith(100);
    expect((await setting('translation_model', 'pro-model')).Code).toBe(10000);
    const res = await api(t.app, user).postBody(URL, { text: 'Hello', targetLanguage: 'ko' });
    expect(res.Code, res.Msg).toBe(10000);
    expect(translationRequests().map((r) => r.model)).toEqual(['pro-model']);

    // An id that is not in the catalogue is refused when saved.
    const unknown = await setting('translation_model', 'no-such-model');
    expect(unknown.Code).toBe(10400);
    expect(unknown.Msg).toContain('no-such-model');

    // A model taken offline: the cheapest basic model translates.
    await t.database.db.insert(systemSettings).values({ settingKey: 'translation_model', settingValue: 'gone-model' }).onConflictDoUpdate({
      target: systemSettings.settingKey,
      set: { settingValue: 'gone-model' },
    });
    fake.reset();
    expect((await api(t.app, user).postBody(URL, { text: 'Hello', targetLanguage: 'ko' })).Code).toBe(10000);
    expect(translationRequests().map((r) => r.model)).toEqual(['basic-model']);
  });
});

describe('translation: a client that goes away, and a retry of the same request', () => {
  const answer = (text: string) => JSON.stringify({ detectedLanguage: 'en', translations: [`[fr] ${text}`] });

  it('cuts the model call and refunds once when the client aborts before the answer (over real HTTP)', async () => {
    const user = await userWith(5);
    const baseUrl = await listening(t.app);
    fake.script('basic-model', { chunks: [answer('Hello')], headerDelayMs: 5_000 });
    const client = new AbortController();
    const asked = http(baseUrl, user).post(URL, { text: 'Hello', targetLanguage: 'fr' }, { signal: client.signal });
    // Charged while the model is asked.
    await vi.waitFor(() => expect(translationRequests()).toHaveLength(1), { timeout: 5_000 });
    expect(await balanceOf(user.userId)).toBe(4);
    client.abort();
    await expect(asked).rejects.toThrow();
    await vi.waitFor(() => expect(translationRequests()[0].outcome).toBe('aborted'), { timeout: 3_000 });
    await vi.waitFor(async () => expect(await balanceOf(user.userId)).toBe(5), { timeout: 3_000 });
    const entries = await ledgerOf(user.userId);
    expect(entries.map((e) => e.reason).sort()).toEqual(['refund', 'translate']);
    const charge = entries.find((e) => e.reason === 'translate')!;
    expect(entries.find((e) => e.reason === 'refund')).toMatchObject({ delta: 1, refId: charge.refId });
    // Only the one deployment was asked: a gone client is not a failure to fail over from.
    expect(translationRequests()).toHaveLength(1);
  });

  it('answers a repeat with the same requestId the first translation, charged once, then a new key charges again', async () => {
    const user = await userWith(10);
    const requestId = randomUUID();
    const body = { segments: ['Hello', 'World'], targetLanguage: 'fr', requestId };
    const first = await api(t.app, user).postBody(URL, body);
    expect(first.Code, first.Msg).toBe(10000);
    expect(first.Data).toMatchObject({ translations: ['[fr] Hello', '[fr] World'], cost: 1, balance: 9 });
    const again = await api(t.app, user).postBody(URL, body);
    expect(again.Code, again.Msg).toBe(10000);
    expect(again.Data).toEqual(first.Data);
    expect(translationRequests()).toHaveLength(1);
    expect(await balanceOf(user.userId)).toBe(9);
    expect((await ledgerOf(user.userId)).filter((e) => e.reason === 'translate')).toHaveLength(1);

    // Another user's same key is theirs alone; a new key is a new translation.
    const other = await userWith(10);
    expect((await api(t.app, other).postBody(URL, body)).Data).toMatchObject({ cost: 1, balance: 9 });
    expect((await api(t.app, user).postBody(URL, { ...body, requestId: randomUUID() })).Data).toMatchObject({ cost: 1, balance: 8 });
    expect(translationRequests()).toHaveLength(3);
  });

  it('runs concurrent duplicates once: one model call, one charge, the same answer for all', async () => {
    const user = await userWith(10);
    fake.script('basic-model', { chunks: [answer('Same')], headerDelayMs: 300 });
    const body = { text: 'Same', targetLanguage: 'fr', requestId: randomUUID() };
    const answers = await Promise.all(Array.from({ length: 5 }, () => api(t.app, user).postBody(URL, body)));
    for (const a of answers) expect(a.Code, a.Msg).toBe(10000);
    expect(new Set(answers.map((a) => JSON.stringify(a.Data.translations)))).toEqual(new Set([JSON.stringify(['[fr] Same'])]));
    expect(translationRequests()).toHaveLength(1);
    expect(await balanceOf(user.userId)).toBe(9);
    expect((await ledgerOf(user.userId)).filter((e) => e.reason === 'translate')).toHaveLength(1);
  });

  it('refuses the same requestId with another body, in the caller’s language, charging nothing', async () => {
    const user = await userWith(10);
    const requestId = randomUUID();
    expect((await api(t.app, user).postBody(URL, { text: 'One', targetLanguage: 'fr', requestId })).Code).toBe(10000);
    for (const changed of [{ text: 'Two', targetLanguage: 'fr' }, { text: 'One', targetLanguage: 'de' }, { segments: ['One'], targetLanguage: 'fr' }]) {
      const res = await api(t.app, user).postBody(URL, { ...changed, requestId });
      expect(res.Code).toBe(10409);
      expect(res.Msg).toBe('This request id was already used for another text. Send a new request id with each new translation.');
    }
    const zh = await api(t.app, user).postBody(URL, { text: 'Two', targetLanguage: 'fr', requestId }, { lang: 'zh' });
    expect(zh.Msg).toBe('此请求 ID 已用于另一段文字。每次新的翻译请使用新的请求 ID。');
    expect(translationRequests()).toHaveLength(1);
    expect(await balanceOf(user.userId)).toBe(9);

    const bad = await api(t.app, user).postBody(URL, { text: 'One', targetLanguage: 'fr', requestId: 'not-a-uuid' }, { lang: 'zh' });
    expect(bad.Code).toBe(10400);
    expect(bad.Msg).toContain('请求 ID 必须是 UUID。');
  });

  it('gives a failed translation’s key up (refunded), so the retry runs and is charged once; keys expire after 10 minutes', async () => {
    const user = await userWith(10);
    const body = { text: 'Retry me', targetLanguage: 'fr', requestId: randomUUID() };
    fake.script('basic-model', { status: 500 });
    expect((await api(t.app, user).postBody(URL, body)).Code).toBe(10503);
    expect(await balanceOf(user.userId)).toBe(10);
    fake.reset();
    const retried = await api(t.app, user).postBody(URL, body);
    expect(retried.Code, retried.Msg).toBe(10000);
    expect(retried.Data).toMatchObject({ translations: ['[fr] Retry me'], balance: 9 });

    // Ten minutes on, the key is a new request (and the sweep deletes such rows).
    const key = eq(requestIdRows.requestId, body.requestId);
    await t.database.db.update(requestIdRows).set({ createdAt: new Date(Date.now() - 11 * 60_000) }).where(key);
    expect((await api(t.app, user).postBody(URL, body)).Data).toMatchObject({ balance: 8 });
    await t.database.db.update(requestIdRows).set({ createdAt: new Date(Date.now() - 11 * 60_000) }).where(key);
    expect(await sweepTranslationRequests(t.app.ctx)).toBeGreaterThanOrEqual(1);
    expect(await t.database.db.select().from(requestIdRows).where(key)).toHaveLength(0);
  });
});
