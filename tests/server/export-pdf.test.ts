import { beforeAll, describe, expect, it } from 'vitest';
import { Codes } from '../../shared/contracts/envelope.ts';
import { MARKDOWN_TO_PDF_PATH, PDF_MARKDOWN_MAX_CHARS } from '../../shared/contracts/export.ts';
import { t as translate } from '../../server/core/i18n.ts';
import { PDF_LIMITS } from '../../server/services/export/pdf.ts';
import { api } from '../helpers/api.ts';
import { useTestAppWithAdmin } from '../helpers/app.ts';
import { readPdf } from '../helpers/pdf-text.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * POST /api/Image/MarkdownToPdf: Markdown made into a PDF on the server whose text can be selected,
 * searched and read aloud: Chinese included (an embedded font), in reading order, a tagged PDF with
 * its language, title and structure, links as clickable annotations. Signed-in users only; empty or
 * too long text is refused in the caller's language; past the queue's bound, busy.
 */

const { t } = useTestAppWithAdmin({ AUTH_RATE_LIMIT: '1000' });
let alice: TestUser;

beforeAll(async () => {
  alice = await createUser(t.app);
});

const DOCUMENT = [
  '_Exported from Tandem on 2026-11-25 10:00_',
  '## You',
  'Plan a day in Kyoto, and say hello in Chinese.',
  '## Basic Model',
  'Start early at **Fushimi Inari**. In Chinese: 你好，世界！Emoji 😀 stays in its place.',
  '1. Morning temples\n2. Lunch at Nishiki market\n   - tofu skewers',
  '| Time | 地点 |\n|------|------|\n| 9:00 | Gion |\n| 12:00 | 锦市场 |',
  '```python\ndef greet(name):\n    return f"Hello, {name}"\n```',
  'Read [the official guide](https://kyoto.travel/en/) before you go.',
  'The area is $A = \\pi r^2$ and the sum is:\n\n$$\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}$$',
].join('\n\n');

const exportPdf = (who: TestUser | undefined, body: unknown, lang = 'en') => api(t.app, who).post(MARKDOWN_TO_PDF_PATH, body, { lang });

describe('Markdown to PDF: a document whose text is text', () => {
  it('lays out English and Chinese, a heading, a list, a table, code, a link and math as extractable text, in reading order', async () => {
    const res = await exportPdf(alice, { markdown: DOCUMENT, title: 'Kyoto trip 京都', fileName: '京都 trip', lang: 'zh' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="__ trip.pdf"; filename*=UTF-8''${encodeURIComponent('京都 trip.pdf')}`);
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // Embedded fonts are subset: a page of text, not megabytes of font.
    expect(res.rawPayload.length).toBeLessThan(200_000);

    const pdf = await readPdf(res.rawPayload);
    const inOrder = [
      'Kyoto trip 京都',
      'Exported from Tandem on 2026-11-25 10:00',
      'You',
      'Plan a day in Kyoto, and say hello in Chinese.',
      'Basic Model',
      'Start early at Fushimi Inari. In Chinese: 你好，世界！Emoji \u25a1 stays in its place.',
      '1.',
      'Morning temples',
      'Lunch at Nishiki market',
      'tofu skewers',
      'Time',
      '地点',
      '9:00',
      'Gion',
      '锦市场',
      'def greet(name):',
      'return f"Hello, {name}"',
      'Read the official guide before you go.',
      'A = \\pi r^2',
      '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}',
    ];
    let from = 0;
    for (const expected of inOrder) {
      const at = pdf.text.indexOf(expected, from);
      expect(at, `"${expected}" after position ${from} in:\n${pdf.text}`).toBeGreaterThanOrEqual(0);
      from = at + expected.length;
    }
    expect(pdf.links).toEqual(['https://kyoto.travel/en/']);
    expect(pdf.pages).toBe(1);
  });

  it('is a tagged PDF with its language, its title and the structure a screen reader follows', async () => {
    const res = await exportPdf(alice, { markdown: DOCUMENT, title: 'Kyoto trip', lang: 'en' });
    const pdf = await readPdf(res.rawPayload);
    expect(pdf.markInfo).toMatchObject({ Marked: true });
    expect(pdf.lang).toBe('en');
    expect(pdf.title).toBe('Kyoto trip');
    // The raw file says so too: the catalogue's MarkInfo, StructTreeRoot and Lang, and the viewer shows the title.
    const raw = res.rawPayload.toString('latin1');
    for (const key of ['/MarkInfo', '/Marked true', '/StructTreeRoot', '/Lang (en)', '/DisplayDocTitle true']) expect(raw).toContain(key);
    // Headings, paragraphs, lists, the table, code, math and the link, in the order they were written.
    const order = ['Document', 'H1', 'P', 'H2', 'P', 'H2', 'P', 'L', 'LI', 'Lbl', 'LBody', 'Table', 'TR', 'TH', 'TD', 'Code', 'P', 'Link', 'Formula'];
    let from = 0;
    for (const role of order) {
      const at = pdf.roles.indexOf(role, from);
      expect(at, `${role} after ${pdf.roles.slice(0, from).join(' ')}`).toBeGreaterThanOrEqual(0);
      from = at + 1;
    }

    const zh = await readPdf((await exportPdf(alice, { markdown: '你好，世界', lang: 'zh' })).rawPayload);
    expect(zh.lang).toBe('zh-CN');
    expect(zh.text).toContain('你好，世界');
  });

  it('names the file after the title when no file name is given, and numbers long documents over many A4 pages', async () => {
    const long = Array.from({ length: 120 }, (_, i) => `Paragraph ${i + 1}: 第${i + 1}段，这是一段较长的中文内容，用来填满好几页纸。`).join('\n\n');
    const res = await exportPdf(alice, { markdown: long, title: 'Notes: part 1/2' });
    expect(res.headers['content-disposition']).toContain('filename="Notes part 1 2.pdf"');
    const pdf = await readPdf(res.rawPayload);
    expect(pdf.pages).toBeGreaterThan(2);
    expect(pdf.text).toContain('Paragraph 120: 第120段');
    // Each page's number at its foot.
    for (let n = 1; n <= pdf.pages; n++) expect(pdf.text).toMatch(new RegExp(`\\n${n}\\n?`));
  });
});

describe('Markdown to PDF: what it refuses', () => {
  it('needs a signed-in user', async () => {
    const body = (await exportPdf(undefined, { markdown: '# Hello' })).json();
    expect(body).toMatchObject({ Code: Codes.NotLoggedIn, Data: null });
  });

  it('refuses an empty text and a text over the limit with a clear message in the caller’s language, never a server fault', async () => {
    for (const lang of ['en', 'zh'] as const) {
      for (const markdown of ['', ' \n\n\t ']) {
        const res = await exportPdf(alice, { markdown }, lang);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ Code: Codes.BadRequest, Data: null });
        expect(res.json().Msg).toContain(translate(lang, 'pdfMarkdownEmpty'));
      }
      const tooLong = await exportPdf(alice, { markdown: 'a'.repeat(PDF_MARKDOWN_MAX_CHARS + 1) }, lang);
      expect(tooLong.statusCode).toBe(200);
      expect(tooLong.json()).toMatchObject({ Code: Codes.BadRequest, Data: null });
      expect(tooLong.json().Msg).toContain(translate(lang, 'pdfMarkdownTooLong', { max: PDF_MARKDOWN_MAX_CHARS }));
    }
    expect(translate('zh', 'pdfMarkdownEmpty')).toMatch(/[\u4e00-\u9fff]/);
    // Not a string, a language it does not know: bad input, answered as such.
    for (const body of [{ markdown: 42 }, { markdown: 'x', lang: 'fr' }, {}]) {
      const res = await exportPdf(alice, body);
      expect(res.statusCode).toBe(200);
      expect(res.json().Code).toBe(Codes.BadRequest);
    }
  });

  it('is busy, with a message saying to try again, while it makes as many PDFs as it queues', async () => {
    const users = await Promise.all(Array.from({ length: 3 }, () => createUser(t.app)));
    // About a second of work each: all the requests arrive while the first ones are still made.
    const heavy = Array.from({ length: 300 }, (_, i) => `Line ${i} with **bold**, \`code\` and 中文内容 ${'word '.repeat(20)}`).join('\n\n');
    const langs = Array.from({ length: 6 }, (_, i) => (i % 2 ? 'zh' : 'en') as 'en' | 'zh');
    // Two made at once and two waiting (the server's own bound is eight waiting: the same check).
    const waiting = PDF_LIMITS.maxWaiting;
    PDF_LIMITS.maxWaiting = 2;
    let answers;
    try {
      answers = await Promise.all(langs.map((lang, i) => exportPdf(users[i % users.length], { markdown: heavy }, lang)));
    } finally {
      PDF_LIMITS.maxWaiting = waiting;
    }
    const made = answers.filter((a) => a.headers['content-type'] === 'application/pdf');
    const busy = answers.flatMap((a, i) => (a.headers['content-type'] === 'application/pdf' ? [] : [{ body: a.json(), lang: langs[i]! }]));
    expect(made).toHaveLength(4);
    expect(busy).toHaveLength(2);
    for (const { body, lang } of busy) expect(body).toEqual({ Code: Codes.RateLimited, Msg: translate(lang, 'pdfBusy'), Data: null });
    // Once they are done, the next one is made again.
    expect((await exportPdf(alice, { markdown: 'After the rush' })).headers['content-type']).toBe('application/pdf');
  });

  it('ends a job that runs out of time with its worker, says so, and makes the next one on a fresh worker', async () => {
    const limit = PDF_LIMITS.jobTimeoutMs;
    PDF_LIMITS.jobTimeoutMs = 1;
    try {
      for (const lang of ['en', 'zh'] as const) {
        // Long enough that no worker, however warm, makes it within the 1 ms the job is given.
        const res = await exportPdf(alice, { markdown: 'A long **text** and more. '.repeat(20_000) }, lang);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ Code: Codes.PayloadTooLarge, Msg: translate(lang, 'pdfTooComplex'), Data: null });
      }
    } finally {
      PDF_LIMITS.jobTimeoutMs = limit;
    }
    const res = await exportPdf(alice, { markdown: 'Made after the refusal' });
    expect(res.headers['content-type']).toBe('application/pdf');
    expect((await readPdf(res.rawPayload)).text).toContain('Made after the refusal');
  });
});
