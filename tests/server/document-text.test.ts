import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t as translate } from '../../server/core/i18n.ts';
import { chatMedia } from '../../server/db/schema/media.ts';
import { pointLedger } from '../../server/db/schema/points.ts';
import { PAGE_BREAK, TRANSLATE_DOCUMENT_MAX_CHARS } from '../../shared/contracts/translate.ts';
import { makeDocx, makePdf, makeScannedPdf } from '../fixtures/documents.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { auth, createUser, type TestUser } from '../helpers/users.ts';

/**
 * POST /api/System/DocumentText (docs/api.md#translation): the text of a .docx or .pdf for the
 * Translate page, read as chat attachments are (same checks), answered and neither kept nor charged.
 */

const URL = '/api/System/DocumentText';
const MB = 1024 * 1024;

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
  user = await createUser(t.app);
});
afterAll(() => t?.close());

/** Sends `bytes` as `name` in a real multipart form, as the page's FormData does. */
async function send(name: string, bytes: Buffer, opts: { token?: string | null; lang?: string } = {}) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const encoded = new Response(form);
  const token = opts.token === undefined ? user.token : opts.token;
  const res = await t.app.inject({
    method: 'POST',
    url: URL,
    headers: { ...(token ? auth(token) : {}), 'content-type': encoded.headers.get('content-type')!, 'accept-language': opts.lang ?? 'en' },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
  return res.json() as { Code: number; Msg: string; Data: { fileName: string; text: string; pageCount: number | null } | null };
}

describe('the text of a document for the Translate page', () => {
  it('answers a Word document’s paragraphs, keeping nothing and charging nothing', async () => {
    const res = await send('Notes.docx', makeDocx(['First paragraph.', 'Second paragraph, with more words.']));
    expect(res.Code, res.Msg).toBe(10000);
    expect(res.Data).toEqual({ fileName: 'Notes.docx', text: 'First paragraph.\n\nSecond paragraph, with more words.', pageCount: null });
    expect(await t.database.db.select().from(chatMedia)).toHaveLength(0);
    expect(await t.database.db.select().from(pointLedger)).toHaveLength(0);
  });

  it('answers a PDF’s pages separated by a page break', { timeout: 60_000 }, async () => {
    const pdf = await makePdf([['Page one, first line', 'second line'], ['Page two']]);
    const res = await send('Report.pdf', pdf);
    expect(res.Code, res.Msg).toBe(10000);
    expect(res.Data).toEqual({ fileName: 'Report.pdf', text: `Page one, first line\nsecond line\n\n${PAGE_BREAK}\n\nPage two`, pageCount: 2 });
  });

  it('refuses what it cannot read, as the attachments are refused, in the caller’s language', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toBuffer();
    const bomb = makeDocx([], `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${' '.repeat(70 * MB)}</w:body></w:document>`);
    const cases: [string, Buffer, number, Parameters<typeof translate>[1], Record<string, string | number>][] = [
      ['notes.txt', Buffer.from('plain text'), 10422, 'uploadFileTypeError', { name: 'notes.txt', types: 'docx, pdf' }],
      ['picture.png', png, 10422, 'uploadFileTypeError', { name: 'picture.png', types: 'docx, pdf' }],
      ['fake.pdf', Buffer.from('not a pdf at all'), 10422, 'fileContentMismatch', { name: 'fake.pdf', type: 'PDF' }],
      ['scan.pdf', await makeScannedPdf(png, 2), 10422, 'pdfNoTextLayer', { name: 'scan.pdf' }],
      ['bomb.docx', bomb, 10422, 'fileTooComplex', { name: 'bomb.docx' }],
    ];
    for (const [name, bytes, code, key, params] of cases) {
      expect(await send(name, bytes)).toEqual({ Code: code, Msg: translate('en', key, params), Data: null });
    }
    expect(await send('notes.txt', Buffer.from('plain text'), { lang: 'zh' })).toEqual({
      Code: 10422,
      Msg: '无法添加文件 notes.txt：不支持该文件类型。请选择以下类型的文件：docx, pdf。',
      Data: null,
    });
    expect(await t.database.db.select().from(chatMedia)).toHaveLength(0);
  }, 120_000);

  it('refuses a text longer than the page translates at once', async () => {
    const paragraphs = Array.from({ length: Math.ceil(TRANSLATE_DOCUMENT_MAX_CHARS / 5000) + 1 }, (_, i) => `${i} ${'x'.repeat(4990)}`);
    const res = await send('long.docx', makeDocx(paragraphs), { lang: 'zh' });
    expect(res).toEqual({ Code: 10422, Msg: translate('zh', 'documentTextTooLong', { name: 'long.docx', max: TRANSLATE_DOCUMENT_MAX_CHARS }), Data: null });
    expect(res.Msg).toContain('200000');
  });

  it('refuses a caller who is not signed in, and a form without a file', async () => {
    expect((await send('Notes.docx', makeDocx(['x']), { token: null })).Code).toBe(10402);
    expect((await api(t.app, user).postBody(URL, {})).Code).toBe(10400);
  });
});
