import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatMedia } from '../../server/db/schema/media.ts';
import { t as translate } from '../../server/core/i18n.ts';
import { withAttachments } from '../../server/services/media/for-model.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { parseChatStream } from '../helpers/chat.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/** A small website on loopback, allowed to the reader through READER_ALLOWLIST. */
const ARTICLE = `<!doctype html><html><head><meta charset="utf-8"><title>Otters | Field Notes</title>
<link rel="icon" href="/favicon.png"></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Sea otters</h1>
<p>Sea otters hold hands while they sleep, so that they do not drift apart. This is called rafting.</p>
<p>${'They eat sea urchins, crabs and clams, and use stones as tools to open shells. '.repeat(12)}</p>
<p>Read <a href="/more">more about otters</a>.</p></article>
<footer>© Field Notes</footer></body></html>`;

function startSite(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/otters') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    } else if (req.url === '/blank') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('');
    } else if (req.url === '/deep') {
      // Nesting that would hold the server for seconds in Readability, then overflow the stack.
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${'<div>'.repeat(20_000)}deep${'</div>'.repeat(20_000)}</body></html>`);
    } else if (req.url === '/empty') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body></body></html>');
    } else if (req.url === '/data.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}');
    } else if (req.url === '/to-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    } else {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>');
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

describe('reading web pages for the model (UploadMedia, AddMessage chatMediaIds)', () => {
  let site: { server: Server; origin: string };
  let fake: FakeOpenAI;
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  const readPage = (token: string, url: string, lang?: string) => api(t.app, token).postBody('/api/Chat/UploadMedia', { url }, { lang });

  beforeAll(async () => {
    site = await startSite();
    fake = await startFakeOpenAI();
    t = await createTestApp({
      OPENAI_API_KEY: 'test',
      OPENAI_BASE_URL: fake.baseUrl,
      OPENAI_MODELS: 'basic-model',
      READER_ALLOWLIST: new URL(site.origin).host,
    });
    alice = await createUser(t.app);
    bob = await createUser(t.app);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await new Promise((resolve) => site.server.close(resolve));
  });
  beforeEach(() => fake.reset());

  it('reads a page into an html media item: title, icon, final URL, and its article as Markdown', async () => {
    const body = await readPage(alice.token, `${site.origin}/otters`);
    expect(body.Code).toBe(10000);
    expect(body.Data).toEqual({
      chatMediaId: expect.any(String),
      image: { imgSrcAll: '' },
      pageFilePath: '',
      iconStr: `${site.origin}/favicon.png`,
      pageUrl: `${site.origin}/otters`,
      pageTitle: 'Otters | Field Notes',
    });
    const [row] = await t.database.db.select().from(chatMedia).where(eq(chatMedia.id, body.Data.chatMediaId));
    expect(row.userId).toBe(alice.userId);
    expect(row.mediaType).toBe('html');
    expect(row.contentText).toContain('Sea otters hold hands while they sleep');
    // Links made absolute; navigation and footer left out by Readability.
    expect(row.contentText).toContain(`[more about otters](${site.origin}/more)`);
    expect(row.contentText).not.toContain('Field Notes</footer>');
    expect(row.contentText).not.toMatch(/\[Home\]/);
  });

  it('gives the page to the model with the question, and only to its owner', async () => {
    const { Data } = await readPage(alice.token, `${site.origin}/otters`);
    const res = await api(t.app, alice).post('/api/Chat/AddMessage', {
      aiModelId: 'basic-model',
      inputMessage: 'Why do otters hold hands?',
      chatMediaIds: [Data.chatMediaId],
    });
    expect(parseChatStream(res.body).at(-1)!.Data.FinishReason).toBe('stop');
    const sent = fake.requests.at(-1)!.body.messages.at(-1).content as string;
    expect(sent).toContain('<web-page title="Otters | Field Notes"');
    expect(sent).toContain('Sea otters hold hands while they sleep');
    expect(sent.trim().endsWith('Why do otters hold hands?')).toBe(true);

    // The message lists the page it carried, for its bubble.
    const sessionId = parseChatStream(res.body)[0].Data.ChatSessionId;
    const listed = await api(t.app, alice).get(`/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${sessionId}`);
    expect(listed.json().Data.list[0].chatMedias).toEqual([
      { chatMediaId: Data.chatMediaId, mediaType: 'html', title: 'Otters | Field Notes', url: `${site.origin}/otters`, icon: `${site.origin}/favicon.png` },
    ]);

    // A follow-up in the same chat still has the page (it is part of the history).
    await api(t.app, alice).post('/api/Chat/AddMessage', { aiModelId: 'basic-model', inputMessage: 'And what do they eat?', chatSessionId: sessionId });
    const history = fake.requests.at(-1)!.body.messages;
    expect(history.find((m: { role: string; content: string }) => m.role === 'user' && m.content.includes('rafting'))).toBeTruthy();

    // Bob cannot use Alice's page: answered as not found, nothing charged or stored, no upstream call.
    const before = fake.requests.length;
    const refused = await api(t.app, bob).post('/api/Chat/AddMessage', {
      aiModelId: 'basic-model',
      inputMessage: 'Summarise',
      chatMediaIds: [Data.chatMediaId],
    });
    expect(refused.json()).toMatchObject({ Code: 10404 });
    expect(fake.requests.length).toBe(before);
  });

  it.each([
    ['a private address', 'http://10.0.0.1/', 'pageAddressBlocked', 'only public web pages'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/', 'pageAddressBlocked', 'only public web pages'],
    ['loopback on another port', 'http://127.0.0.1:9/', 'pageAddressBlocked', 'only public web pages'],
    ['a port other than 80 and 443', 'http://example.com:8080/', 'pagePortBlocked', 'standard ports'],
    ['a redirect to the metadata address', '/to-metadata', 'pageAddressBlocked', 'only public web pages'],
    ['a JSON document', '/data.json', 'pageUnsupported', 'Only web pages (HTML)'],
    ['a page that is not there', '/missing', 'pageHttpStatus', 'answered with an error'],
    ['a page with no text', '/empty', 'pageEmpty', 'No readable text'],
    ['an empty body', '/blank', 'pageEmpty', 'No readable text'],
    ['markup nested 20,000 deep', '/deep', 'pageUnreadable', 'cannot be read'],
    ['a non-web scheme', 'ftp://example.com/file', 'urlInvalid', 'http:// or https://'],
  ] as const)('refuses %s with a clear message and stores nothing', async (_name, target, key, message) => {
    const url = target.startsWith('/') ? `${site.origin}${target}` : target;
    const count = async () => (await t.database.db.select().from(chatMedia)).length;
    const before = await count();
    const body = await readPage(alice.token, url);
    expect(body.Code).toBe(10422);
    expect(body.Msg).toContain(message);
    expect(body.Msg).toBe(translate('en', key));
    expect(body.Data).toBeNull();
    expect(await count()).toBe(before);
  });

  it('answers a refusal in the caller’s language, and bad input as bad input', async () => {
    const zh = await readPage(alice.token, 'http://192.168.1.1/', 'zh');
    expect(zh).toMatchObject({ Code: 10422, Msg: '无法读取此地址：只能读取公开的网页。' });
    const empty = await readPage(alice.token, '   ');
    expect(empty.Code).toBe(10400);
    expect(empty.Msg).toContain('Enter the address of a web page.');
    const notUrl = await readPage(alice.token, 'not a url');
    expect(notUrl.Code).toBe(10400);
  });

  it('needs a login', async () => {
    const res = await api(t.app).post('/api/Chat/UploadMedia', { url: `${site.origin}/otters` });
    expect(res.json().Code).toBe(10402);
  });
});

describe('withAttachments (pages)', () => {
  const page = (contentText: string, cut = false) => ({
    id: 'p',
    mediaType: 'html',
    title: 'T',
    url: 'https://example.com/',
    contentText,
    cut,
    fileName: '',
    mimeType: '',
    storageKey: '',
  });

  it('leaves a message without pages as it is', () => {
    expect(withAttachments('Hi', [], 1000)).toBe('Hi');
  });

  it('cuts a long page to the budget and tells the model it was cut', () => {
    const text = withAttachments('Question?', [page('x'.repeat(5000))], 1000);
    expect(text).toContain('x'.repeat(1000));
    expect(text).not.toContain('x'.repeat(1001));
    expect(text).toContain('it was cut to fit');
    expect(text.endsWith('Question?')).toBe(true);
  });

  it('says so too when the stored page was already cut at reading time', () => {
    expect(withAttachments('Q', [page('short', true)], 1000)).toContain('it was cut to fit');
    expect(withAttachments('Q', [page('short')], 1000)).not.toContain('it was cut to fit');
  });
});
