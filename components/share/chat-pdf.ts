import 'katex/dist/katex.min.css';
import '../ui/markdown-view.css';
import './chat-pdf.css';
import html2canvas from 'html2canvas';
import { jsPDF } from 'jspdf';
import type { ChatExchange } from '../../shared/contracts/chat.ts';
import { buildChatPdfDocument, type PdfLabels } from './chat-pdf-document.ts';
import { mergeBands, Pager, type Band } from './chat-pdf-pages.ts';

/**
 * A chat as a PDF, made in the browser: the chat is laid out as a page of HTML with the app's own
 * renderer (so math, code, Chinese text and emoji look as the browser draws them, with no font to
 * ship), drawn to canvases by html2canvas and placed on A4 pages by jsPDF. This module, and the two
 * libraries with it, load only when the user exports (session-share-actions.tsx imports it then).
 * The pages are pictures: the text is not selectable.
 *
 * Pages end between lines, formulas and table rows (see chat-pdf-pages.ts). The chat is drawn a few
 * pages at a time, so no canvas outgrows what browsers allow and the page stays responsive.
 */

const PAGE_MM = { width: 210, height: 297 };
const MARGIN_MM = { x: 12, top: 14, bottom: 16 };
/** The text's width in CSS pixels (chat-pdf.css): about 10 pt type for the app's 14 px. */
const CONTENT_PX = 714;
const PX_PER_MM = CONTENT_PX / (PAGE_MM.width - 2 * MARGIN_MM.x);
const PAGE_PX = Math.floor((PAGE_MM.height - MARGIN_MM.top - MARGIN_MM.bottom) * PX_PER_MM);
/** Device pixels per CSS pixel: sharp enough to print, small enough to mail. */
const SCALE = 2;
/** Pieces of the chat are drawn together until they are this tall. */
const GROUP_PX = 3 * PAGE_PX;
/** The tallest one drawing may be (browsers refuse canvases much taller than 16k device pixels). */
const STRIP_PX = 4000;
const JPEG_QUALITY = 0.85;

type Strip = { top: number; bottom: number; canvas: HTMLCanvasElement };

/** The stretches of `root` that a page must not end inside: lines of text, formulas, images, table rows. */
function measureBands(root: HTMLElement): Band[] {
  const origin = root.getBoundingClientRect().top;
  const bands: Band[] = [];
  const add = (rect: DOMRect) => rect.height > 0 && bands.push({ top: rect.top - origin, bottom: rect.bottom - origin });
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = root.ownerDocument.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.nodeValue?.trim()) continue;
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) add(rect);
  }
  for (const element of root.querySelectorAll('img, svg, .katex, tr, .md-image')) add(element.getBoundingClientRect());
  return mergeBands(bands);
}

/** `element` drawn in strips no taller than STRIP_PX. */
async function drawStrips(element: HTMLElement, height: number, host: HTMLElement): Promise<Strip[]> {
  const head = element.ownerDocument.head;
  // html2canvas copies the whole document before it draws: only the styles and this element are needed.
  const ignoreElements = (node: Element) => node.tagName === 'SCRIPT' || !(head.contains(node) || node.contains(host) || host.contains(node));
  const strips: Strip[] = [];
  for (let top = 0; top < height; top += STRIP_PX) {
    const bottom = Math.min(height, top + STRIP_PX);
    const canvas = await html2canvas(element, {
      scale: SCALE,
      backgroundColor: '#ffffff',
      logging: false,
      x: 0,
      y: top,
      width: CONTENT_PX,
      height: bottom - top,
      scrollX: 0,
      scrollY: 0,
      ignoreElements,
    });
    strips.push({ top, bottom, canvas });
  }
  return strips;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The chat as a PDF file. `onProgress` gets the share of the work done, from 0 to 1: rendering the
 * answers, then drawing the pages.
 */
export async function chatToPdf(
  title: string,
  messages: readonly ChatExchange[],
  labels: PdfLabels,
  exportedAt: string,
  onProgress: (done: number) => void,
): Promise<Blob> {
  // Rendering an answer counts one step, drawing a piece of the chat three.
  const steps = messages.length + 3 * (messages.length + 1);
  const root = await buildChatPdfDocument(document, title, messages, labels, exportedAt, (rendered) => onProgress(rendered / steps));

  const pdf = new jsPDF({ unit: 'mm', format: 'a4', compress: true });
  const page = document.createElement('canvas');
  page.width = CONTENT_PX * SCALE;
  page.height = PAGE_PX * SCALE;
  const context = page.getContext('2d')!;
  const blank = () => {
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, page.width, page.height);
  };
  const place = () =>
    pdf.addImage(page.toDataURL('image/jpeg', JPEG_QUALITY), 'JPEG', MARGIN_MM.x, MARGIN_MM.top, CONTENT_PX / PX_PER_MM, PAGE_PX / PX_PER_MM);
  let strips: Strip[] = [];
  blank();
  const pager = new Pager(PAGE_PX, {
    draw(from, to, at) {
      for (const strip of strips) {
        const a = Math.max(from, strip.top);
        const b = Math.min(to, strip.bottom);
        if (b <= a) continue;
        const sy = Math.round((a - strip.top) * SCALE);
        const sh = Math.min(Math.round((b - a) * SCALE), strip.canvas.height - sy);
        if (sh > 0) context.drawImage(strip.canvas, 0, sy, strip.canvas.width, sh, 0, Math.round((at + a - from) * SCALE), page.width, sh);
      }
    },
    newPage() {
      place();
      pdf.addPage();
      blank();
    },
  });

  const host = document.createElement('div');
  host.className = 'chat-pdf-host';
  host.setAttribute('aria-hidden', 'true');
  const group = root.cloneNode(false) as HTMLElement;
  host.append(group);
  document.body.append(host);
  try {
    const units = Array.from(root.children);
    for (let i = 0; i < units.length; ) {
      group.replaceChildren();
      do {
        group.append(units[i++]!);
      } while (i < units.length && group.offsetHeight < GROUP_PX);
      // KaTeX's fonts load when a formula is first laid out; lines are measured with them.
      await document.fonts.ready;
      const height = Math.ceil(group.getBoundingClientRect().height);
      const bands = measureBands(group);
      strips = await drawStrips(group, height, host);
      pager.add(height, bands);
      strips = [];
      onProgress((messages.length + 3 * i) / steps);
      await pause();
    }
  } finally {
    host.remove();
  }
  place();
  const pages = pdf.getNumberOfPages();
  for (let n = 1; n <= pages; n++) {
    pdf.setPage(n);
    pdf.setFontSize(8);
    pdf.setTextColor(140);
    pdf.text(`${n} / ${pages}`, PAGE_MM.width / 2, PAGE_MM.height - MARGIN_MM.bottom / 2, { align: 'center' });
  }
  pdf.setProperties({ creator: 'Tandem' });
  return pdf.output('blob');
}
