import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No import cycle (docs/architecture.md#layers-and-import-rules): a cycle makes load order matter
 * (a module reads a binding its partner has not set yet) and makes two files one unit that neither
 * folder owns. The graph is every relative import of the code's folders, static, re-exported and
 * dynamic, type-only ones included (a type cycle is the same tangle to a reader), resolved as the
 * project's tsconfig resolves them. Each cycle is printed as the files around it.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = ['server', 'shared', 'components', 'entrypoints', 'admin'];
const CODE = /\.(ts|tsx|mts|mjs)$/;

const { config } = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);

function filesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'migrations' ? [] : filesUnder(p);
    return CODE.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The module specifiers a file names: import/export … from, import x = require, import(), require(). */
export function specifiersOf(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The graph of relative imports among `files` (absolute paths), as the project resolves them. */
export function importGraph(files: string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): Map<string, string[]> {
  const inGraph = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const spec of specifiersOf(file, read(file))) {
      if (!spec.startsWith('.')) continue;
      const resolved = ts.resolveModuleName(spec, file, options, ts.sys).resolvedModule?.resolvedFileName;
      const target = resolved ? path.normalize(resolved) : path.resolve(path.dirname(file), spec);
      if (inGraph.has(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Every strongly connected component of more than one file (or a file importing itself): Tarjan's algorithm. */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const strongConnect = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) !== indexOf.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) strongConnect(v);
  return cycles;
}

const relative = (cycle: string[]) => cycle.map((f) => path.relative(root, f).split(path.sep).join('/')).join(' <-> ');

describe('the import graph', () => {
  it('finds a planted cycle, through a dynamic import and a type-only one too', () => {
    const dir = path.join(root, 'server/services/chat');
    const a = path.join(dir, 'planted-a.ts');
    const b = path.join(dir, 'planted-b.ts');
    const c = path.join(dir, 'planted-c.ts');
    const d = path.join(dir, 'planted-d.ts');
    const texts: Record<string, string> = {
      [a]: "import { b } from './planted-b.ts';\nexport const a = () => b;",
      [b]: "export const b = () => import('./planted-a.ts');",
      [c]: "import type { D } from './planted-d.ts';\nexport type C = D;",
      [d]: "export type { C as D } from './planted-c.ts';",
    };
    const cycles = cyclesOf(importGraph([a, b, c, d], (f) => texts[f])).map(relative);
    expect(cycles.sort()).toEqual([
      'server/services/chat/planted-a.ts <-> server/services/chat/planted-b.ts',
      'server/services/chat/planted-c.ts <-> server/services/chat/planted-d.ts',
    ]);
  });

  const cycles = () => {
    const files = FOLDERS.flatMap((f) => filesUnder(path.join(root, f)));
    expect(files.length).toBeGreaterThan(300);
    return cyclesOf(importGraph(files)).map(relative);
  };

  it('has no cycle in server/ or shared/', () => {
    expect(cycles().filter((c) => /^(server|shared)\//.test(c))).toEqual([]);
  });

  it('has no cycle in components/, entrypoints/ or admin/', () => {
    expect(cycles()).toEqual([]);
  });
});
