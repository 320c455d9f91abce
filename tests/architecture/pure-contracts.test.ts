import { rollup, type Plugin as RollupPlugin } from 'rollup';
import { parseAst } from 'rollup/parseAst';
import { describe, expect, it } from 'vitest';
import { markContractDeclarationsPure, pureContracts } from '../../scripts/pure-contracts.ts';

/**
 * The pages' build marks the top-level declarations of shared/contracts pure (scripts/pure-contracts.ts),
 * so a page that uses one schema of a contract file does not ship the others.
 */

const CONTRACT = '/repo/shared/contracts/demo.ts';
const contract = [
  "import { z } from 'zod';",
  'export const LIMIT = 5;',
  "export const NAMES = ['a', 'b'];",
  'export const UsedSchema = z.object({ count: z.number().max(LIMIT) });',
  'export const UnusedSchema = z.object({ onlyInTheConsole: z.string() }), AlsoUnused = z.enum(NAMES);',
  'export const parseCount = (value) => UsedSchema.parse({ count: value });',
].join('\n');

/** The bundle of a page that uses only UsedSchema (through parseCount), with zod left outside. */
async function bundle(plugins: RollupPlugin[]): Promise<string> {
  const files: Record<string, string> = {
    '/repo/page.js': `import { parseCount } from '${CONTRACT}';\nconsole.log(parseCount(3));`,
    [CONTRACT]: contract,
  };
  const virtual: RollupPlugin = {
    name: 'virtual',
    resolveId: (id) => (id in files ? id : id === 'zod' ? { id, external: true } : null),
    load: (id) => files[id] ?? null,
  };
  const build = await rollup({ input: '/repo/page.js', plugins: [virtual, ...plugins], onwarn: () => undefined });
  const { output } = await build.generate({ format: 'es' });
  await build.close();
  return output[0].code;
}

describe('the contracts marked pure for the pages', () => {
  it('wraps each declaration built by a call, and leaves literals and functions as they are', () => {
    const marked = markContractDeclarationsPure(contract, parseAst(contract) as never)!;
    expect(marked).toContain('export const LIMIT = 5;');
    expect(marked).toContain("export const NAMES = ['a', 'b'];");
    expect(marked).toContain('export const UsedSchema = /*#__PURE__*/ (() => (z.object({ count: z.number().max(LIMIT) })))();');
    expect(marked).toContain(
      'export const UnusedSchema = /*#__PURE__*/ (() => (z.object({ onlyInTheConsole: z.string() })))(), AlsoUnused = /*#__PURE__*/ (() => (z.enum(NAMES)))();',
    );
    expect(marked).toContain('export const parseCount = (value) => UsedSchema.parse({ count: value });');
    expect(markContractDeclarationsPure('export const A = 1;', parseAst('export const A = 1;') as never)).toBeNull();
  });

  it('leaves out of a page the schemas it does not use, and keeps the ones it does', async () => {
    const page = await bundle([pureContracts() as unknown as RollupPlugin]);
    expect(page).toContain('count');
    expect(page).not.toContain('onlyInTheConsole');
    expect(page).not.toContain('z.enum');
    // Without it, building a schema counts as an effect and every schema of the file ships.
    expect(await bundle([])).toContain('onlyInTheConsole');
  });
});
