/**
 * What a user downloads: the JavaScript each page of the extension needs before it can render (its
 * entry script and the chunks the HTML preloads, gzipped as a server would send them), the rest that
 * loads on demand, and the store packages. Builds first when the build is missing or stale (as
 * `npm start` does). Targets (issue 3): side panel entry ≤ 250 KB gzipped, zip ≤ 3 MB, no .wasm.
 *
 *   node --import tsx bench/bundle.ts
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { findExtensionZip } from '../server/services/extension-zip.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.join(root, '.output');
const buildDir = path.join(outDir, 'chrome-mv3');

const ENTRY_TARGET = 250 * 1024;
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
function entryScripts(page: string): string[] {
  const html = readFileSync(path.join(buildDir, page), 'utf8');
  const refs = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)].map((m) => m[1]);
  return [...new Set(refs)].map((ref) => path.join(buildDir, ref.replace(/^\//, '')));
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
    'code grammars, KaTeX, the markdown renderer, settings)',
);

console.log('\nBiggest side panel entry chunks:');
for (const file of [...sidePanelEntry].sort((a, b) => gzipped(b) - gzipped(a)).slice(0, 5)) {
  console.log(`  ${path.relative(buildDir, file).padEnd(44)} ${kb(statSync(file).size).padStart(10)} raw ${kb(gzipped(file)).padStart(10)} gz`);
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

const sidePanel = entries.get('sidepanel.html')!;
const largestZip = Math.max(...zips.map((z) => z.size));
const wasmCount = zips.reduce((sum, z) => sum + z.wasm.length, 0);
console.log('\nAgainst the targets (ratio = measured / target; ≤ 1.00 meets it):');
console.log(`  side panel entry  ${kb(sidePanel).padStart(10)} / ${kb(ENTRY_TARGET)}  = ${(sidePanel / ENTRY_TARGET).toFixed(2)}`);
console.log(`  largest zip       ${kb(largestZip).padStart(10)} / ${kb(ZIP_TARGET)} = ${(largestZip / ZIP_TARGET).toFixed(2)}`);
console.log(`  .wasm in packages ${String(wasmCount).padStart(10)} (target 0)`);
