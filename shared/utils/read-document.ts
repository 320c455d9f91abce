import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { READER_LANGUAGE_KEY } from './reader-language.ts';
import { readVideoPage, videoMarkdown, type VideoReading } from './video-transcript.ts';

/** A page as the tab reader (entrypoints/tab-reader.ts) reads it from the user's tab. */
export interface DocumentReading {
  title: string;
  /** The page's address as the tab shows it. */
  url: string;
  /** Absolute address of the icon the page declares; '' when it declares none. */
  icon: string;
  /** The readable content (navigation, footers and ads left out) as Markdown; '' when there is none. */
  markdown: string;
  /** A video's watch page: what was read of the video (markdown is its transcript for the model). */
  video?: VideoReading;
}

/**
 * The most Markdown kept: far beyond what a model reads of one page (the server keeps less), and in
 * any script well under the chat's 10 MB upload limit.
 */
export const MAX_READ_MARKDOWN_CHARS = 1_000_000;

const absolute = (value: string | null | undefined, base: string): string => {
  if (!value) return '';
  try {
    return new URL(value, base).href;
  } catch {
    return '';
  }
};

function markdownOf(html: string): string {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  // Scripts, styles and forms carry nothing the model can read.
  turndown.remove(['script', 'style', 'noscript', 'form', 'iframe']);
  return turndown
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Reads `doc` as the user sees it, in the tab itself: what a signed-in user sees and what scripts
 * built after loading are included, which a server fetching the address would miss. Mozilla's
 * Readability (Firefox's reader view) works on a clone, so the live page is left untouched. A page
 * Readability finds no article in gives its whole body; a body too deep for Turndown its plain text.
 */
export function readDocument(doc: Document): DocumentReading {
  const url = doc.URL;
  const base = doc.baseURI || url;
  const icon = absolute(doc.querySelector('link[rel~="icon" i]')?.getAttribute('href'), base);
  const pageTitle = doc.title.trim();
  let hostname = '';
  try {
    hostname = new URL(url).hostname;
  } catch {
    // An address without a host (about:blank): the title alone names it.
  }

  let article: ReturnType<Readability['parse']> = null;
  try {
    article = new Readability(doc.cloneNode(true) as Document).parse();
  } catch (error) {
    console.warn('Readability could not read this page', error);
  }
  let markdown: string;
  try {
    markdown = markdownOf(article?.content?.trim() ? article.content : (doc.body?.innerHTML ?? ''));
  } catch {
    // Turndown recurses: a pathologically deep page overflows it. Its text is still worth reading.
    markdown = (article?.textContent ?? doc.body?.textContent ?? '').replace(/\n{3,}/g, '\n\n').trim();
  }
  return {
    title: (article?.title?.trim() || pageTitle || hostname || url).slice(0, 300),
    url,
    icon,
    markdown: markdown.slice(0, MAX_READ_MARKDOWN_CHARS),
  };
}

/** The extension's own language setting (shared/i18n/language.ts), read by the reader in the tab. */
const LANGUAGE_STORAGE_KEY = 'tandem.language';

/**
 * The app's language, for the choice of a video's caption track: one set for the reader (tests), else
 * the extension's setting (the reader runs in the extension's isolated world, which has its storage),
 * else the browser's.
 */
async function appLanguage(): Promise<string> {
  const set = (globalThis as Record<string, unknown>)[READER_LANGUAGE_KEY];
  if (typeof set === 'string') return set;
  try {
    const stored = (await chrome.storage.local.get(LANGUAGE_STORAGE_KEY))[LANGUAGE_STORAGE_KEY] as { value?: unknown } | undefined;
    if (typeof stored?.value === 'string') return stored.value;
  } catch {
    // Not in an extension (a test's document): the browser's language.
  }
  return navigator.language || 'en';
}

/**
 * What the tab reader answers: a YouTube or Bilibili watch page as its video (transcript, else
 * description and chapters: shared/utils/video-transcript.ts) in Markdown with `[mm:ss]` lines, any
 * other page as readDocument reads it.
 */
export async function readTabDocument(doc: Document): Promise<DocumentReading> {
  const language = await appLanguage();
  let video: VideoReading | null = null;
  try {
    video = await readVideoPage(doc, { language, fetch: (url) => fetch(url, { credentials: 'include' }) });
  } catch (error) {
    console.warn('reading the video failed; the page is read instead', error);
  }
  if (!video) return readDocument(doc);
  const icon = absolute(doc.querySelector('link[rel~="icon" i]')?.getAttribute('href'), doc.baseURI || doc.URL);
  return { title: video.title.slice(0, 300), url: video.url, icon, markdown: videoMarkdown(video).slice(0, MAX_READ_MARKDOWN_CHARS), video };
}
