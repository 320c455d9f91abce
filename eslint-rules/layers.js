import path from 'node:path';

/**
 * The layer map as an allow-list (docs/architecture.md#layers-and-import-rules): every file belongs
 * to a layer, every import names a layer or a package, and an import is reported unless the table
 * below allows it. A new folder belongs to no layer until it is added here, so it cannot slip by.
 */

const ROOT = path.resolve(import.meta.dirname, '..');

/** Extension-only entrypoints: the web pages (app, login, admin) never load them. */
const EXTENSION_ENTRYPOINTS = new Set(['background', 'sidepanel', 'sidepanel-early', 'popup', 'bridge.content', 'selection.content', 'tab-reader', 'page-translator']);
const SHARED = ['contracts', 'api', 'atoms', 'storage', 'messaging', 'platform', 'markdown', 'i18n', 'utils'];
const SHELL = new Set(['ui', 'app-shell', 'layout']);

/**
 * The server's layers: the composition root (app.ts, main.ts), what every layer is handed (config.ts,
 * context.ts), core, http, routes, routes/admin, providers, db, and services by domain (its folder
 * is its name; a file straight in services/ has none and is reported).
 */
function serverLayerOf(parts) {
  const [, second, third] = parts;
  if (parts.length === 2) return { layer: ['config.ts', 'context.ts'].includes(second) ? 'server/context' : 'server/root' };
  if (second === 'services') return { layer: 'server/services', name: parts.length > 3 ? third : '' };
  if (second === 'routes') return { layer: third === 'admin' && parts.length > 3 ? 'server/routes/admin' : 'server/routes' };
  return { layer: `server/${second}` };
}

/** The layer of a repository path: { layer, name? } or null for files outside the map (tests, tools). */
export function layerOf(relative) {
  const parts = relative.split(/[\\/]/);
  const [top, second] = parts;
  if (top === 'entrypoints') return { layer: 'entrypoint', name: parts.length > 2 ? second : second.replace(/\.tsx?$/, '') };
  // The operator's console, built apart from the extension (admin.vite.config.ts): its entry files
  // are an entrypoint of their own; admin/shell and admin/ui are its shell, every other folder one of its features.
  if (top === 'admin' && parts.length > 1) {
    if (parts.length === 2) return { layer: 'entrypoint', name: 'admin' };
    if (second === 'shell' || second === 'ui') return { layer: `admin-${second}` };
    return { layer: 'admin-feature', name: second };
  }
  if (top === 'components') {
    if (SHELL.has(second)) return { layer: second };
    return parts.length > 2 ? { layer: 'feature', name: second } : null;
  }
  if (top === 'shared' && SHARED.includes(second)) return { layer: `shared/${second}` };
  if (top === 'server') return serverLayerOf(parts);
  if (top === 'locales') return { layer: 'locales' };
  return null;
}

const sharedAll = SHARED.map((s) => `shared/${s}`);
const serverShared = ['shared/contracts', 'shared/utils'];
const sharedBelowApi = ['shared/contracts', 'shared/utils', 'shared/i18n', 'shared/markdown'];

/** Which layers each layer may import. A feature may also import itself (same name). */
const ALLOWED = {
  entrypoint: ['layout', 'feature', 'ui', 'app-shell', ...sharedAll],
  layout: ['layout', 'feature', 'ui', 'app-shell', ...sharedAll],
  // A feature registers its own strings (locales/features/<feature>.en.json, shared/i18n/feature-strings.ts).
  feature: ['feature:self', 'ui', 'app-shell', ...sharedAll, 'locales'],
  // A piece of the shell loaded on demand registers its own strings too (the unreachable-server notice).
  'app-shell': ['app-shell', 'ui', ...sharedAll, 'locales'],
  // The console: its features are the user's features' rules over its own shell (admin/shell) and
  // generic pieces (admin/ui); they meet only in its entry (admin/admin-routes.tsx).
  'admin-feature': ['admin-feature:self', 'admin-ui', 'ui', 'app-shell', ...sharedAll, 'locales'],
  'admin-shell': ['admin-shell', 'admin-ui', 'ui', 'app-shell', ...sharedAll, 'locales'],
  'admin-ui': ['admin-ui', 'ui', ...sharedBelowApi, 'shared/platform', 'locales'],
  // Generic pieces: no atoms, no API calls of their own (the answer renderer's images load
  // through shared/markdown).
  ui: ['ui', ...sharedBelowApi, 'shared/platform'],
  'shared/contracts': ['shared/contracts'],
  'shared/utils': ['shared/utils', 'shared/contracts'],
  'shared/i18n': ['shared/i18n', 'locales', 'shared/contracts', 'shared/utils', 'shared/storage', 'shared/messaging', 'shared/atoms'],
  // Images in answers load through the image proxy's calls.
  'shared/markdown': ['shared/markdown', 'shared/utils', 'shared/contracts', 'shared/api'],
  'shared/storage': ['shared/storage', 'shared/contracts', 'shared/utils', 'shared/platform'],
  'shared/platform': ['shared/platform', 'shared/storage', 'shared/contracts', 'shared/utils'],
  'shared/messaging': ['shared/messaging', 'shared/contracts', 'shared/utils', 'shared/storage'],
  'shared/atoms': ['shared/atoms', 'shared/storage', 'shared/contracts', 'shared/utils', 'shared/platform'],
  'shared/api': ['shared/api', 'shared/atoms', 'shared/storage', 'shared/contracts', 'shared/utils', 'shared/i18n', 'shared/platform'],
  // The server (docs/architecture.md#the-server): routes -> services -> providers, db, core.
  'server/root': ['server/root', 'server/context', 'server/core', 'server/http', 'server/routes', 'server/routes/admin', 'server/services', 'server/providers', 'server/db', ...serverShared],
  'server/context': ['server/context', 'server/core', 'server/services', 'server/providers', 'server/db', ...serverShared],
  'server/core': ['server/core', ...serverShared],
  'server/db': ['server/db', 'server/core', 'server/context', ...serverShared],
  'server/providers': ['server/providers', 'server/core', 'server/context', ...serverShared],
  // http/ runs no service code: what the route helper and the pages need of services is handed in by
  // app.ts; it names services' types only (the user a route gets, an upload's file).
  'server/http': ['server/http', 'server/core', 'server/context', 'server/services:types', ...serverShared],
  'server/routes': ['server/routes', 'server/http', 'server/services', 'server/core', 'server/db', 'server/context', ...serverShared],
  'server/routes/admin': ['server/routes/admin', 'server/routes', 'server/http', 'server/services', 'server/core', 'server/db', 'server/context', ...serverShared],
  // A domain may use another's services (the import graph has no cycle: tests/architecture/import-cycles.test.ts).
  'server/services': ['server/services', 'server/providers', 'server/db', 'server/core', 'server/context', ...serverShared],
};

/** Packages only some layers may use. */
const EXTENSION_APIS = /^(wxt(\/|$)|@webext-core\/|webextension-polyfill$)/;
const AI_SDK = /^(ai$|@ai-sdk\/)/;

function packageAllowed(from, source) {
  if (EXTENSION_APIS.test(source)) {
    if (['shared/platform', 'shared/storage', 'shared/messaging'].includes(from.layer)) return true;
    if (from.layer === 'entrypoint' && EXTENSION_ENTRYPOINTS.has(from.name)) return true;
    return `only shared/platform, shared/storage, shared/messaging and extension-only entrypoints use ${source}`;
  }
  if (AI_SDK.test(source) && from.layer !== 'server/providers') return `the AI SDK (${source}) is used only in server/providers`;
  if (from.layer === 'shared/contracts' && source !== 'zod') return 'contracts import nothing but zod';
  return true;
}

/** Extension-only code the web pages must not reach: only entrypoints choose it, once, at start-up. */
const EXTENSION_PLATFORM = 'shared/platform/extension.ts';

function targetAllowed(from, to) {
  if (to.file === EXTENSION_PLATFORM && from.layer !== 'entrypoint' && from.layer !== 'shared/platform') {
    return 'components reach the tab through usePlatform().tabs, chosen by the entrypoint; only entrypoints import shared/platform/extension.ts';
  }
  if (from.layer === 'entrypoint' && to.layer === 'entrypoint') return to.name === from.name || `one entrypoint never imports another (${to.name})`;
  if (to.layer === 'layout' && from.layer === 'feature') return 'no feature imports the composition folder components/layout';
  if (to.layer.startsWith('admin-') || (to.layer === 'entrypoint' && to.name === 'admin')) {
    const inConsole = from.layer.startsWith('admin-') || (from.layer === 'entrypoint' && from.name === 'admin');
    if (!inConsole) return 'no user surface imports the console (admin/)';
    if (from.layer === 'entrypoint') return true;
  }
  if (to.layer === 'admin-feature') {
    if (from.layer === 'admin-feature' && to.name === from.name) return true;
    return `${from.layer === 'admin-feature' ? `the console's ${from.name} feature` : from.layer} may not import the console's ${to.name} feature`;
  }
  const allowed = ALLOWED[from.layer] ?? [];
  if (to.layer === 'server/services' && !allowed.includes('server/services') && allowed.includes('server/services:types')) {
    return to.typeOnly || `${from.layer} runs no service code (app.ts hands in what it needs); it may import a service's types only`;
  }
  if (to.layer === 'feature') {
    if (allowed.includes('feature')) return true;
    if (allowed.includes('feature:self') && to.name === from.name) return true;
    return `${from.layer === 'feature' ? `the ${from.name} feature` : from.layer} may not import the ${to.name} feature`;
  }
  return allowed.includes(to.layer) || `${from.layer === 'feature' ? `a feature (${from.name})` : from.layer} may not import ${to.layer}`;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the layer map (docs/architecture.md#layers-and-import-rules).' },
    schema: [],
    messages: { layer: 'Import against the layer map: {{why}}.' },
  },
  create(context) {
    const file = path.relative(ROOT, context.filename);
    const from = layerOf(file);
    if (!from) return {};
    const misplaced = from.layer === 'server/services' && !from.name;
    const check = (node, source, typeOnly = false) => {
      if (typeof source !== 'string') return;
      let verdict;
      if (source.startsWith('.')) {
        const target = path.relative(ROOT, path.resolve(path.dirname(context.filename), source));
        const to = layerOf(target);
        verdict = to ? targetAllowed(from, { ...to, typeOnly, file: target.split(path.sep).join('/') }) : `${source} is outside the layer map`;
      } else {
        verdict = packageAllowed(from, source);
      }
      if (verdict !== true) context.report({ node, messageId: 'layer', data: { why: verdict } });
    };
    /** `import type { … }`, or an import whose every name is `type …`: gone from the code that runs. */
    const typeOnly = (node) =>
      node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((s) => s.type === 'ImportSpecifier' && s.importKind === 'type'));
    return {
      Program: (node) => misplaced && context.report({ node, messageId: 'layer', data: { why: 'a service lives in its domain folder, server/services/<domain>/' } }),
      ImportDeclaration: (node) => check(node.source, node.source.value, typeOnly(node)),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};
