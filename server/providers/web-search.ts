import type { Config } from '../config.ts';

/**
 * Web search providers. Each is a service the operator configured (their own SearXNG, or a paid API
 * with their key), so requests go to it directly rather than through the page reader's SSRF guard;
 * the pages its results point at are read through that guard.
 */

export type SearchResult = { title: string; url: string; snippet: string };

export type SearchProviderName = 'searxng' | 'tavily' | 'brave';

export interface SearchProvider {
  readonly name: SearchProviderName;
  search(query: string, opts: { count: number; signal?: AbortSignal }): Promise<SearchResult[]>;
}

/** The provider failed, answered an error, or was too slow; the message is for logs. */
export class SearchError extends Error {
  override name = 'SearchError';
}

/** A search that has not answered by then is given up. */
export const SEARCH_TIMEOUT_MS = 10_000;
/** Larger answers are refused: a search result page is a few kilobytes. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

const trimSlash = (url: string) => url.replace(/\/+$/, '');
const text = (v: unknown) => (typeof v === 'string' ? v : '');
/** Brave marks matches with <strong>; entities are rare and harmless in a snippet. */
const stripTags = (v: string) => v.replace(/<[^>]*>/g, '');

async function getJson(url: string, init: RequestInit, signal: AbortSignal | undefined): Promise<unknown> {
  const timeout = AbortSignal.timeout(SEARCH_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (err) {
    signal?.throwIfAborted();
    throw new SearchError(timeout.aborted ? `no answer within ${SEARCH_TIMEOUT_MS} ms` : (err as Error).message);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new SearchError(`HTTP ${res.status}`);
  }
  if (Number(res.headers.get('content-length')) > MAX_ANSWER_BYTES) {
    await res.body?.cancel().catch(() => {});
    throw new SearchError('answer too large');
  }
  try {
    const body = await res.text();
    if (body.length > MAX_ANSWER_BYTES) throw new SearchError('answer too large');
    return JSON.parse(body);
  } catch (err) {
    signal?.throwIfAborted();
    if (err instanceof SearchError) throw err;
    throw new SearchError(timeout.aborted ? `no answer within ${SEARCH_TIMEOUT_MS} ms` : `not JSON: ${(err as Error).message}`);
  }
}

/** Keeps results with an http(s) address, each address once, at most `count`. */
function clean(results: SearchResult[], count: number): SearchResult[] {
  const seen = new Set<string>();
  const out: SearchResult[] = [];
  for (const r of results) {
    if (out.length >= count) break;
    if (!/^https?:\/\//i.test(r.url) || !URL.canParse(r.url) || seen.has(r.url)) continue;
    seen.add(r.url);
    out.push({ title: r.title.trim() || r.url, url: r.url, snippet: r.snippet.trim() });
  }
  return out;
}

const listOf = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object') : [];

/** SearXNG's JSON API (the instance must list `json` in `search.formats`). */
function searxng(baseUrl: string): SearchProvider {
  return {
    name: 'searxng',
    async search(query, { count, signal }) {
      const url = `${trimSlash(baseUrl)}/search?${new URLSearchParams({ q: query, format: 'json' })}`;
      const body = (await getJson(url, { headers: { accept: 'application/json' } }, signal)) as { results?: unknown };
      const results = listOf(body?.results).map((r) => ({ title: text(r.title), url: text(r.url), snippet: text(r.content) }));
      return clean(results, count);
    },
  };
}

function tavily(baseUrl: string, apiKey: string): SearchProvider {
  return {
    name: 'tavily',
    async search(query, { count, signal }) {
      const body = (await getJson(
        `${trimSlash(baseUrl)}/search`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${apiKey}` },
          body: JSON.stringify({ query, max_results: count, search_depth: 'basic' }),
        },
        signal,
      )) as { results?: unknown };
      const results = listOf(body?.results).map((r) => ({ title: text(r.title), url: text(r.url), snippet: text(r.content) }));
      return clean(results, count);
    },
  };
}

function brave(baseUrl: string, apiKey: string): SearchProvider {
  return {
    name: 'brave',
    async search(query, { count, signal }) {
      const url = `${trimSlash(baseUrl)}/web/search?${new URLSearchParams({ q: query, count: String(count) })}`;
      const body = (await getJson(url, { headers: { accept: 'application/json', 'x-subscription-token': apiKey } }, signal)) as {
        web?: { results?: unknown };
      };
      const results = listOf(body?.web?.results).map((r) => ({
        title: stripTags(text(r.title)),
        url: text(r.url),
        snippet: stripTags(text(r.description)),
      }));
      return clean(results, count);
    },
  };
}

/** The provider in use: WEB_SEARCH_PROVIDER, else the first configured of SearXNG, Tavily, Brave; null when none is. */
export function searchProviderName(config: Config): SearchProviderName | null {
  if (config.WEB_SEARCH_PROVIDER) return config.WEB_SEARCH_PROVIDER;
  if (config.SEARXNG_URL) return 'searxng';
  if (config.TAVILY_API_KEY) return 'tavily';
  if (config.BRAVE_SEARCH_API_KEY) return 'brave';
  return null;
}

export function createSearchProvider(config: Config): SearchProvider | null {
  switch (searchProviderName(config)) {
    case 'searxng':
      return searxng(config.SEARXNG_URL!);
    case 'tavily':
      return tavily(config.TAVILY_BASE_URL, config.TAVILY_API_KEY!);
    case 'brave':
      return brave(config.BRAVE_BASE_URL, config.BRAVE_SEARCH_API_KEY!);
    case null:
      return null;
  }
}
