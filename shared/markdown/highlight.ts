import type { HighlighterCore, LanguageInput, ThemeInput } from 'shiki/core';
import { escapeHtml } from './html.ts';

/**
 * Code highlighting with shiki's JavaScript regex engine: no WebAssembly, so the extension's default
 * CSP holds. Each grammar is its own chunk, fetched the first time an answer uses that language; the
 * list is kept to common languages so the package stays small.
 */
const LANGUAGES: Record<string, () => LanguageInput> = {
  bash: () => import('shiki/langs/bash.mjs'),
  c: () => import('shiki/langs/c.mjs'),
  cpp: () => import('shiki/langs/cpp.mjs'),
  csharp: () => import('shiki/langs/csharp.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  dart: () => import('shiki/langs/dart.mjs'),
  diff: () => import('shiki/langs/diff.mjs'),
  docker: () => import('shiki/langs/docker.mjs'),
  go: () => import('shiki/langs/go.mjs'),
  graphql: () => import('shiki/langs/graphql.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  ini: () => import('shiki/langs/ini.mjs'),
  java: () => import('shiki/langs/java.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  json: () => import('shiki/langs/json.mjs'),
  jsx: () => import('shiki/langs/jsx.mjs'),
  kotlin: () => import('shiki/langs/kotlin.mjs'),
  latex: () => import('shiki/langs/latex.mjs'),
  lua: () => import('shiki/langs/lua.mjs'),
  php: () => import('shiki/langs/php.mjs'),
  powershell: () => import('shiki/langs/powershell.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  r: () => import('shiki/langs/r.mjs'),
  ruby: () => import('shiki/langs/ruby.mjs'),
  rust: () => import('shiki/langs/rust.mjs'),
  scala: () => import('shiki/langs/scala.mjs'),
  scss: () => import('shiki/langs/scss.mjs'),
  sql: () => import('shiki/langs/sql.mjs'),
  swift: () => import('shiki/langs/swift.mjs'),
  toml: () => import('shiki/langs/toml.mjs'),
  tsx: () => import('shiki/langs/tsx.mjs'),
  typescript: () => import('shiki/langs/typescript.mjs'),
  xml: () => import('shiki/langs/xml.mjs'),
  yaml: () => import('shiki/langs/yaml.mjs'),
};

/** Names models write after ``` mapped to the grammar above. */
const ALIASES: Record<string, string> = {
  'c#': 'csharp',
  'c++': 'cpp',
  cjs: 'javascript',
  cs: 'csharp',
  cts: 'typescript',
  dockerfile: 'docker',
  graphqls: 'graphql',
  gql: 'graphql',
  js: 'javascript',
  jsonc: 'json',
  json5: 'json',
  kt: 'kotlin',
  mjs: 'javascript',
  mts: 'typescript',
  node: 'javascript',
  ps: 'powershell',
  ps1: 'powershell',
  py: 'python',
  python3: 'python',
  rb: 'ruby',
  rs: 'rust',
  sh: 'bash',
  shell: 'bash',
  shellscript: 'bash',
  svg: 'xml',
  tex: 'latex',
  toml: 'toml',
  ts: 'typescript',
  yml: 'yaml',
  zsh: 'bash',
};

/** Both schemes in one pass: the light colours inline, the dark ones as --shiki-dark (markdown-view.css picks). */
// github-light's orange and grey are under 4.5:1 on white; its -default sibling's colours are not.
const THEMES = { light: 'github-light-default', dark: 'github-dark-default' };
const loadThemes = (): ThemeInput[] => [import('shiki/themes/github-light-default.mjs'), import('shiki/themes/github-dark-default.mjs')];

/** The grammar id for a fence's language word, or undefined when it is not one we highlight. */
export function resolveLanguage(lang: string): string | undefined {
  const id = ALIASES[lang] ?? lang;
  return Object.hasOwn(LANGUAGES, id) ? id : undefined;
}

let highlighter: Promise<HighlighterCore> | undefined;
const loadedLanguages = new Map<string, Promise<void>>();

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= Promise.all([import('shiki/core'), import('shiki/engine/javascript')]).then(
    ([{ createHighlighterCore }, { createJavaScriptRegexEngine }]) =>
      createHighlighterCore({ themes: loadThemes(), langs: [], engine: createJavaScriptRegexEngine() }),
  );
  return highlighter;
}

function ensureLanguage(core: HighlighterCore, id: string): Promise<void> {
  let loading = loadedLanguages.get(id);
  if (!loading) {
    loading = core.loadLanguage(LANGUAGES[id]());
    // A failed chunk load (extension updated underneath, say) may succeed on a later answer.
    loading.catch(() => loadedLanguages.delete(id));
    loadedLanguages.set(id, loading);
  }
  return loading;
}

// Highlighted HTML by language and code: a re-mounted answer (scrolling a long chat) shows colours at once.
const CACHE_LIMIT = 300;
const cache = new Map<string, string>();
const cacheKey = (code: string, id: string) => `${id}\u0000${code}`;

/** Highlighted HTML already computed for this code, without waiting. */
export function peekHighlighted(code: string, lang: string): string | undefined {
  const id = resolveLanguage(lang);
  return id === undefined ? undefined : cache.get(cacheKey(code, id));
}

export function plainCodeHtml(code: string, lang: string): string {
  const cls = lang ? ` class="language-${escapeHtml(lang)}"` : '';
  return `<pre class="md-code-plain"><code${cls}>${escapeHtml(code)}</code></pre>`;
}

/** A `<pre>` with coloured spans for known languages; unknown languages come back plain. */
export async function highlightCode(code: string, lang: string): Promise<string> {
  const id = resolveLanguage(lang);
  if (id === undefined) return plainCodeHtml(code, lang);
  const key = cacheKey(code, id);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const core = await getHighlighter();
  await ensureLanguage(core, id);
  const html = core.codeToHtml(code, { lang: id, themes: THEMES });
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, html);
  return html;
}
