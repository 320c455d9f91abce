import { describe, expect, it } from 'vitest';
import { isPdfContentType, pdfAddressOf, PdfFetchError, pdfFileName, readBounded, startsLikePdf } from '../../../shared/utils/pdf-tab.ts';

describe('pdfAddressOf', () => {
  it('finds a PDF by its path, ignoring the query and fragment', () => {
    expect(pdfAddressOf('https://example.com/papers/Otters.PDF?download=0#page=3')).toBe('https://example.com/papers/Otters.PDF?download=0');
    expect(pdfAddressOf('file:///home/me/notes.pdf')).toBe('file:///home/me/notes.pdf');
    expect(pdfAddressOf('https://example.com/report?format=pdf')).toBeNull();
    expect(pdfAddressOf('https://example.com/pdf')).toBeNull();
    expect(pdfAddressOf('chrome://settings/x.pdf')).toBeNull();
  });

  it("reads the PDF's address out of Chrome's viewer", () => {
    const viewer = 'chrome-extension://mhjfbmdgcfjojefgeuimlcejpnjgkjbhl/';
    expect(pdfAddressOf(`${viewer}index.html?src=${encodeURIComponent('https://example.com/a/report')}`)).toBe('https://example.com/a/report');
    expect(pdfAddressOf(`${viewer}https://example.com/a.pdf`)).toBe('https://example.com/a.pdf');
    expect(pdfAddressOf(`${viewer}index.html`)).toBeNull();
  });
});

describe('pdfFileName and the checks', () => {
  it('names the upload after the address', () => {
    expect(pdfFileName('https://example.com/docs/Otter%20survey.pdf?x=1')).toBe('Otter survey.pdf');
    expect(pdfFileName('https://example.com/members/report')).toBe('report.pdf');
    expect(pdfFileName('https://example.com/')).toBe('document.pdf');
  });

  it('tells PDFs by content type and bytes', () => {
    expect(isPdfContentType('application/pdf')).toBe(true);
    expect(isPdfContentType('text/html')).toBe(false);
    expect(startsLikePdf(new TextEncoder().encode('%PDF-1.7\n'))).toBe(true);
    expect(startsLikePdf(new TextEncoder().encode('<html>'))).toBe(false);
  });
});

describe('readBounded', () => {
  it('reads a body within the limit and refuses one beyond it', async () => {
    const bytes = new Uint8Array(1000).fill(65);
    expect((await readBounded(new Response(bytes), 1000)).byteLength).toBe(1000);
    const streamed = new Response(new ReadableStream({ start: (c) => (c.enqueue(bytes), c.enqueue(bytes), c.close()) }));
    await expect(readBounded(streamed, 1500)).rejects.toEqual(new PdfFetchError('tooLarge'));
    const declared = new Response(bytes, { headers: { 'content-length': '5000000' } });
    await expect(readBounded(declared, 1000)).rejects.toBeInstanceOf(PdfFetchError);
  });
});
