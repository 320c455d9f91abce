import nodePath from 'node:path';
import type { ManualChunkMeta, ModuleInfo } from 'rollup';
import type { Plugin } from 'vite';

/**
 * A chunk plan for the extension's pages (wxt.config.ts): one chunk per set of pages that load a
 * module before they render, instead of Rollup's default of one chunk per set of pages *and*
 * on-demand chunks that use it. The default cut what the first screen shares with a dialog or a
 * drawer loaded on demand into dozens of small chunks, each preloaded and compressed on its own: in
 * the side panel about 11 KB of its gzipped entry (bench/README.md#bundle-what-a-user-downloads).
 *
 * A module only loaded on demand is left to Rollup, and so is one that a single page loads (it stays
 * in that page's entry chunk). Stylesheets are left to Rollup too, so the order of the CSS does not
 * change.
 */

/** The parts of Rollup's AST read here: a module's import and export statements. */
interface AstNode {
  type: string;
  source?: { value?: unknown } | null;
  specifiers?: Specifier[];
}
interface Specifier {
  type: string;
  imported?: Identifier;
  local?: Identifier;
  exported?: Identifier;
}
type Identifier = { name?: string; value?: string };
type ModuleGraph = Pick<ManualChunkMeta, 'getModuleInfo'>;

/** Any name: a namespace import, `export *`, a bare import. */
const ALL = '*';
const nameOf = (node: Identifier | undefined) => node?.name ?? node?.value ?? ALL;
const importedName = (s: Specifier) => (s.type === 'ImportSpecifier' ? nameOf(s.imported) : s.type === 'ImportDefaultSpecifier' ? 'default' : ALL);

/**
 * A module's statements, and the id each import source resolved to. Rollup lists importedIds in the
 * order their sources first appear in the module; null when they do not match (then the caller
 * assumes the module takes everything).
 */
function statements(info: ModuleInfo): { body: AstNode[]; idOf: Map<string, string> } | null {
  const body = (info.ast as { body?: AstNode[] } | null)?.body ?? [];
  const sources = [...new Set(body.map((node) => node.source?.value).filter((s): s is string => typeof s === 'string'))];
  if (sources.length !== info.importedIds.length) return null;
  return { body, idOf: new Map(sources.map((source, i) => [source, info.importedIds[i]])) };
}

/** The names a module imports or re-exports from each module it imports (ALL: any). */
function namesTaken(info: ModuleInfo): Map<string, Set<string>> | null {
  const parsed = statements(info);
  if (!parsed) return null;
  const taken = new Map<string, Set<string>>();
  for (const node of parsed.body) {
    const id = typeof node.source?.value === 'string' ? parsed.idOf.get(node.source.value) : undefined;
    if (!id) continue;
    const names = taken.get(id) ?? new Set<string>();
    taken.set(id, names);
    const specifiers = node.specifiers ?? [];
    if (node.type === 'ExportAllDeclaration' || specifiers.length === 0) names.add(ALL);
    for (const s of specifiers) names.add(s.type === 'ExportSpecifier' ? nameOf(s.local) : importedName(s));
  }
  return taken;
}

/** Where a module's re-exported names come from: exported name → the module and the name there. */
type Origins = Map<string, { id: string; name: string }>;

/** For a module that re-exports (a package's index): where each of those names comes from; null if unknown. */
function reexportOrigins(info: ModuleInfo, graph: ModuleGraph): Origins | null {
  const parsed = statements(info);
  if (!parsed) return null;
  const idOf = (node: AstNode) => (typeof node.source?.value === 'string' ? parsed.idOf.get(node.source.value) : undefined);
  const origins: Origins = new Map();
  // `export * from`: the names the other module exports (but its default), unless named below.
  for (const node of parsed.body) {
    if (node.type !== 'ExportAllDeclaration') continue;
    const id = idOf(node);
    const names = id && !(node as { exported?: unknown }).exported ? graph.getModuleInfo(id)?.exports : null;
    if (!id || !names) return null;
    for (const name of names) if (name !== 'default') origins.set(name, { id, name });
  }
  // Imports first: an export list may come before the imports it names.
  const imported = new Map<string, { id: string; name: string }>();
  for (const node of parsed.body) {
    const id = idOf(node);
    if (node.type === 'ImportDeclaration' && id) for (const s of node.specifiers ?? []) imported.set(nameOf(s.local), { id, name: importedName(s) });
  }
  for (const node of parsed.body) {
    if (node.type !== 'ExportNamedDeclaration') continue;
    const id = idOf(node);
    for (const s of node.specifiers ?? []) {
      const origin = id ? { id, name: nameOf(s.local) } : imported.get(nameOf(s.local));
      if (origin) origins.set(nameOf(s.exported), origin);
    }
  }
  return origins;
}

export function pageChunks(): Plugin {
  let pages = false;
  let walks = new Map<string, Set<string>>();
  let namesCache = new Map<string, Map<string, Set<string>> | null>();
  let originsCache = new Map<string, Origins | null>();
  /** The walk's path (key → depth), and the lowest depth on it that the current walk ran into. */
  const path = new Map<string, number>();
  let low = Infinity;

  const cached = <T>(cache: Map<string, T>, id: string, compute: () => T) => {
    if (!cache.has(id)) cache.set(id, compute());
    return cache.get(id)!;
  };
  const names = (id: string, info: ModuleInfo) => cached(namesCache, id, () => namesTaken(info));
  const origins = (id: string, info: ModuleInfo, graph: ModuleGraph) => cached(originsCache, id, () => reexportOrigins(info, graph));

  /** A memoized step of the walk up the import graph; a result cut short by a cycle above it is not kept. */
  function walk(key: string, compute: () => Set<string>): Set<string> {
    const known = walks.get(key);
    if (known) return known;
    const onPath = path.get(key);
    if (onPath !== undefined) {
      low = Math.min(low, onPath);
      return new Set();
    }
    const depth = path.size;
    path.set(key, depth);
    const outerLow = low;
    low = Infinity;
    const result = compute();
    path.delete(key);
    if (low >= depth) walks.set(key, result);
    low = Math.min(outerLow, low);
    return result;
  }

  /** The entries that load `id` through static imports alone, before any code runs. */
  function entriesOf(graph: ModuleGraph, id: string): Set<string> {
    return walk(id, () => {
      const info = graph.getModuleInfo(id);
      const entries = new Set<string>(info?.isEntry ? [id] : []);
      for (const importer of info?.importers ?? []) {
        const importerInfo = graph.getModuleInfo(importer);
        const from = importerInfo?.isIncluded === false ? origins(importer, importerInfo, graph) : null;
        if (!from) {
          for (const entry of entriesOf(graph, importer)) entries.add(entry);
          continue;
        }
        // Dropped by tree-shaking (a package's index): it loads this module only for what it re-exports.
        for (const [exported, origin] of from) {
          if (origin.id === id) for (const entry of entriesOfExport(graph, importer, exported)) entries.add(entry);
        }
      }
      return entries;
    });
  }

  /**
   * The entries that load the binding `name` of `barrel`, a module tree-shaking dropped (its code is
   * not in the bundle): those of its importers that take that name, or re-export it in turn.
   */
  function entriesOfExport(graph: ModuleGraph, barrel: string, name: string): Set<string> {
    return walk(`${barrel}\0${name}`, () => {
      const entries = new Set<string>();
      for (const importer of graph.getModuleInfo(barrel)?.importers ?? []) {
        const info = graph.getModuleInfo(importer);
        const taken = info && names(importer, info)?.get(barrel);
        if (taken && !taken.has(name) && !taken.has(ALL) && name !== ALL) continue;
        const from = info?.isIncluded === false ? origins(importer, info, graph) : null;
        if (!from) {
          for (const entry of entriesOf(graph, importer)) entries.add(entry);
          continue;
        }
        for (const [exported, origin] of from) {
          if (origin.id !== barrel || (origin.name !== name && origin.name !== ALL && name !== ALL)) continue;
          for (const entry of entriesOfExport(graph, importer, exported)) entries.add(entry);
        }
      }
      return entries;
    });
  }

  const pageName = (entry: string) => nodePath.basename(nodePath.dirname(entry));
  return {
    name: 'tandem-page-chunks',
    apply: 'build',
    options(options) {
      const input = typeof options.input === 'object' && options.input ? Object.values(options.input) : [options.input];
      pages = input.some((file) => String(file).endsWith('.html'));
      walks = new Map();
      namesCache = new Map();
      originsCache = new Map();
      return null;
    },
    outputOptions(output) {
      if (!pages) return null;
      return {
        ...output,
        // Only the modules named here: without this Rollup adds each one's static imports to its
        // chunk, and a package's index would bring every module it lists.
        onlyExplicitManualChunks: true,
        manualChunks(id, graph) {
          // Stylesheets keep Rollup's order. A module tree-shaking dropped (a package's index) has no
          // code of its own to place.
          if (/\.css($|\?)/.test(id) || graph.getModuleInfo(id)?.isIncluded === false) return undefined;
          const entries = [...entriesOf(graph, id)].map(pageName).sort();
          return entries.length > 1 ? `pages-${entries.join('+')}` : undefined;
        },
      };
    },
  };
}
