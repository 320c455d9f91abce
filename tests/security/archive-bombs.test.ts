import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMedia } from '../../server/db/schema/media.ts';
import { t as translate } from '../../server/core/i18n.ts';
import { extractDocumentText } from '../../server/services/media/extraction.ts';
import { deflatedBomb, makeDocx, makePdf, makeZip, type ZipEntry } from '../fixtures/documents.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { auth, createUser, type TestUser } from '../helpers/users.ts';

/**
 * Crafted documents: archives that unpack to hundreds of megabytes under any part name, directories
 * that lie, too many entries, PDFs too long to read. Each is refused with a Code and a message in the
 * user's language, nothing of it is kept, and the server's memory stays where it was.
 */

const MB = 1024 * 1024;
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE_DOC = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument';
const STYLES = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles';

const contentTypes = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>
<Default Extension="bin" ContentType="application/xml"/><Default Extension="dat" ContentType="application/xml"/>
<Override PartName="/word/doc.bin" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;

/** A Word body of `size` bytes: one paragraph repeated, valid XML a reader would accept. */
const bodyBomb = (size: number) =>
  deflatedBomb(size, {
    head: `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>`,
    unit: '<w:p><w:r><w:t>otters </w:t></w:r></w:p>',
    tail: '</w:body></w:document>',
  });

/** A DOCX whose main part is `mainName` (found through _rels/.rels), plus `extra` entries. */
function docxWith(mainName: string, main: ZipEntry['data'], extra: ZipEntry[] = [], declaredSize?: number): Buffer {
  return makeZip([
    { name: '[Content_Types].xml', data: contentTypes },
    { name: '_rels/.rels', data: `<?xml version="1.0"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${OFFICE_DOC}" Target="${mainName}"/></Relationships>` },
    { name: mainName, data: main, declaredSize },
    ...extra,
  ]);
}

const smallBody = `<?xml version="1.0"?><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>Hello otters</w:t></w:r></w:p></w:body></w:document>`;

describe('crafted documents cannot exhaust the server', () => {
  let t: TestApp;
  let user: TestUser;
  const files: Record<string, Buffer> = {};

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
    user = await createUser(t.app);
    // Built before any memory is measured: each is a few hundred kilobytes.
    files['main part named word/doc.bin (150 MB)'] = docxWith('word/doc.bin', await bodyBomb(150 * MB));
    files['main part named word/document.xml (150 MB)'] = docxWith('word/document.xml', await bodyBomb(150 * MB));
    files['styles part named word/s.dat (300 MB)'] = docxWith('word/document.xml', smallBody, [
      { name: 'word/_rels/document.xml.rels', data: `<?xml version="1.0"?><Relationships xmlns="${RELS}"><Relationship Id="rId9" Type="${STYLES}" Target="s.dat"/></Relationships>` },
      { name: 'word/s.dat', data: await deflatedBomb(300 * MB) },
    ]);
    files['a directory that says 1 KB for 150 MB'] = docxWith('word/document.xml', await bodyBomb(150 * MB), [], 1024);
    files['many small bombs, none over the limit alone'] = docxWith(
      'word/document.xml',
      smallBody,
      await Promise.all(Array.from({ length: 8 }, async (_, i) => ({ name: `word/media/part${i}.xml`, data: await deflatedBomb(10 * MB) }))),
    );
    files['6000 entries'] = docxWith(
      'word/document.xml',
      smallBody,
      Array.from({ length: 6000 }, (_, i) => ({ name: `customXml/item${i}.xml`, data: '<a/>' })),
    );
  });
  afterAll(async () => t?.close());

  const upload = async (name: string, bytes: Buffer, lang: string) => {
    const form = new FormData();
    form.append('mediaType', 'file');
    form.append('pageFile', new Blob([new Uint8Array(bytes)]), name);
    const encoded = new Response(form);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Chat/AddChatMedia',
      headers: { ...auth(user.token), 'content-type': encoded.headers.get('content-type')!, 'accept-language': lang },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    return res.json();
  };

  /** Runs `work` while sampling the process's resident memory; answers its result and the peak growth. */
  async function measured<T>(work: () => Promise<T>): Promise<{ result: T; grewMb: number }> {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      const result = await work();
      peak = Math.max(peak, process.memoryUsage().rss);
      return { result, grewMb: (peak - before) / MB };
    } finally {
      clearInterval(sampler);
    }
  }

  const cases = [
    'main part named word/doc.bin (150 MB)',
    'main part named word/document.xml (150 MB)',
    'styles part named word/s.dat (300 MB)',
    'a directory that says 1 KB for 150 MB',
    'many small bombs, none over the limit alone',
    '6000 entries',
  ];
  for (const name of cases) {
    it(`refuses a DOCX with ${name}, keeps nothing and stays within 64 MB`, async () => {
      const rowsBefore = (await t.database.db.select().from(chatMedia)).length;
      const { result: body, grewMb } = await measured(() => upload('report.docx', files[name], 'en'));
      expect(body).toEqual({ Code: 10422, Msg: expect.any(String), Data: null });
      expect([translate('en', 'fileTooComplex', { name: 'report.docx' }), translate('en', 'fileUnreadable', { name: 'report.docx' })]).toContain(body.Msg);
      expect(grewMb).toBeLessThan(64);
      expect((await t.database.db.select().from(chatMedia)).length).toBe(rowsBefore);
      const zh = await upload('report.docx', files[name], 'zh-CN');
      expect(zh.Code).toBe(10422);
      expect(zh.Msg).toMatch(/report\.docx/);
      expect(zh.Msg).not.toBe(body.Msg);
    });
  }

  it('still reads a real DOCX and PDF', async () => {
    const docx = await upload('notes.docx', makeDocx(['Otters hold hands while they sleep.']), 'en');
    expect(docx.Code).toBe(10000);
    const pdf = await upload('notes.pdf', await makePdf([['Sea otters use stones as tools.']]), 'en');
    expect(pdf.Code).toBe(10000);
  });

  it('refuses a PDF with more pages than it may read', async () => {
    const pages = Array.from({ length: 2001 }, () => ['x']);
    const body = await upload('long.pdf', await makePdf(pages), 'en');
    expect(body).toEqual({ Code: 10422, Msg: translate('en', 'fileTooComplex', { name: 'long.pdf' }), Data: null });
  });

  it('reads one document at a time per user and refuses beyond a bounded queue', async () => {
    const doc = makeDocx(['queued']);
    const started = Array.from({ length: 24 }, (_, i) => extractDocumentText(`owner-${i % 3}`, 'docx', doc, 'q.docx').then(
      (text) => ({ ok: true as const, text }),
      (err: { code: number; key: string }) => ({ ok: false as const, code: err.code, key: err.key }),
    ));
    const outcomes = await Promise.all(started);
    const refused = outcomes.filter((o) => !o.ok);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r).toMatchObject({ code: 10429, key: 'extractionBusy' });
    for (const o of outcomes.filter((x) => x.ok)) expect(o).toEqual({ ok: true, text: 'queued' });
  });
});
