import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { t as translate } from '../../server/core/i18n.ts';
import { looksScanned } from '../../server/services/media/document-text.ts';
import { withAttachments, type AttachedMedia } from '../../server/services/media/for-model.ts';
import { makePdf, makeScannedPdf } from '../fixtures/documents.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, fakeOpenAIEnv, type TestApp } from '../helpers/app.ts';
import { parseChatStream } from '../helpers/chat.ts';
import { auth, createUser, type TestUser } from '../helpers/users.ts';

/**
 * A PDF read from the user's tab goes through the file upload: its text comes page by page, the
 * answer says how many pages it has, the model is asked to cite pages, and a scanned PDF (no text
 * layer) is refused with a message saying so instead of being attached empty.
 */

let fake: FakeOpenAI;
let t: TestApp;
let alice: TestUser;

async function uploadPdf(bytes: Buffer, name: string, fields: Record<string, string> = {}, lang = 'en') {
  const form = new FormData();
  form.append('mediaType', 'file');
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('pageFile', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), name);
  const encoded = new Response(form);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/Chat/AddChatMedia',
    headers: { ...auth(alice.token), 'content-type': encoded.headers.get('content-type')!, 'accept-language': lang },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const picture = () => sharp({ create: { width: 120, height: 90, channels: 3, background: '#886644' } }).png().toBuffer();

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp({ ...fakeOpenAIEnv(fake, 'basic-model'), DATA_DIR: 'memory://', FREE_DAILY_POINTS: '1000' });
  alice = await createUser(t.app);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

describe('a PDF from the tab', () => {
  it('is read page by page, answers its page count, and the model is asked to cite pages', async () => {
    const pdf = await makePdf([['Otter survey'], ['Otters were counted 42 times at the river.'], ['Closing notes.']]);
    const body = await uploadPdf(pdf, 'otter-survey.pdf', { pageTitle: 'Otter survey 2026', pageUrl: 'https://example.com/otter-survey.pdf' });
    expect(body.Code).toBe(10000);
    expect(body.Data).toMatchObject({ pageTitle: 'Otter survey 2026', pageUrl: 'https://example.com/otter-survey.pdf', pageCount: 3 });

    const res = await api(t.app, alice.token).post('/api/Chat/AddMessage', {
      aiModelId: 'basic-model',
      inputMessage: 'How many otters?',
      chatMediaIds: [body.Data.chatMediaId],
    });
    expect(parseChatStream(res.body).at(-1)!.Data.FinishReason).toBe('stop');
    const sent = fake.requests.at(-1)!.body.messages.at(-1).content as string;
    expect(sent).toContain('<file name="otter-survey.pdf" type="application/pdf" title="Otter survey 2026">');
    expect(sent).toMatch(/--- Page 1 ---\nOtter survey\n\n--- Page 2 ---\nOtters were counted 42 times at the river\.\n\n--- Page 3 ---\nClosing notes\./);
    expect(sent).toContain('cite the page each point comes from as (p. N)');
    expect(sent.trim().endsWith('How many otters?')).toBe(true);
  });

  it('refuses a scanned PDF (pictures only) with a message in the user language', async () => {
    const scanned = await makeScannedPdf(await picture(), 2);
    const en = await uploadPdf(scanned, 'scan.pdf');
    expect(en).toEqual({ Code: 10422, Msg: translate('en', 'pdfNoTextLayer', { name: 'scan.pdf' }), Data: null });
    expect(en.Msg).toContain('has no text layer (it looks scanned); Tandem cannot read it');
    const zh = await uploadPdf(scanned, 'scan.pdf', {}, 'zh-CN');
    expect(zh.Msg).toBe(translate('zh', 'pdfNoTextLayer', { name: 'scan.pdf' }));
    expect(zh.Msg).toContain('没有文字层');
  });

  it('refuses a scan whose only text is its page numbers', async () => {
    const scanned = await makeScannedPdf(await picture(), 4, (n) => String(n));
    const body = await uploadPdf(scanned, 'numbered-scan.pdf');
    expect(body.Code).toBe(10422);
    expect(body.Msg).toBe(translate('en', 'pdfNoTextLayer', { name: 'numbered-scan.pdf' }));
  });

  it('still reads a short PDF with a little text', async () => {
    const body = await uploadPdf(await makePdf([['ok']]), 'short.pdf');
    expect(body.Code).toBe(10000);
    expect(body.Data.pageCount).toBe(1);
  });
});

describe('looksScanned', () => {
  it('tells pages without letters from pages with text', () => {
    expect(looksScanned(['', ''])).toBe(true);
    expect(looksScanned(['1', '2', '3'])).toBe(true);
    expect(looksScanned(['ok'])).toBe(false);
    expect(looksScanned(['', 'Otters were counted.', ''])).toBe(false);
  });
});

describe('withAttachments', () => {
  const media = (mimeType: string): AttachedMedia => ({
    id: 'm',
    mediaType: 'file',
    title: 'doc',
    url: '',
    contentText: '--- Page 1 ---\nHello',
    cut: false,
    fileName: 'doc.pdf',
    mimeType,
    storageKey: 'x',
  });
  it('asks for page citations for a PDF only', () => {
    expect(withAttachments('Q', [media('application/pdf')], 10_000)).toContain('(p. N)');
    expect(withAttachments('Q', [media('text/plain; charset=utf-8')], 10_000)).not.toContain('(p. N)');
  });
});
