import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/** A web page as the model reads it. */
interface ReadablePage {
  title: string;
  /** Absolute address of the page's icon, '' when it declares none. */
  icon: string;
  /** The page's readable content (navigation, footers and ads left out) as Markdown. */
  markdown: string;
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
// Scripts, styles and forms carry nothing the model can read.
turndown.remove(['script', 'style', 'noscript', 'form', 'iframe']);

const absolute = (value: string | null, base: string): string | null => {
  if (!value) return null;
  try {
    return new URL(value, base).href;
  } catch {
    return null;
  }
};

/** The charset a page declares in a meta tag, for bodies whose Content-Type named none. */
function declaredCharset(head: Buffer): string | undefined {
  const text = head.subarray(0, 2048).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(text)?.[1];
}

/** Decodes an HTML body: the Content-Type's charset, else the page's meta tag, else UTF-8. */
export function decodeHtml(body: Buffer, charset?: string): string {
  for (const label of [charset, declaredCharset(body), 'utf-8']) {
    if (!label) continue;
    try {
      return new TextDecoder(label).decode(body);
    } catch {
      // An unknown label: try the next one.
    }
  }
  return body.toString('utf8');
}

/**
 * Beyond these a page is refused before Readability and Turndown walk it: both recurse, and a few
 * hundred kilobytes of deeply nested tags would hold the server's only thread for many seconds (and
 * then overflow the stack). Real articles stay far below.
 */
const MAX_DEPTH = 256;
const MAX_ELEMENTS = 60_000;

/** A page whose markup is too deep or too large to read safely. */
export class UnreadablePageError extends Error {}

/** Refuses a document deeper or larger than the limits, walking it without recursion. */
function checkShape(root: Element): void {
  let elements = 0;
  const stack: [Element, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [element, depth] = stack.pop()!;
    if (++elements > MAX_ELEMENTS || depth > MAX_DEPTH) throw new UnreadablePageError('page markup too large or too deep');
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) stack.push([child, depth + 1]);
  }
}

/**
 * The readable part of an HTML page (Mozilla's Readability, as in Firefox's reader view) as Markdown,
 * with links and images made absolute against the page's address. A page Readability finds no
 * article in (a short or unusual one) gives its whole body instead; an empty one gives no text.
 */
export function readablePage(html: string, pageUrl: string): ReadablePage {
  const { document } = parseHTML(html);
  const hostname = new URL(pageUrl).hostname;
  // An empty or text-only body leaves no document element, which Readability cannot take.
  if (!document.documentElement) return { title: hostname, icon: '', markdown: '' };
  checkShape(document.documentElement as unknown as Element);
  for (const [selector, attribute] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const resolved = absolute(element.getAttribute(attribute), pageUrl);
      if (resolved) element.setAttribute(attribute, resolved);
      else element.removeAttribute(attribute);
    }
  }
  const iconHref = document.querySelector('link[rel~="icon" i]')?.getAttribute('href') ?? null;
  const icon = absolute(iconHref, pageUrl) ?? '';
  const pageTitle = document.querySelector('title')?.textContent?.trim() ?? '';
  const bodyHtml = document.body?.innerHTML ?? '';

  const article = new Readability(document as unknown as Document).parse();
  const content = article?.content?.trim() ? article.content : bodyHtml;
  const markdown = turndown
    .turndown(content)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title: (article?.title?.trim() || pageTitle || hostname).slice(0, 300), icon, markdown };
}
