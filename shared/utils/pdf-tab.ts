/**
 * A PDF open in the user's tab, as "Read this page" handles it: the extension fetches the PDF's
 * bytes itself (with the user's cookies) and uploads them as a file, so the server reads its text
 * page by page (docs/help/en/pdfs.md). What is here is pure: the fetching is the platform's
 * (shared/platform/extension.ts fetchPdf).
 */

/** Chrome's built-in PDF viewer: some of its tabs show its own address with the PDF's after it. */
export const CHROME_PDF_VIEWER_ID = 'mhjfbmdgcfjojefgeuimlcejpnjgkjbhl';

const VIEWER_PREFIX = `chrome-extension://${CHROME_PDF_VIEWER_ID}/`;

/** An http(s) or file address, without its fragment (which names a place in the same PDF); else null. */
function pdfFetchable(value: string | null | undefined): URL | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'file:') return null;
  url.hash = '';
  return url;
}

/**
 * The address of the PDF a tab shows, from the tab's address alone, or null when the address does
 * not say it is a PDF: a path ending in .pdf (the query ignored), or Chrome's PDF viewer with the
 * PDF's address after its own (as `?src=` or as the rest of the path). A PDF served at an address
 * without .pdf is found by its document's content type instead (TabAccess.tabContentType).
 */
export function pdfAddressOf(tabUrl: string): string | null {
  if (tabUrl.startsWith(VIEWER_PREFIX)) {
    let inner: string | null = null;
    try {
      inner = new URL(tabUrl).searchParams.get('src');
    } catch {
      inner = null;
    }
    const url = pdfFetchable(inner) ?? pdfFetchable(tabUrl.slice(VIEWER_PREFIX.length).replace(/^index\.html\??/, ''));
    return url?.href ?? null;
  }
  const url = pdfFetchable(tabUrl);
  if (!url || !url.pathname.toLowerCase().endsWith('.pdf')) return null;
  return url.href;
}

/** Whether a document's content type (document.contentType) is a PDF's. */
export const isPdfContentType = (contentType: string | null | undefined) => /^application\/pdf\b/i.test((contentType ?? '').trim());

/** The name a PDF is uploaded under: the last segment of its address, ending in .pdf; "document.pdf" when it has none. */
export function pdfFileName(address: string): string {
  let segment = '';
  try {
    const path = new URL(address).pathname;
    segment = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  } catch {
    segment = '';
  }
  // eslint-disable-next-line no-control-regex
  segment = segment.replace(/[\u0000-\u001f\u007f\\/]/g, '').trim().slice(0, 150);
  if (!segment) return 'document.pdf';
  return segment.toLowerCase().endsWith('.pdf') ? segment : `${segment}.pdf`;
}

/** Why the bytes of a tab's PDF could not be had. */
export type PdfFetchFailure =
  /** A file:// PDF, and the user has not allowed the extension to read files. */
  | 'fileAccess'
  /** Larger than the upload limit. */
  | 'tooLarge'
  /** The site answered an error status (signed out, gone). */
  | 'httpStatus'
  /** What came back is not a PDF. */
  | 'notPdf'
  /** The network failed, or the address could not be fetched at all. */
  | 'network';

export class PdfFetchError extends Error {
  constructor(
    readonly reason: PdfFetchFailure,
    readonly status?: number,
  ) {
    super(`fetching the PDF failed: ${reason}${status ? ` ${status}` : ''}`);
    this.name = 'PdfFetchError';
  }
}

/** Whether `bytes` start as a PDF does ("%PDF-", perhaps after a little leading junk, as readers allow). */
export function startsLikePdf(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  return head.includes('%PDF-');
}

/**
 * Reads a response body, up to `maxBytes`: more is refused ('tooLarge') as soon as it is seen, and
 * the download stopped. A declared Content-Length over the limit is refused before reading.
 */
export async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new PdfFetchError('tooLarge');
  }
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new PdfFetchError('tooLarge');
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
