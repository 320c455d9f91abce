import type { Plugin } from 'vite';

/**
 * The pages' build keeps only the schemas of shared/contracts that a page uses (wxt.config.ts).
 *
 * A contract file is one endpoint family: the schemas of its answers, its request bodies, its admin
 * routes. A page that uses one answer's schema imported the whole file, since Rollup cannot tell that
 * building a zod schema (`z.object({...})`) has no effect besides its value: every schema of the file
 * was built and shipped, the console's too (bench/README.md#bundle-what-a-user-downloads).
 *
 * Contracts import nothing but zod and only declare (docs/architecture.md#layers-and-import-rules),
 * so each top-level declaration whose value is built by a call becomes a call marked pure of a
 * function that builds it, `/*#__PURE__*\/ (() => (value))()`: evaluated at the same place, in the
 * same order, to the same value, and left out when nothing the page runs reads it.
 *
 * No source map is made for the change (map: null): lines stay where they were, and on a line with an
 * insertion the columns after it are off by its length.
 */

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const CONTRACT = /\/shared\/contracts\/[^/]+\.ts$/;
const OPEN = '/*#__PURE__*/ (() => (';
const CLOSE = '))()';

/** Whether building the value calls something (a literal, a function or an arrow needs no marking). */
function callsWhenEvaluated(node: Node): boolean {
  if (/Function/.test(node.type)) return false;
  let found = false;
  const visit = (value: unknown): void => {
    if (found || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach(visit);
    const child = value as Node;
    if (child.type === 'CallExpression' || child.type === 'NewExpression' || child.type === 'TaggedTemplateExpression') found = true;
    else for (const [key, inner] of Object.entries(child)) if (key !== 'parent') visit(inner);
  };
  visit(node);
  return found;
}

/** The code with each top-level declaration built by a call wrapped as a pure call; null when there is none. */
export function markContractDeclarationsPure(code: string, program: { body: Node[] }): string | null {
  const insertions: { at: number; text: string }[] = [];
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement;
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations as { init: Node | null }[]) {
      if (!declarator.init || !callsWhenEvaluated(declarator.init)) continue;
      insertions.push({ at: declarator.init.start, text: OPEN }, { at: declarator.init.end, text: CLOSE });
    }
  }
  if (insertions.length === 0) return null;
  let out = '';
  let from = 0;
  for (const { at, text } of insertions) {
    out += code.slice(from, at) + text;
    from = at;
  }
  return out + code.slice(from);
}

export function pureContracts(): Plugin {
  return {
    name: 'tandem-pure-contracts',
    apply: 'build',
    // After TypeScript has been turned into JavaScript.
    enforce: 'post',
    transform(code, id) {
      if (!CONTRACT.test(id.split('?')[0])) return null;
      const marked = markContractDeclarationsPure(code, this.parse(code) as unknown as { body: Node[] });
      return marked === null ? null : { code: marked, map: null };
    },
  };
}
