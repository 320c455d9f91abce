import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * What a reader of a PDF gets from it, read with pdf.js (as server/services/media/document-text.ts
 * reads uploads): its text page after page, its mark info, language and title, the roles of its
 * structure tree in order, and the addresses of its link annotations.
 */

const requireHere = createRequire(import.meta.url);
const pdfjsData = (folder: string) => `${path.join(path.dirname(requireHere.resolve('pdfjs-dist/package.json')), folder)}${path.sep}`;

type StructNode = { role?: string; children?: StructNode[] };

export type PdfReading = {
  text: string;
  pages: number;
  markInfo: { Marked?: boolean } | null;
  lang: unknown;
  title: unknown;
  roles: string[];
  links: string[];
};

export async function readPdf(bytes: Uint8Array): Promise<PdfReading> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl: pdfjsData('standard_fonts'),
    cMapUrl: pdfjsData('cmaps'),
    cMapPacked: true,
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
  try {
    const texts: string[] = [];
    const roles: string[] = [];
    const links: string[] = [];
    const walk = (node: StructNode | null) => {
      if (!node) return;
      if (node.role) roles.push(node.role);
      node.children?.forEach(walk);
    };
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      texts.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
      walk((await page.getStructTree()) as StructNode | null);
      for (const annotation of await page.getAnnotations()) if (annotation.subtype === 'Link' && annotation.url) links.push(annotation.url);
    }
    const info = (await doc.getMetadata()).info as Record<string, unknown>;
    return { text: texts.join('\n'), pages: doc.numPages, markInfo: await doc.getMarkInfo(), lang: info.Language, title: info.Title, roles, links };
  } finally {
    await doc.destroy();
  }
}
