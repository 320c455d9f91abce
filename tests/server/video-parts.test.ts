import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { t as translate } from '../../server/core/i18n.ts';
import { chatMedia } from '../../server/db/schema/media.ts';
import { pointBalances, pointLedger } from '../../server/db/schema/points.ts';
import { catalogueChanged } from '../../server/services/catalogue/catalogue.ts';
import { creditPoints } from '../../server/services/points/ledger.ts';
import { formatTimestamp, videoMarkdown, type VideoReading } from '../../shared/utils/video-transcript.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api, http } from '../helpers/api.ts';
import { createTestApp, fakeOpenAIEnv, type TestApp } from '../helpers/app.ts';
import { listening, parseChatStream, readStream, type StreamEvent } from '../helpers/chat.ts';
import { lastUserText } from '../helpers/http-server.ts';
import { auth, createUser, type TestUser } from '../helpers/users.ts';

/**
 * Long videos (docs/help/en/videos.md#long-videos): a transcript too long for the model's context is
 * summarised in parts by the same model, each part within the context, and the answer reads the part
 * summaries with the timestamps of every part, the last hour included. The parts are charged as
 * messages of the model, given back when one fails, and kept with the attachment for follow-ups.
 */

const MODEL = 'video-model';
/** The model's context in tokens; about 3 characters a token (chat/prepare.ts CHARS_PER_TOKEN). */
const CONTEXT = 8192;
const PRICE = 2;

let fake: FakeOpenAI;
let t: TestApp;
let alice: TestUser;

/** A watch page's transcript as the tab reader attaches it: one line every `every` seconds for `seconds`. */
function transcript(seconds: number, every = 6): { markdown: string; lines: string[] } {
  const segments = Array.from({ length: Math.floor(seconds / every) }, (_, i) => ({
    start: i * every,
    text: `At this moment the speaker explains point number ${i + 1} of the talk.`,
  }));
  const video: VideoReading = {
    kind: 'video',
    platform: 'youtube',
    title: 'A long talk',
    url: 'https://www.youtube.com/watch?v=longtalk01',
    durationSeconds: seconds,
    language: 'en',
    source: 'captions',
    segments,
    chapters: [],
    description: 'A talk about many points.',
    live: false,
    note: '',
  };
  return { markdown: videoMarkdown(video), lines: segments.map((s) => `[${formatTimestamp(s.start)}] ${s.text}`) };
}

/** Attaches a page read in the tab, as the side panel does (AddChatMedia, page.md). */
async function attach(markdown: string, who = alice): Promise<string> {
  const form = new FormData();
  form.append('mediaType', 'html');
  form.append('pageTitle', 'A long talk');
  form.append('pageUrl', 'https://www.youtube.com/watch?v=longtalk01');
  form.append('pageFile', new Blob([markdown], { type: 'text/markdown' }), 'page.md');
  const encoded = new Response(form);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/Chat/AddChatMedia',
    headers: { ...auth(who.token), 'content-type': encoded.headers.get('content-type')! },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
  const body = res.json();
  expect(body.Code).toBe(10000);
  return body.Data.chatMediaId as string;
}

async function send(body: Record<string, unknown>, lang = 'en', who = alice): Promise<StreamEvent[]> {
  const res = await api(t.app, who.token).post('/api/Chat/AddMessage', { aiModelId: MODEL, ...body }, { lang });
  return parseChatStream(res.body);
}

const balanceOf = async (userId: string) =>
  Number((await t.database.db.select({ balance: pointBalances.balance }).from(pointBalances).where(eq(pointBalances.userId, userId)))[0]!.balance);

const partRequests = () => fake.requests.filter((r) => lastUserText(r.body).startsWith('Video: '));
const answerRequests = () => fake.requests.filter((r) => !lastUserText(r.body).startsWith('Video: '));
/** Everything a request sends the model, in characters. */
const sentChars = (body: any) => (body.messages as { content: string | { text?: string }[] }[]).reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : m.content.reduce((k, p) => k + (p.text?.length ?? 0), 0)), 0);

async function newUser(points: number): Promise<TestUser> {
  const user = await createUser(t.app);
  await creditPoints(t.database.db, { userId: user.userId, delta: points, kind: 'admin', key: `grant:${randomUUID()}` });
  return user;
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp({ ...fakeOpenAIEnv(fake, MODEL), FREE_DAILY_POINTS: '0', AUTH_RATE_LIMIT: '1000' });
  await t.database.db.execute(sql`update ai_models set points_cost = ${PRICE}, context_window = ${CONTEXT} where id = ${MODEL}`);
  await catalogueChanged(t.app.ctx);
  alice = await newUser(1000);
});
afterAll(async () => {
  // undici keeps a spare connection after an aborted fetch; it would hold the close.
  t?.app.server.closeAllConnections();
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

describe('a long video', () => {
  const three = transcript(3 * 3600);
  let mediaId: string;
  let sessionId: string;
  let parts: number;

  it('is summarised in parts, each within the context, and the answer reads every part with its timestamps', async () => {
    mediaId = await attach(three.markdown);
    const before = await balanceOf(alice.userId);
    const events = await send({ inputMessage: 'Summarise this video', chatMediaIds: [mediaId] });
    const last = events.at(-1)!;
    expect(last.Code).toBe(10000);
    expect(last.Data.FinishReason).toBe('stop');
    sessionId = last.Data.ChatSessionId;

    const asked = partRequests();
    parts = asked.length;
    expect(parts).toBeGreaterThan(3);
    // Each part within the model's context (with its answer's room), in order, the lines cut between lines.
    const seen: string[] = [];
    for (const [i, r] of asked.map((r) => ({ r, text: lastUserText(r.body) })).sort((a, b) => Number(/Part (\d+)/.exec(a.text)![1]) - Number(/Part (\d+)/.exec(b.text)![1])).entries()) {
      expect(r.text).toContain(`Part ${i + 1} of ${parts}`);
      expect(sentChars(r.r.body) + (r.r.body.max_tokens ?? r.r.body.max_completion_tokens) * 3).toBeLessThanOrEqual(CONTEXT * 3);
      seen.push(...r.text.split('\n').filter((line) => /^\[\d/.test(line)));
    }
    expect(seen).toEqual(three.lines);

    // The answer: one request, the part summaries in place of the transcript, the last hour's timestamps in it.
    const [answer] = answerRequests();
    expect(answerRequests()).toHaveLength(1);
    const prompt = lastUserText(answer!.body);
    expect(prompt).toContain(`## Transcript, summarised in ${parts} parts`);
    expect(prompt).toContain('cover the whole video from beginning to end');
    const lastStamp = /^\[([^\]]+)\]/.exec(three.lines.at(-1)!)![1];
    expect(lastStamp).toBe('2:59:54');
    expect(prompt).toContain(`### Part ${parts} of ${parts} [`);
    expect(prompt).toContain(`- [${lastStamp}] Part ${parts} ends.`);
    expect(prompt).toContain('- [00:00] Part 1 begins.');
    expect(prompt).not.toContain('it was cut to fit');
    expect(prompt).not.toContain('point number 900 of the talk');
    expect(sentChars(answer!.body)).toBeLessThanOrEqual(CONTEXT * 3);

    // Charged: the message and each part at the model's price, the parts once, under their own key.
    expect(await balanceOf(alice.userId)).toBe(before - PRICE - parts * PRICE);
    const entries = await t.database.db.select().from(pointLedger).where(eq(pointLedger.idempotencyKey, `video-parts:${last.Data.ChatMessageId}:${mediaId}`));
    expect(entries.map((e) => e.delta)).toEqual([-parts * PRICE]);
    const [row] = await t.database.db.select({ partSummaries: chatMedia.partSummaries }).from(chatMedia).where(eq(chatMedia.id, mediaId));
    expect(row!.partSummaries).toHaveLength(parts);
    expect(row!.partSummaries!.at(-1)).toMatchObject({ to: lastStamp });
  });

  it('a follow-up about it reads the kept summaries: no part is asked or charged again', async () => {
    const before = await balanceOf(alice.userId);
    const events = await send({ inputMessage: 'What happens at the very end?', chatMediaIds: [], chatSessionId: sessionId });
    expect(events.at(-1)!.Data.FinishReason).toBe('stop');
    expect(partRequests()).toHaveLength(0);
    expect(fake.requests).toHaveLength(1);
    const sent = JSON.stringify(fake.requests[0]!.body.messages);
    expect(sent).toContain(`### Part ${parts} of ${parts}`);
    expect(sent).toContain('[2:59:54] Part');
    expect(await balanceOf(alice.userId)).toBe(before - PRICE);
  });

  it('the same video attached again to a new message of a new chat is summarised from the kept parts too', async () => {
    const before = await balanceOf(alice.userId);
    const events = await send({ inputMessage: 'Summarise this video again', chatMediaIds: [mediaId] });
    expect(events.at(-1)!.Data.FinishReason).toBe('stop');
    expect(partRequests()).toHaveLength(0);
    expect(lastUserText(fake.requests[0]!.body)).toContain(`- [2:59:54] Part ${parts} ends.`);
    expect(await balanceOf(alice.userId)).toBe(before - PRICE);
  });
});

describe('a short video', () => {
  it('is read whole: no part is asked', async () => {
    const short = transcript(10 * 60);
    const id = await attach(short.markdown);
    const before = await balanceOf(alice.userId);
    const events = await send({ inputMessage: 'Summarise this video', chatMediaIds: [id] });
    expect(events.at(-1)!.Data.FinishReason).toBe('stop');
    expect(partRequests()).toHaveLength(0);
    const prompt = lastUserText(fake.requests[0]!.body);
    expect(prompt).toContain(short.lines.at(-1));
    expect(prompt).not.toContain('summarised in');
    expect(await balanceOf(alice.userId)).toBe(before - PRICE);
  });
});

describe('a part that fails', () => {
  it('ends the answer with a clear error in the user language, gives every point back and keeps no summary', async () => {
    const bob = await newUser(1000);
    const id = await attach(transcript(3 * 3600).markdown, bob);
    fake.script(MODEL, { status: 500 });
    for (const [lang, language] of [['en', 'en'], ['zh-CN', 'zh']] as const) {
      const events = await send({ inputMessage: 'Summarise this video', chatMediaIds: [id] }, lang, bob);
      const last = events.at(-1)!;
      expect(last.Data.FinishReason).toBe('error');
      expect(last.Code).toBe(10503);
      expect(last.Msg).toMatch(language === 'en' ? /^Summarising part \d+ of \d+ of this long video failed: This model is busy now/ : /^总结这个长视频的第 \d+\/\d+ 部分失败：模型繁忙/);
      expect(last.Msg).not.toContain('{{');
      expect(answerRequests()).toHaveLength(0);
    }
    expect(translate('zh', 'videoPartFailed', { part: 1, parts: 2, reason: 'x' })).toContain('第 1/2 部分');
    // The messages' holds and the parts' charges all came back.
    expect(await balanceOf(bob.userId)).toBe(1000);
    const refunds = await t.database.db.select().from(pointLedger).where(sql`${pointLedger.userId} = ${bob.userId} and ${pointLedger.idempotencyKey} like 'refund:video-parts:%'`);
    expect(refunds).toHaveLength(2);
    const [row] = await t.database.db.select({ partSummaries: chatMedia.partSummaries }).from(chatMedia).where(eq(chatMedia.id, id));
    expect(row!.partSummaries).toBeNull();
  });

  it('without the points for its parts, the answer ends with Not Enough Points and the message is given back', async () => {
    const carol = await newUser(PRICE + 1);
    const id = await attach(transcript(3 * 3600).markdown, carol);
    const events = await send({ inputMessage: 'Summarise this video', chatMediaIds: [id] }, 'en', carol);
    const last = events.at(-1)!;
    expect(last.Code).toBe(10470);
    expect(last.Msg).toMatch(/^Not Enough Points to summarise this long video: its \d+ parts cost \d+ points/);
    expect(fake.requests).toHaveLength(0);
    expect(await balanceOf(carol.userId)).toBe(PRICE + 1);
  });
});

describe('stopping the answer', () => {
  it('aborts the part calls that are running and gives their points back', async () => {
    const dave = await newUser(1000);
    const id = await attach(transcript(3 * 3600).markdown, dave);
    fake.script(MODEL, { hang: true });
    const baseUrl = await listening(t.app);
    const res = await http(baseUrl, dave.token).post('/api/Chat/AddMessage', { aiModelId: MODEL, inputMessage: 'Summarise this video', chatMediaIds: [id] });
    let stopped = false;
    const { events, done } = await readStream(res, async (e) => {
      if (stopped) return;
      stopped = true;
      // Three parts are asked at once; then the user stops.
      await vi.waitUntil(() => partRequests().length === 3, { timeout: 10_000, interval: 20 });
      const stop = await api(t.app, dave.token).post('/api/Chat/StopMessage', { chatMessageId: e.Data.ChatMessageId });
      expect(stop.json()).toMatchObject({ Code: 10000 });
    });
    expect(done).toBe(true);
    expect(events.at(-1)!.Data.FinishReason).toBe('user-stopped');
    await vi.waitUntil(() => partRequests().every((r) => r.outcome === 'aborted'), { timeout: 10_000, interval: 20 });
    expect(partRequests()).toHaveLength(3);
    expect(answerRequests()).toHaveLength(0);
    // A stopped message keeps its price (docs/economy.md); the parts come back.
    expect(await balanceOf(dave.userId)).toBe(1000 - PRICE);
  });
});

describe('a model too small for the summaries of every part', () => {
  it('refuses the video before anything is charged or asked, naming the model', async () => {
    const erin = await newUser(1000);
    const id = await attach(transcript(3 * 3600).markdown, erin);
    await t.database.db.execute(sql`update ai_models set context_window = 2048 where id = ${MODEL}`);
    await catalogueChanged(t.app.ctx);
    try {
      const res = await api(t.app, erin.token).post('/api/Chat/AddMessage', { aiModelId: MODEL, inputMessage: 'Summarise this video', chatMediaIds: [id] });
      const body = res.json();
      expect(body.Code).toBe(10414);
      expect(body.Msg).toMatch(/^This video's transcript is too long for video-model: it would take \d+ parts to summarise \(at most \d+\)/);
      expect(fake.requests).toHaveLength(0);
      expect(await balanceOf(erin.userId)).toBe(1000);
    } finally {
      await t.database.db.execute(sql`update ai_models set context_window = ${CONTEXT} where id = ${MODEL}`);
      await catalogueChanged(t.app.ctx);
    }
  });
});

describe('keeping a transcript', () => {
  it('keeps a video transcript past the 200,000 characters kept of other pages', async () => {
    const long = transcript(8 * 3600, 3);
    expect(long.markdown.length).toBeGreaterThan(400_000);
    const id = await attach(long.markdown);
    const [row] = await t.database.db.select({ text: chatMedia.contentText, chars: chatMedia.contentChars }).from(chatMedia).where(eq(chatMedia.id, id));
    expect(row!.text.length).toBe(long.markdown.length);
    expect(row!.text.endsWith(long.lines.at(-1)!)).toBe(true);
    // The same text as an ordinary page (not a watch page) is cut as before.
    const form = new FormData();
    form.append('mediaType', 'html');
    form.append('pageUrl', 'https://example.com/notes');
    form.append('pageFile', new Blob([long.markdown], { type: 'text/markdown' }), 'page.md');
    const encoded = new Response(form);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Chat/AddChatMedia',
      headers: { ...auth(alice.token), 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    const [page] = await t.database.db.select({ text: chatMedia.contentText }).from(chatMedia).where(eq(chatMedia.id, res.json().Data.chatMediaId));
    expect(page!.text.length).toBe(200_000);
  });
});
