import { existsSync, readdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DOCUMENT_EXTENSIONS } from '../../shared/contracts/media.ts';
import { chatMedia } from '../../server/db/schema/media.ts';
import { t as translate } from '../../server/core/i18n.ts';
import { FileStoreError, localFileStore, s3FileStore } from '../../server/providers/file-store.ts';
import { adminSaveDeployment, adminSaveModel } from '../../server/services/catalogue/catalogue-admin.ts';
import { sweepUnsentMedia, UNSENT_MEDIA_TTL_MS } from '../../server/services/media/cleanup.ts';
import { signedMediaPath } from '../../server/services/media/links.ts';
import { makeDocx, makePdf } from '../fixtures/documents.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { startFakeS3, type FakeS3 } from '../fixtures/fake-s3.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, fakeOpenAIEnv, type TestApp } from '../helpers/app.ts';
import { parseChatStream } from '../helpers/chat.ts';
import { testSaveModel } from '../helpers/models.ts';
import { auth, createUser, type TestUser } from '../helpers/users.ts';
import { s3Env } from '../helpers/s3-env.ts';

const MB = 1024 * 1024;
const SECRET_KEY = 'media-files-test-secret-key-0123456789';

type FilePart = { field?: string; name: string; bytes: Buffer; type?: string };

/** A real multipart/form-data body, as a browser's FormData sends it. */
async function formBody(fields: Record<string, string>, files: FilePart[]) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const f of files) form.append(f.field ?? 'pageFile', new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'application/octet-stream' }), f.name);
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

const png = (width = 64, height = 48, color = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();
const jpeg = () => sharp({ create: { width: 40, height: 30, channels: 3, background: '#cc6633' } }).jpeg().toBuffer();

/** Parts of the last message the fake upstream received. */
type Part = { type: string; text?: string; image_url?: { url: string } };
const lastUserContent = (fake: FakeOpenAI): string | Part[] => fake.requests.at(-1)!.body.messages.at(-1).content;
const textOfContent = (content: string | Part[]) =>
  typeof content === 'string' ? content : content.filter((p) => p.type === 'text').map((p) => p.text).join('');

let fake: FakeOpenAI;
let t: TestApp;
let alice: TestUser;
let bob: TestUser;

const upload = async (token: string | null, url: string, fields: Record<string, string>, files: FilePart[], lang = 'en') => {
  const { payload, contentType } = await formBody(fields, files);
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { ...(token ? auth(token) : {}), 'content-type': contentType, 'accept-language': lang },
    payload,
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
};
const addChatMedia = (token: string, fields: Record<string, string>, file: FilePart) =>
  upload(token, '/api/Chat/AddChatMedia', fields, [file]).then((r) => r.body);
const send = (token: string, payload: Record<string, unknown>) => api(t.app, token).post('/api/Chat/AddMessage', payload);
const getMedia = (url: string, token?: string) => api(t.app, token).get(url);
const rowOf = async (id: string) => (await t.database.db.select().from(chatMedia).where(eq(chatMedia.id, id)))[0];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp({
    // basic-model reads text only; gpt-4o-mini reads images too (see looksLikeVision).
    ...fakeOpenAIEnv(fake, 'basic-model,gpt-4o-mini'),
    DATA_DIR: 'memory://',
    SECRET_KEY,
    FREE_DAILY_POINTS: '1000',
  });
  const ctx = t.app.ctx;
  // A model an operator narrowed to PDFs.
  await adminSaveModel(ctx, testSaveModel('pdf-only', { name: 'PDF only', modelMap: { isImage: false, fileTypes: ['pdf'] } }));
  await adminSaveDeployment(ctx, {
    aiModelId: 'pdf-only',
    provider: 'openai-compatible',
    baseUrl: fake.baseUrl,
    apiKey: 'sk-test',
    upstreamModelId: 'pdf-only',
    priority: 0,
    enabled: true,
  });
  alice = await createUser(t.app);
  bob = await createUser(t.app);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

describe('uploading files and images for the model', () => {
  describe('documents become text the model reads', () => {
    it('reads a multi-page PDF page by page and gives the pages to the model', async () => {
      const pdf = await makePdf([
        ['Quarterly report', 'Otters rafted 42 times in spring.'],
        ['Second page', 'Beavers built 7 dams in summer.'],
        ['Third page', 'Nothing happened in autumn.'],
      ]);
      const body = await addChatMedia(alice.token, { mediaType: 'file', pageTitle: '', pageUrl: '' }, { name: 'report.pdf', bytes: pdf });
      expect(body.Code).toBe(10000);
      expect(body.Data).toEqual({
        chatMediaId: expect.any(String),
        image: { imgSrcAll: '' },
        pageFilePath: expect.stringMatching(/^\/api\/Chat\/GetChatMedia\?chatMediaId=[\w-]+&exp=\d+&sig=[\w-]+$/),
        iconStr: '',
        pageUrl: '',
        pageTitle: 'report.pdf',
        pageCount: 3,
      });
      const row = await rowOf(body.Data.chatMediaId);
      expect(row).toMatchObject({ userId: alice.userId, mediaType: 'file', fileName: 'report.pdf', mimeType: 'application/pdf', byteSize: pdf.length, purpose: 'chat' });
      expect(row.contentText).toContain('--- Page 3 ---');

      const res = await send(alice.token, { aiModelId: 'basic-model', inputMessage: 'How many dams?', chatMediaIds: [body.Data.chatMediaId] });
      expect(parseChatStream(res.body).at(-1)!.Data.FinishReason).toBe('stop');
      const sent = textOfContent(lastUserContent(fake));
      expect(sent).toContain('<file name="report.pdf" type="application/pdf">');
      expect(sent).toMatch(/--- Page 1 ---\nQuarterly report\nOtters rafted 42 times in spring\./);
      expect(sent).toMatch(/--- Page 2 ---\nSecond page\nBeavers built 7 dams in summer\./);
      expect(sent).toContain('Nothing happened in autumn.');
      expect(sent.trim().endsWith('How many dams?')).toBe(true);
    });

    it('reads a Word document (AddChatFileToAi, the generic uploader)', async () => {
      const docx = makeDocx(['Meeting notes', 'The otter sanctuary opens on 3 May & admits 20 visitors a day.']);
      const { body } = await upload(alice.token, '/api/Chat/AddChatFileToAi', { mediaType: 'file' }, [{ name: 'Notes.DOCX', bytes: docx }]);
      expect(body.Code).toBe(10000);
      const row = await rowOf(body.Data.chatMediaId);
      expect(row).toMatchObject({ purpose: 'ai', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' });
      expect(row.contentText).toBe('Meeting notes\n\nThe otter sanctuary opens on 3 May & admits 20 visitors a day.');

      await send(alice.token, { aiModelId: 'basic-model', inputMessage: 'When does it open?', chatMediaIds: [body.Data.chatMediaId] });
      const sent = textOfContent(lastUserContent(fake));
      expect(sent).toContain('<file name="Notes.DOCX"');
      expect(sent).toContain('The otter sanctuary opens on 3 May & admits 20 visitors a day.');
    });

    it.each([
      ['notes.md', '# Otters\n\n- raft\n- hold hands\n', 'text/markdown; charset=utf-8'],
      ['counts.csv', 'animal,count\notter,42\nbeaver,7\n', 'text/csv; charset=utf-8'],
      ['data.json', '{"otters": 42, "名前": "ラッコ"}', 'application/json; charset=utf-8'],
      ['main.ts', 'export const otters = (n: number): string => `${n} otters`;\n', 'text/plain; charset=utf-8'],
    ])('keeps %s as its UTF-8 text', async (name, text, mimeType) => {
      const body = await addChatMedia(alice.token, { mediaType: 'file' }, { name, bytes: Buffer.from(`\ufeff${text}`) });
      expect(body.Code).toBe(10000);
      const row = await rowOf(body.Data.chatMediaId);
      expect(row).toMatchObject({ mediaType: 'file', mimeType, contentText: text, contentChars: text.length });
    });

    it('cuts a long file to the model’s budget and tells the model so; a file cut when stored says so too', async () => {
      const long = 'otter '.repeat(60_000); // 360,000 characters: more than the 200,000 kept
      const body = await addChatMedia(alice.token, { mediaType: 'file' }, { name: 'long.txt', bytes: Buffer.from(long) });
      const row = await rowOf(body.Data.chatMediaId);
      expect(row.contentText.length).toBe(200_000);
      expect(row.contentChars).toBe(long.length);
      await send(alice.token, { aiModelId: 'basic-model', inputMessage: 'Count them', chatMediaIds: [body.Data.chatMediaId] });
      const sent = textOfContent(lastUserContent(fake));
      // basic-model reads 8192 tokens: its attachments get 60% of about 24,576 characters.
      expect(sent.length).toBeLessThan(16_000);
      expect(sent).toContain('[The file continues beyond this point; it was cut to fit.');
    });

    it('takes a page the extension read from the tab (HTML through Readability, or Markdown) as a web page', async () => {
      const html = `<!doctype html><html><head><title>Otters</title></head><body><nav><a href="/">Home</a></nav>
        <article><h1>Sea otters</h1><p>${'Sea otters hold hands while they sleep, so that they do not drift apart. '.repeat(8)}</p>
        <p>Read <a href="/more">more</a>.</p></article></body></html>`;
      const fromHtml = await addChatMedia(
        alice.token,
        { mediaType: 'html', pageTitle: 'Otters | Field Notes', pageUrl: 'https://example.com/otters' },
        { name: 'page.html', bytes: Buffer.from(html), type: 'text/html' },
      );
      expect(fromHtml.Data).toEqual({
        chatMediaId: expect.any(String),
        image: { imgSrcAll: '' },
        pageFilePath: '',
        iconStr: '',
        pageUrl: 'https://example.com/otters',
        pageTitle: 'Otters | Field Notes',
      });
      const row = await rowOf(fromHtml.Data.chatMediaId);
      expect(row).toMatchObject({ mediaType: 'html', url: 'https://example.com/otters', storageKey: '' });
      expect(row.contentText).toContain('Sea otters hold hands while they sleep');
      expect(row.contentText).toContain('[more](https://example.com/more)');
      expect(row.contentText).not.toContain('[Home]');

      const fromMarkdown = await addChatMedia(
        alice.token,
        { mediaType: 'html', pageTitle: 'Beavers', pageUrl: 'https://example.com/beavers' },
        { name: 'page.md', bytes: Buffer.from('# Beavers\n\nBeavers build dams.') },
      );
      expect((await rowOf(fromMarkdown.Data.chatMediaId)).contentText).toBe('# Beavers\n\nBeavers build dams.');

      await send(alice.token, { aiModelId: 'basic-model', inputMessage: 'Compare', chatMediaIds: [fromHtml.Data.chatMediaId, fromMarkdown.Data.chatMediaId] });
      const sent = textOfContent(lastUserContent(fake));
      expect(sent).toContain('The user attached 2 web pages to this message');
      expect(sent).toContain('<web-page title="Otters | Field Notes" url="https://example.com/otters">');
      expect(sent).toContain('<web-page title="Beavers" url="https://example.com/beavers">\n# Beavers');
    });
  });
});

describe('uploading files and images for the model', () => {
  describe('refusals', () => {
    const refused = async (res: Promise<{ body: { Code: number; Msg: string; Data: unknown } }> | Promise<{ Code: number; Msg: string; Data: unknown }>) => {
      const value = await res;
      return 'body' in value ? value.body : value;
    };

    it('refuses a file over the size limit, with the limit in MB, storing nothing', async () => {
      const before = (await t.database.db.select().from(chatMedia)).length;
      const chat = await upload(alice.token, '/api/Chat/AddChatMedia', { mediaType: 'file' }, [{ name: 'big.txt', bytes: Buffer.alloc(10 * MB + 1, 'a') }]);
      expect(chat.body).toEqual({ Code: 10413, Msg: translate('en', 'fileSizeExceed', { max: 10 }), Data: null });
      expect(chat.body.Msg).toBe('The file is larger than 10 MB. Choose a smaller file.');
      // It stopped reading: the connection is closed rather than read to its end.
      expect(chat.headers.connection).toBe('close');

      const generic = await upload(alice.token, '/api/Chat/AddChatFileToAi', { mediaType: 'file' }, [{ name: 'big.txt', bytes: Buffer.alloc(5 * MB + 1, 'a') }], 'zh');
      expect(generic.body).toEqual({ Code: 10413, Msg: '文件超过 5 MB，请选择更小的文件。', Data: null });
      // Declared far larger than the limit: refused before reading.
      const declared = await upload(alice.token, '/api/Chat/AddChatFileToAi', { mediaType: 'file' }, [{ name: 'big.txt', bytes: Buffer.alloc(7 * MB, 'a') }]);
      expect(declared.body.Code).toBe(10413);
      expect((await t.database.db.select().from(chatMedia)).length).toBe(before);

      // Exactly at the limit is fine.
      const atLimit = await upload(alice.token, '/api/Chat/AddChatFileToAi', { mediaType: 'file' }, [{ name: 'full.txt', bytes: Buffer.alloc(5 * MB, 'a') }]);
      expect(atLimit.body.Code).toBe(10000);
    });

    it('refuses more than one file per upload, and more than 5 attachments per message', async () => {
      const two = await upload(alice.token, '/api/Chat/AddChatMedia', { mediaType: 'file' }, [
        { name: 'a.txt', bytes: Buffer.from('a') },
        { name: 'b.txt', bytes: Buffer.from('b') },
      ]);
      expect(two.body).toEqual({ Code: 10422, Msg: translate('en', 'attachmentCountExceed', { max: 1 }), Data: null });

      const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
      const six = (await send(alice.token, { aiModelId: 'basic-model', inputMessage: 'Hi', chatMediaIds: ids })).json();
      expect(six.Code).toBe(10400);
      expect(six.Msg).toContain('Too many attachments: at most 5 at once.');
      expect(fake.requests.length).toBe(0);
    });

    it.each([
      ['a .png that is not an image', { mediaType: 'image' }, { field: 'imageFile', name: 'cat.png', bytes: Buffer.from('just text') }, 10422, 'fileContentMismatch', { name: 'cat.png', type: 'PNG' }],
      ['an image field holding a PDF', { mediaType: 'image' }, { field: 'imageFile', name: 'scan.jpg', bytes: Buffer.from('%PDF-1.4\n%%EOF') }, 10422, 'fileContentMismatch', { name: 'scan.jpg', type: 'JPG' }],
      ['a .pdf that is text', { mediaType: 'file' }, { name: 'report.pdf', bytes: Buffer.from('not a pdf at all') }, 10422, 'fileContentMismatch', { name: 'report.pdf', type: 'PDF' }],
      ['a .docx that is not a Word document', { mediaType: 'file' }, { name: 'notes.docx', bytes: Buffer.from('plain words') }, 10422, 'fileContentMismatch', { name: 'notes.docx', type: 'DOCX' }],
      ['a damaged PDF', { mediaType: 'file' }, { name: 'broken.pdf', bytes: Buffer.from('%PDF-1.7\n1 0 obj garbage') }, 10422, 'fileUnreadable', { name: 'broken.pdf' }],
      ['text that is not UTF-8', { mediaType: 'file' }, { name: 'latin.txt', bytes: Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) }, 10422, 'fileTextInvalid', { name: 'latin.txt' }],
      ['text with NUL bytes', { mediaType: 'file' }, { name: 'bin.csv', bytes: Buffer.from('a,b\u0000c') }, 10422, 'fileTextInvalid', { name: 'bin.csv' }],
      ['an empty text file', { mediaType: 'file' }, { name: 'empty.md', bytes: Buffer.from('  \n') }, 10422, 'fileNoText', { name: 'empty.md' }],
    ] as const)('refuses %s', async (_name, fields, file, code, key, params) => {
      const before = (await t.database.db.select().from(chatMedia)).length;
      const body = await refused(addChatMedia(alice.token, fields, { ...file, bytes: Buffer.from(file.bytes) }));
      expect(body).toEqual({ Code: code, Msg: translate('en', key, params), Data: null });
      expect((await t.database.db.select().from(chatMedia)).length).toBe(before);
    });

    it('refuses a Word document that unpacks to too much (a zip bomb) before reading it', async () => {
      const xml = `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${' '.repeat(70 * MB)}</w:body></w:document>`;
      const bomb = makeDocx([], xml);
      expect(bomb.length).toBeLessThan(MB);
      const body = await addChatMedia(alice.token, { mediaType: 'file' }, { name: 'bomb.docx', bytes: bomb });
      expect(body).toEqual({ Code: 10422, Msg: translate('en', 'fileTooComplex', { name: 'bomb.docx' }), Data: null });
    });

    it('checks the type against the model: its extension, after the last dot, in any case', async () => {
      const image = await png();
      const noImages = await addChatMedia(alice.token, { mediaType: 'image', aiModelId: 'basic-model' }, { field: 'imageFile', name: 'cat.PNG', bytes: image });
      expect(noImages.Code).toBe(10422);
      expect(noImages.Msg).toBe(translate('en', 'uploadFileTypeError', { name: 'cat.PNG', types: DOCUMENT_EXTENSIONS.join(', ') }));
      expect(noImages.Msg).toMatch(/^The file cat\.PNG cannot be attached: its type is not accepted\. Choose a file of one of these types: pdf, docx, txt, md,/);

      const pdfOnly = await addChatMedia(alice.token, { mediaType: 'file', aiModelId: 'pdf-only' }, { name: 'notes.tar.docx', bytes: makeDocx(['x']) });
      expect(pdfOnly).toEqual({ Code: 10422, Msg: translate('en', 'uploadFileTypeError', { name: 'notes.tar.docx', types: 'pdf' }), Data: null });
      const pdf = await addChatMedia(alice.token, { mediaType: 'file', aiModelId: 'pdf-only' }, { name: 'Report.PDF', bytes: await makePdf([['ok']]) });
      expect(pdf.Code).toBe(10000);

      // A vision model takes images; 'auto' takes what the catalogue's models take.
      const vision = await addChatMedia(alice.token, { mediaType: 'image', aiModelId: 'gpt-4o-mini' }, { field: 'imageFile', name: 'cat.png', bytes: image });
      expect(vision.Code).toBe(10000);
      const auto = await addChatMedia(alice.token, { mediaType: 'image', aiModelId: 'auto' }, { field: 'imageFile', name: 'cat.webp', bytes: await sharp(image).webp().toBuffer() });
      expect(auto.Code).toBe(10000);

      const unknown = await addChatMedia(alice.token, { mediaType: 'file' }, { name: 'setup.exe', bytes: Buffer.from('MZ') });
      expect(unknown.Code).toBe(10422);
      expect(unknown.Msg).toContain('The file setup.exe cannot be attached');
      const noExtension = await addChatMedia(alice.token, { mediaType: 'file' }, { name: 'README', bytes: Buffer.from('hello') });
      expect(noExtension.Code).toBe(10422);
      const missingModel = await addChatMedia(alice.token, { mediaType: 'file', aiModelId: 'no-such-model' }, { name: 'a.txt', bytes: Buffer.from('a') });
      expect(missingModel).toMatchObject({ Code: 10404, Msg: translate('en', 'modelNotFound') });
    });

    it('answers bad forms as bad input, and only to logged-in users', async () => {
      const noFile = await upload(alice.token, '/api/Chat/AddChatMedia', { mediaType: 'file' }, []);
      expect(noFile.body).toEqual({ Code: 10400, Msg: translate('en', 'uploadFileMissing'), Data: null });
      const badType = await upload(alice.token, '/api/Chat/AddChatMedia', { mediaType: 'video' }, [{ name: 'a.txt', bytes: Buffer.from('a') }]);
      expect(badType.body.Code).toBe(10400);
      expect(badType.body.Msg).toContain('mediaType');
      const json = await api(t.app, alice).post('/api/Chat/AddChatMedia', {}, { headers: { 'content-type': 'application/json' } });
      expect(json.json().Code).toBe(10400);
      for (const url of ['/api/Chat/AddChatMedia', '/api/Chat/UploadMediaByFile', '/api/Chat/AddChatFileToAi']) {
        const anonymous = await upload(null, url, { mediaType: 'file' }, [{ name: 'a.txt', bytes: Buffer.from('a') }]);
        expect(anonymous.body).toMatchObject({ Code: 10402 });
      }
    });
  });
});

describe('uploading files and images for the model', () => {
  describe('content sniffing and serving the bytes back', () => {
    it('stores a JPEG named .png as image/jpeg and serves it with that type', async () => {
      const bytes = await jpeg();
      const body = await addChatMedia(alice.token, { mediaType: 'image' }, { field: 'imageFile', name: 'holiday.png', bytes, type: 'image/png' });
      expect(body.Code).toBe(10000);
      expect(body.Data.image.imgSrcAll).toMatch(/^\/api\/Chat\/GetChatMedia\?chatMediaId=/);
      expect(body.Data.pageFilePath).toBe(body.Data.image.imgSrcAll);
      expect(await rowOf(body.Data.chatMediaId)).toMatchObject({ mediaType: 'image', mimeType: 'image/jpeg', fileName: 'holiday.png' });

      // The signed link works without a token (as <img src>).
      const res = await getMedia(body.Data.image.imgSrcAll);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-disposition']).toMatch(/^inline; filename="holiday\.png"/);
      expect(res.rawPayload.equals(bytes)).toBe(true);
    });

    it('serves documents as downloads, with their name', async () => {
      const pdf = await makePdf([['Download me']]);
      const body = await addChatMedia(alice.token, { mediaType: 'file' }, { name: 'Otter “notes” 2024.pdf', bytes: pdf });
      const res = await getMedia(body.Data.pageFilePath);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="Otter _notes_ 2024.pdf"; filename*=UTF-8''${encodeURIComponent('Otter “notes” 2024.pdf')}`,
      );
      expect(res.headers['content-security-policy']).toContain('sandbox');
      expect(res.rawPayload.equals(pdf)).toBe(true);

      const html = await addChatMedia(alice.token, { mediaType: 'file' }, { name: 'page.html', bytes: Buffer.from('<script>alert(1)</script>') });
      const served = await getMedia(html.Data.pageFilePath);
      expect(served.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    });

    it('gives the bytes to their owner and to signed links only; anyone else gets 404', async () => {
      const bytes = await png();
      const { Data } = await addChatMedia(alice.token, { mediaType: 'image' }, { field: 'imageFile', name: 'private.png', bytes });
      const id = Data.chatMediaId as string;
      const plain = `/api/Chat/GetChatMedia?chatMediaId=${id}`;

      const owner = await getMedia(plain, alice.token);
      expect(owner.statusCode).toBe(200);
      expect(owner.rawPayload.equals(bytes)).toBe(true);

      const notFound = { Code: 10404, Msg: translate('en', 'notFound'), Data: null };
      const other = await getMedia(plain, bob.token);
      expect(other.statusCode).toBe(404);
      expect(other.json()).toEqual(notFound);
      expect((await getMedia(plain)).statusCode).toBe(404);

      const link = new URL(Data.image.imgSrcAll, 'http://x');
      const sig = link.searchParams.get('sig')!;
      const exp = link.searchParams.get('exp')!;
      expect((await getMedia(Data.image.imgSrcAll, bob.token)).statusCode).toBe(200);
      const tampered = `${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`;
      for (const url of [
        `${plain}&exp=${exp}&sig=${tampered}`,
        `${plain}&exp=${Number(exp) + 86_400}&sig=${sig}`,
        `${plain}&exp=${exp}`,
        `${plain}&sig=${sig}`,
        `${plain}&exp=abc&sig=${sig}`,
        // Alice's signature does not open another item.
        `/api/Chat/GetChatMedia?chatMediaId=${(await rowOf(id)).id.replace(/.$/, (c) => (c === '0' ? '1' : '0'))}&exp=${exp}&sig=${sig}`,
        // An expired link.
        signedMediaPath(t.app.ctx, id, Date.now() - 30 * 86_400_000),
      ]) {
        const res = await getMedia(url, bob.token);
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual(notFound);
      }

      // Pages keep no bytes: not found even for their owner.
      const page = await addChatMedia(alice.token, { mediaType: 'html', pageUrl: 'https://example.com/' }, { name: 'p.md', bytes: Buffer.from('# P') });
      expect((await getMedia(`/api/Chat/GetChatMedia?chatMediaId=${page.Data.chatMediaId}`, alice.token)).statusCode).toBe(404);
    });

    it('keeps the bytes in a folder of its own (a temporary one for memory://)', async () => {
      expect(t.app.ctx.files.kind).toBe('local');
      const { Data } = await addChatMedia(alice.token, { mediaType: 'file' }, { name: 'kept.txt', bytes: Buffer.from('kept') });
      const row = await rowOf(Data.chatMediaId);
      expect(row.storageKey).toBe(`${Data.chatMediaId.slice(0, 2)}/${Data.chatMediaId}`);
      expect((await t.app.ctx.files.get(row.storageKey))?.toString()).toBe('kept');
    });
  });

  describe('images reach vision models only', () => {
    it('sends an attached image as an image part to a vision model; history keeps only a note', async () => {
      const bytes = await png(80, 60, '#ff8800');
      const { Data } = await addChatMedia(alice.token, { mediaType: 'image' }, { field: 'imageFile', name: 'cat.png', bytes });
      const res = await send(alice.token, { aiModelId: 'gpt-4o-mini', inputMessage: 'What colour is this?', chatMediaIds: [Data.chatMediaId] });
      const events = parseChatStream(res.body);
      expect(events.at(-1)!.Data.FinishReason).toBe('stop');
      const content = lastUserContent(fake) as Part[];
      expect(Array.isArray(content)).toBe(true);
      const image = content.find((p) => p.type === 'image_url')!;
      expect(image.image_url!.url).toBe(`data:image/png;base64,${bytes.toString('base64')}`);
      expect(textOfContent(content)).toBe('What colour is this?');

      // The message's chip links to the image.
      const sessionId = events[0].Data.ChatSessionId;
      const listed = await api(t.app, alice).get(`/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${sessionId}`);
      const chip = listed.json().Data.list[0].chatMedias[0];
      expect(chip).toMatchObject({ chatMediaId: Data.chatMediaId, mediaType: 'image', title: 'cat.png' });
      expect((await getMedia(chip.url)).rawPayload.equals(bytes)).toBe(true);

      // A follow-up does not send the old image again: the earlier turn names it.
      await send(alice.token, { aiModelId: 'gpt-4o-mini', inputMessage: 'And its shape?', chatSessionId: sessionId });
      const messages = fake.requests.at(-1)!.body.messages as { role: string; content: string | Part[] }[];
      expect(JSON.stringify(messages)).not.toContain('image_url');
      const earlier = messages.find((m) => m.role === 'user' && textOfContent(m.content).includes('What colour is this?'))!;
      expect(textOfContent(earlier.content)).toBe('[image: cat.png]\n\nWhat colour is this?');
    });

    it('refuses images for a model that cannot see, without calling it; auto picks a vision model', async () => {
      const { Data } = await addChatMedia(alice.token, { mediaType: 'image' }, { field: 'imageFile', name: 'cat.png', bytes: await png() });
      const refused = (await send(alice.token, { aiModelId: 'basic-model', inputMessage: 'Describe', chatMediaIds: [Data.chatMediaId] })).json();
      expect(refused).toEqual({ Code: 10400, Msg: translate('en', 'modelNoImages', { model: 'basic-model' }), Data: null });
      expect(fake.requests.length).toBe(0);

      const auto = await send(alice.token, { aiModelId: 'auto', inputMessage: 'Describe', chatMediaIds: [Data.chatMediaId] });
      expect(parseChatStream(auto.body).at(-1)!.Data.ModelId).toBe('gpt-4o-mini');
      expect(fake.requests.at(-1)!.model).toBe('gpt-4o-mini');
      expect(JSON.stringify(lastUserContent(fake))).toContain('data:image/png;base64,');
    });

    it('scales a huge image down before the model gets it', async () => {
      const big = await png(3000, 1500, '#228844');
      const { Data } = await addChatMedia(alice.token, { mediaType: 'image' }, { field: 'imageFile', name: 'wide.png', bytes: big });
      await send(alice.token, { aiModelId: 'gpt-4o-mini', inputMessage: 'Describe', chatMediaIds: [Data.chatMediaId] });
      const url = (lastUserContent(fake) as Part[]).find((p) => p.type === 'image_url')!.image_url!.url;
      expect(url.startsWith('data:image/png;base64,')).toBe(true);
      const meta = await sharp(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64')).metadata();
      expect([meta.width, meta.height]).toEqual([2048, 1024]);
      // The stored original is untouched.
      expect((await getMedia(Data.image.imgSrcAll)).rawPayload.equals(big)).toBe(true);
    });

    it('does not let another user attach the image', async () => {
      const { Data } = await addChatMedia(alice.token, { mediaType: 'image' }, { field: 'imageFile', name: 'cat.png', bytes: await png() });
      const res = (await send(bob.token, { aiModelId: 'gpt-4o-mini', inputMessage: 'Describe', chatMediaIds: [Data.chatMediaId] })).json();
      expect(res.Code).toBe(10404);
      expect(fake.requests.length).toBe(0);
    });
  });
});

describe('S3-compatible storage', () => {
  let s3: FakeS3;
  let fake: FakeOpenAI;
  let t: TestApp;
  let alice: TestUser;

  const addChatMedia = async (fields: Record<string, string>, file: FilePart) => {
    const { payload, contentType } = await formBody(fields, [file]);
    const res = await t.app.inject({ method: 'POST', url: '/api/Chat/AddChatMedia', headers: { ...auth(alice.token), 'content-type': contentType }, payload });
    return res.json();
  };

  beforeAll(async () => {
    s3 = await startFakeS3();
    fake = await startFakeOpenAI();
    t = await createTestApp({
      ...fakeOpenAIEnv(fake, 'gpt-4o-mini'),
      DATA_DIR: 'memory://',
      SECRET_KEY,
      ...s3Env(s3, 'eu-west-1'),
    });
    alice = await createUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    await fake?.close();
  });

  it('keeps uploads in the bucket with signed requests, serves them and gives images to the model from there', async () => {
    expect(t.app.ctx.files.kind).toBe('s3');
    const bytes = await png(32, 32, '#123456');
    const body = await addChatMedia({ mediaType: 'image' }, { field: 'imageFile', name: 'cloud.png', bytes });
    expect(body.Code).toBe(10000);
    const id = body.Data.chatMediaId as string;
    const key = `media/${id.slice(0, 2)}/${id}`;
    expect(s3.objects.get(key)).toEqual({ bytes, contentType: 'image/png' });
    const put = s3.requests.find((r) => r.method === 'PUT')!;
    expect(put.path).toBe(`/${s3.bucket}/${key}`);
    expect(put.authorization).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${s3.accessKeyId}/\\d{8}/eu-west-1/s3/aws4_request, SignedHeaders=`));

    const served = await api(t.app).get(body.Data.image.imgSrcAll);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(bytes)).toBe(true);

    await api(t.app, alice).post('/api/Chat/AddMessage', { aiModelId: 'gpt-4o-mini', inputMessage: 'What is it?', chatMediaIds: [id] });
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain(`data:image/png;base64,${bytes.toString('base64')}`);

    // The bytes are gone from the bucket: the link and the message say so instead of failing.
    s3.objects.delete(key);
    expect((await api(t.app).get(body.Data.image.imgSrcAll)).statusCode).toBe(404);
    const gone = await api(t.app, alice).post('/api/Chat/AddMessage', { aiModelId: 'gpt-4o-mini', inputMessage: 'Again?', chatMediaIds: [id] });
    expect(gone.json()).toEqual({ Code: 10404, Msg: translate('en', 'mediaGone'), Data: null });
  });

  it('deleting a chat or a message removes the files only it carried; uploads never sent are swept after a day', async () => {
    const send = async (body: Record<string, unknown>) => {
      const res = await api(t.app, alice).post('/api/Chat/AddMessage', { aiModelId: 'gpt-4o-mini', ...body });
      return parseChatStream(res.body)[0].Data;
    };
    const storedKeys = async (id: string) => (await t.database.db.select().from(chatMedia).where(eq(chatMedia.id, id)))[0]?.storageKey;
    const inBucket = (key: string) => [...s3.objects.keys()].some((k) => k.endsWith(key));
    const upload = async (name: string) => (await addChatMedia({ mediaType: 'file' }, { name, bytes: Buffer.from(`notes of ${name}`) })).Data.chatMediaId as string;

    // One file sent twice (two messages of one chat), one sent once in another chat.
    const shared = await upload('shared.txt');
    const sharedKey = (await storedKeys(shared))!;
    const first = await send({ inputMessage: 'Read this', chatMediaIds: [shared] });
    const second = await send({ inputMessage: 'And again', chatSessionId: first.ChatSessionId, chatMediaIds: [shared] });
    const alone = await upload('alone.txt');
    const aloneKey = (await storedKeys(alone))!;
    const other = await send({ inputMessage: 'Another chat', chatMediaIds: [alone] });
    expect(inBucket(sharedKey) && inBucket(aloneKey)).toBe(true);

    // Deleting one of the two messages keeps the file the other still carries.
    expect((await api(t.app, alice).postBody('/api/Chat/DeleteMessage', { chatMessageId: second.ChatMessageId })).Code).toBe(10000);
    expect(await storedKeys(shared)).toBe(sharedKey);
    expect(inBucket(sharedKey)).toBe(true);
    // Deleting the chat removes it: the row, the bytes, and its link.
    expect(await api(t.app, alice).postBody('/api/Chat/DeleteSessions', { ids: [first.ChatSessionId] })).toMatchObject({ Code: 10000, Data: { deleted: 1 } });
    expect(await storedKeys(shared)).toBeUndefined();
    expect(inBucket(sharedKey)).toBe(false);
    // Delete-all takes the other chat's file too.
    expect(await api(t.app, alice).postBody('/api/Chat/DeleteSessions', { isDelAll: true })).toMatchObject({ Code: 10000 });
    expect(await storedKeys(alone)).toBeUndefined();
    expect(inBucket(aloneKey)).toBe(false);
    expect(other.ChatSessionId).toBeTruthy();

    // An upload attached and never sent stays for a day (a draft), then goes.
    const draft = await upload('draft.txt');
    const draftKey = (await storedKeys(draft))!;
    const kept = await upload('kept.txt');
    await send({ inputMessage: 'Keep this one', chatMediaIds: [kept] });
    expect(await sweepUnsentMedia(t.app.ctx)).toBe(0);
    expect(await sweepUnsentMedia(t.app.ctx, Date.now() + UNSENT_MEDIA_TTL_MS + 60_000)).toBeGreaterThanOrEqual(1);
    expect(await storedKeys(draft)).toBeUndefined();
    expect(inBucket(draftKey)).toBe(false);
    expect(await storedKeys(kept)).toBeTruthy();
  });

  it('answers uploadMediaFail when the bucket is down, keeping no record', async () => {
    const before = (await t.database.db.select().from(chatMedia)).length;
    s3.failWith(503);
    try {
      const body = await addChatMedia({ mediaType: 'file' }, { name: 'a.txt', bytes: Buffer.from('hello') });
      expect(body).toEqual({ Code: 10500, Msg: translate('en', 'uploadMediaFail'), Data: null });
    } finally {
      s3.failWith(null);
    }
    expect((await t.database.db.select().from(chatMedia)).length).toBe(before);
  });

  it('puts, gets and deletes objects; refuses foreign credentials', async () => {
    const store = s3FileStore({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
      prefix: 'unit/',
    });
    await store.put('ab/object-1', Buffer.from('payload'), 'text/plain');
    expect(s3.objects.get('unit/ab/object-1')?.bytes.toString()).toBe('payload');
    expect((await store.get('ab/object-1'))?.toString()).toBe('payload');
    await store.delete('ab/object-1');
    expect(await store.get('ab/object-1')).toBeNull();
    await store.delete('ab/object-1');
    await expect(store.put('../escape', Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid storage key/);

    const foreign = s3FileStore({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', accessKeyId: 'AKIAOTHER', secretAccessKey: 'x', forcePathStyle: true });
    await expect(foreign.put('ab/x', Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(FileStoreError);
  });
});

describe('the local file store', () => {
  it('writes under its folder only, and a temporary one is removed on close', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const root = mkdtempSync(path.join(tmpdir(), 'tandem-store-test-'));
    const store = localFileStore(root, { temporary: true });
    await store.put('ab/one', Buffer.from('one'), 'text/plain');
    expect(readdirSync(path.join(root, 'ab'))).toEqual(['one']);
    expect((await store.get('ab/one'))?.toString()).toBe('one');
    expect(await store.get('ab/missing')).toBeNull();
    for (const key of ['../one', 'ab/../../etc', '/abs', 'a//b', 'a\\b']) {
      await expect(store.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid storage key/);
    }
    await store.delete('ab/one');
    expect(await store.get('ab/one')).toBeNull();
    await store.close();
    expect(existsSync(root)).toBe(false);
  });
});
