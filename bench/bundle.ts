/**
 * What a user downloads: the JavaScript each page of the extension needs before it can render (its
 * entry script and the chunks the HTML preloads, gzipped as a server would send them), the rest that
 * loads on demand, and the store packages. Builds first when the build is missing or stale (as
 * `npm start` does). Targets (issue 3): side panel entry ≤ 250 KB gzipped, zip ≤ 3 MB, no .wasm; (issue 11) the selection content script ≤ 15 KB gzipped.
 *
 *   node --import tsx bench/bundle.ts                   # the figures
 *   node --import tsx bench/bundle.ts --check           # the same, then exits 1 when a target is missed (CI)
 *   node --import tsx bench/bundle.ts --why [page.html] [--top N] # what the page's entry is made of, by package and file (N rows, 40 by default)
 *
 * --why builds once more with source maps, into .output/why (the build served and zipped is left
 * alone), and shares each entry chunk's gzipped size among the source files its bytes come from.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { findExtensionZip } from '../server/services/system/extension-zip.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.join(root, '.output');
const args = process.argv.slice(2);
const check = args.includes('--check');
const why = args.includes('--why') ? (args.find((arg) => arg.endsWith('.html')) ?? 'sidepanel.html') : null;
const top = args.includes('--top') ? Number(args[args.indexOf('--top') + 1]) || 40 : 40;
const buildDir = path.join(outDir, why ? 'why' : '', 'chrome-mv3');

const ENTRY_TARGET = 250 * 1024;
/** The selection toolbar's content script runs on every page the user opens (issue 11). */
const CONTENT_SCRIPT_TARGET = 15 * 1024;
const SELECTION_SCRIPT = path.join('content-scripts', 'selection.js');
const ZIP_TARGET = 3 * 1024 * 1024;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gzippedSizes = new Map<string, number>();
/** Each file is compressed once, however often the report needs its size. */
function gzipped(file: string): number {
  let size = gzippedSizes.get(file);
  if (size === undefined) gzippedSizes.set(file, (size = gzipSync(readFileSync(file), { level: 9 }).length));
  return size;
}

/** The scripts a page loads before it runs: its module entry and every modulepreload. */
function entryScripts(page: string, dir = buildDir): string[] {
  const html = readFileSync(path.join(dir, page), 'utf8');
  const refs = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)].map((m) => m[1]);
  return [...new Set(refs)].map((ref) => path.join(dir, ref.replace(/^\//, '')));
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? allFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

/** Names of the files in a zip, from its central directory. */
function zipEntries(file: string): string[] {
  const zip = readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${file} is not a zip`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return names;
}

/** A package (npm:name) or a file of the repository, for a source map's source path. */
function origin(source: string, chunk: string): string {
  const file = path.relative(root, path.resolve(path.dirname(chunk), source));
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  return pkg ? `npm:${pkg[1]}` : file;
}

/** Bytes without a mapping beyond which a run is counted as unmapped rather than as the last mapped file's. */
const UNMAPPED_RUN = 2000;
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A source map's segments as [line, column, source index], read from its base64 VLQ mappings. */
function* segments(mappings: string): Generator<[number, number, number]> {
  let source = 0;
  for (const [line, text] of mappings.split(';').entries()) {
    let column = 0;
    for (const segment of text.split(',')) {
      if (!segment) continue;
      const fields: number[] = [];
      for (let i = 0, value = 0, shift = 0; i < segment.length; i++) {
        const digit = BASE64.indexOf(segment[i]);
        value += (digit & 31) << shift;
        shift += 5;
        if (digit & 32) continue;
        fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = shift = 0;
      }
      column += fields[0];
      if (fields.length > 1) source += fields[1];
      yield [line, column, fields.length > 1 ? source : -1];
    }
  }
}

/** Each chunk's gzipped size shared among the sources of its bytes, in proportion to their bytes. */
function attribute(files: string[]): Map<string, number> {
  const shares = new Map<string, number>();
  for (const file of files) {
    const code = readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '');
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[]; mappings: string };
    const lineStarts = [0];
    for (let i = code.indexOf('\n'); i >= 0; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    const bytes = new Map<string, number>();
    let last: { at: number; source: string } | null = null;
    for (const [line, column, source] of [...segments(map.mappings), [lineStarts.length - 1, Infinity, -1] as const]) {
      const at = Math.min(lineStarts[line] + column, code.length);
      // A long run without a mapping is code without a source map (JSON: the English catalogue).
      const owner = last && at - last.at > UNMAPPED_RUN ? '(no source map: JSON, e.g. locales/en.json)' : last?.source;
      if (last && owner) bytes.set(owner, (bytes.get(owner) ?? 0) + at - last.at);
      last = { at, source: source >= 0 ? origin(map.sources[source], file) : '(no source)' };
    }
    const total = [...bytes.values()].reduce((sum, n) => sum + n, 0) || 1;
    const gz = gzipSync(code, { level: 9 }).length;
    for (const [source, n] of bytes) shares.set(source, (shares.get(source) ?? 0) + (gz * n) / total);
  }
  return shares;
}

/** --why: a build with source maps into .output/why, and what the page's entry JavaScript is made of. */
async function explain(page: string): Promise<void> {
  process.env.NODE_ENV = 'production';
  const { build } = await import('wxt');
  await build({ outDir: path.dirname(buildDir), vite: () => ({ build: { sourcemap: true } }) });
  const files = entryScripts(page);
  const shares = [...attribute(files)].sort((a, b) => b[1] - a[1]);
  const total = shares.reduce((sum, [, n]) => sum + n, 0);
  console.log(`\n${page}: ${kb(total)} gzipped in ${files.length} files (each chunk's size shared by its sources' bytes):`);
  for (const [source, n] of shares.slice(0, top)) console.log(`  ${kb(n).padStart(9)}  ${source}`);
  const rest = shares.slice(top).reduce((sum, [, n]) => sum + n, 0);
  if (rest > 0) console.log(`  ${kb(rest).padStart(9)}  ${shares.length - top} more`);
}

if (why) {
  await explain(why);
  process.exit(0);
}

const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-extension-build.ts'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

console.log('\nEntry JavaScript per page (loaded before the page renders), gzipped -9:');
const entries = new Map<string, number>();
for (const page of ['sidepanel.html', 'popup.html', 'app.html', 'login.html']) {
  const files = entryScripts(page);
  const total = files.reduce((sum, file) => sum + gzipped(file), 0);
  entries.set(page, total);
  console.log(`  ${page.padEnd(16)} ${kb(total).padStart(10)} in ${files.length} files`);
}

const js = allFiles(buildDir).filter((file) => file.endsWith('.js'));
const sidePanelEntry = new Set(entryScripts('sidepanel.html'));
const onDemand = js.filter((file) => !sidePanelEntry.has(file) && !/background|content-scripts/.test(file));
console.log(
  `  (loaded on demand by the pages: ${onDemand.length} chunks, ${kb(onDemand.reduce((sum, file) => sum + gzipped(file), 0))} gzipped: ` +
    'code grammars, KaTeX, the markdown renderer, settings, dialogs and drawers, the history sidebar, toasts)',
);

console.log('\nBiggest side panel entry chunks:');
for (const file of [...sidePanelEntry].sort((a, b) => gzipped(b) - gzipped(a)).slice(0, 5)) {
  console.log(`  ${path.relative(buildDir, file).padEnd(64)} ${kb(statSync(file).size).padStart(10)} raw ${kb(gzipped(file)).padStart(10)} gz`);
}

console.log('\nPackages:');
const zips: { browser: string; file: string; size: number; wasm: string[] }[] = [];
for (const browser of ['chrome', 'edge'] as const) {
  const zip = await findExtensionZip(outDir, browser);
  if (!zip) throw new Error(`no ${browser} zip in ${outDir}`);
  const wasm = zipEntries(zip.file).filter((name) => name.endsWith('.wasm'));
  const size = statSync(zip.file).size;
  zips.push({ browser, file: zip.file, size, wasm });
  console.log(`  ${path.basename(zip.file).padEnd(30)} ${kb(size).padStart(10)}, .wasm files: ${wasm.length}`);
}

const selectionScript = gzipped(path.join(buildDir, SELECTION_SCRIPT));
console.log(`\nContent script on every page: ${SELECTION_SCRIPT} ${kb(selectionScript)} gzipped`);

const sidePanel = entries.get('sidepanel.html')!;
const largestZip = Math.max(...zips.map((z) => z.size));
const wasmCount = zips.reduce((sum, z) => sum + z.wasm.length, 0);
console.log('\nAgainst the targets (ratio = measured / target; ≤ 1.00 meets it):');
console.log(`  side panel entry  ${kb(sidePanel).padStart(10)} / ${kb(ENTRY_TARGET)}  = ${(sidePanel / ENTRY_TARGET).toFixed(2)}`);
console.log(`  largest zip       ${kb(largestZip).padStart(10)} / ${kb(ZIP_TARGET)} = ${(largestZip / ZIP_TARGET).toFixed(2)}`);
console.log(`  .wasm in packages ${String(wasmCount).padStart(10)} (target 0)`);
console.log(`  selection script  ${kb(selectionScript).padStart(10)} / ${kb(CONTENT_SCRIPT_TARGET)}  = ${(selectionScript / CONTENT_SCRIPT_TARGET).toFixed(2)}`);

if (check) {
  const failures = [
    sidePanel > ENTRY_TARGET &&
      `the side panel's entry JavaScript is ${kb(sidePanel)} gzipped, over the ${kb(ENTRY_TARGET)} target: ` +
        'load what its first screen does not show on demand (see `node --import tsx bench/bundle.ts --why`)',
    selectionScript > CONTENT_SCRIPT_TARGET &&
      `the selection content script (on every page) is ${kb(selectionScript)} gzipped, over the ${kb(CONTENT_SCRIPT_TARGET)} target: ` +
        'keep it plain DOM (entrypoints/selection.content), without zod, React or i18next',
    ...zips.filter((z) => z.size > ZIP_TARGET).map((z) => `${path.basename(z.file)} is ${kb(z.size)}, over the ${kb(ZIP_TARGET)} target`),
    ...zips.filter((z) => z.wasm.length > 0).map((z) => `${path.basename(z.file)} packages .wasm files: ${z.wasm.join(', ')}`),
  ].filter((failure): failure is string => typeof failure === 'string');
  if (failures.length > 0) {
    console.error(`\nBundle check failed:\n${failures.map((failure) => `  - ${failure}`).join('\n')}`);
    process.exit(1);
  }
  console.log('\nBundle check passed: every target is met.');
}
