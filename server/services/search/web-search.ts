import type { ChatCitation } from '../../../shared/contracts/chat.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { createSearchProvider, SearchError, type SearchProvider, type SearchResult } from '../../providers/web-search.ts';
import { REFUSALS } from '../media/upload.ts';
import { storableText } from '../../core/storable-text.ts';
import { fetchPublicResource, ReaderError } from '../reader/safe-fetch.ts';
import { decodeHtml, readablePage, UnreadablePageError } from '../reader/web-page.ts';

/** Search engines take short queries; a long question is cut (at a word) to this. */
const MAX_QUERY_CHARS = 400;
/** Each result page is read within this, all of them in parallel; a slower one is skipped. */
const SOURCE_READ_TIMEOUT_MS = 8000;
const SOURCE_MAX_BYTES = 2 * 1024 * 1024;
/** Of a page's readable text, at most this much reaches the model (less when the context is small). */
const SOURCE_MAX_CHARS = 8000;

/** A search result whose page was read: what the model cites as [index]. */
export type Source = ChatCitation & { text: string };

/** The configured provider, or the refusal saying web search is not set up. */
export function requireSearchProvider(ctx: AppContext): SearchProvider {
  const provider = createSearchProvider(ctx.config);
  if (!provider) throw new AppError(Codes.NotConfigured, 'webSearchNotConfigured');
  return provider;
}

export function searchQueryOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= MAX_QUERY_CHARS) return flat;
  const cut = flat.slice(0, MAX_QUERY_CHARS);
  const space = cut.lastIndexOf(' ');
  return space > MAX_QUERY_CHARS / 2 ? cut.slice(0, space) : cut;
}

/** Searches with the configured provider; a failing provider is a ServiceFailed refusal (logged). */
export async function searchWeb(ctx: AppContext, query: string, signal: AbortSignal): Promise<SearchResult[]> {
  const provider = requireSearchProvider(ctx);
  try {
    return await provider.search(searchQueryOf(query), { count: ctx.config.WEB_SEARCH_RESULTS, signal });
  } catch (err) {
    if (!(err instanceof SearchError)) throw err;
    ctx.log.warn({ provider: provider.name, reason: err.message }, 'web search failed');
    throw new AppError(Codes.ServiceFailed, 'webSearchFailed');
  }
}

const aborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

/**
 * A public page's readable text (the model's own reading: search results, read_url), through the
 * page reader's SSRF rules. A page that cannot be read is an UploadRefused AppError saying why.
 */
export async function readPage(
  ctx: AppContext,
  url: string,
  opts: { signal: AbortSignal; timeoutMs?: number },
): Promise<{ title: string; url: string; markdown: string }> {
  let page;
  try {
    const resource = await Promise.race([
      fetchPublicResource(url, { allowList: ctx.config.READER_ALLOWLIST, timeoutMs: opts.timeoutMs ?? SOURCE_READ_TIMEOUT_MS, maxBytes: SOURCE_MAX_BYTES }),
      aborted(opts.signal),
    ]);
    page = { ...readablePage(decodeHtml(resource.body, resource.charset), resource.url), url: resource.url };
  } catch (err) {
    if (err instanceof ReaderError) throw new AppError(Codes.UploadRefused, REFUSALS[err.reason]);
    if (err instanceof UnreadablePageError) throw new AppError(Codes.UploadRefused, 'pageUnreadable');
    throw err;
  }
  if (!page.markdown.trim()) throw new AppError(Codes.UploadRefused, 'pageEmpty');
  return { title: page.title || page.url, url: page.url, markdown: page.markdown };
}

/** A result's page, or null when it cannot be read (it is then left out). */
async function readSource(ctx: AppContext, result: SearchResult, signal: AbortSignal) {
  try {
    const page = await readPage(ctx, result.url, { signal });
    return { title: result.title || page.title, url: result.url, text: page.markdown };
  } catch (err) {
    signal.throwIfAborted();
    ctx.log.debug({ url: result.url, reason: err instanceof AppError ? err.key : (err as Error).message }, 'search result skipped: page not readable');
    return null;
  }
}

/**
 * Reads the results' pages in parallel (bounded in time); those that fail are skipped. The rest are
 * numbered from `firstIndex` in the search's order, each cut to its share of `budgetChars`.
 */
export async function readSources(
  ctx: AppContext,
  results: readonly SearchResult[],
  opts: { signal: AbortSignal; budgetChars: number; firstIndex?: number },
): Promise<Source[]> {
  const read = await Promise.all(results.map((r) => readSource(ctx, r, opts.signal)));
  const pages = read.filter((p) => p !== null);
  const share = Math.max(1000, Math.min(SOURCE_MAX_CHARS, Math.floor(opts.budgetChars / Math.max(1, pages.length))));
  const first = opts.firstIndex ?? 1;
  return pages.map((p, i) => ({ index: first + i, title: p.title, url: p.url, text: p.text.length > share ? `${p.text.slice(0, share)}\n[…]` : p.text }));
}

export const citationsOf = (sources: readonly ChatCitation[]): ChatCitation[] =>
  sources.map(({ index, title, url }) => ({ index, title: storableText(title), url: storableText(url) }));

const today = () => new Date().toISOString().slice(0, 10);

/** The system message giving the model the sources of a web-searched answer. */
export function sourcesPreamble(sources: readonly Source[]): string {
  if (!sources.length) {
    return `The user asked for a web search for their latest message, but no result could be read (today is ${today()}). Say that the search found nothing usable, then answer from what you know.`;
  }
  const blocks = sources.map((s) => `<source index="${s.index}" title=${JSON.stringify(s.title)} url=${JSON.stringify(s.url)}>\n${s.text}\n</source>`);
  return [
    `Web search results for the user's latest message (today is ${today()}) follow as numbered sources.`,
    'Answer from them, and cite the sources you use as [1], [2] (their numbers) right after the statements they support. Do not invent sources or numbers. If the sources do not answer the question, say so.',
    '',
    blocks.join('\n\n'),
  ].join('\n');
}

/** A search's results as the web_search tool answers the model: numbered, to cite as [n]. */
export function resultsForModel(results: readonly (SearchResult & { index: number })[]): string {
  if (!results.length) return 'No results.';
  const lines = results.map((r) => `[${r.index}] ${r.title}\nURL: ${r.url}\n${r.snippet}`);
  return `${lines.join('\n\n')}\n\nCite these results as [n] (their numbers) where you use them.`;
}
