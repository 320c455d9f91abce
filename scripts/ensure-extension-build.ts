/**
 * Run by `npm start` before the server: builds the extension (which is also the hosted web app) and
 * its Chrome, Edge and Firefox zips when they are missing or older than their sources, so a fresh clone
 * serves the web app, /login and /downloads/* on its first start. Fresh builds are left alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findExtensionZip } from '../server/services/extension-zip.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.join(root, '.output');
const manifest = path.join(outDir, 'chrome-mv3', 'manifest.json');
const wxtBin = path.join(root, 'node_modules', 'wxt', 'bin', 'wxt.mjs');

/** What the build is made from; entrypoints are discovered by WXT, so folders, not a file list. */
const SOURCES = ['entrypoints', 'components', 'shared', 'locales', 'public', 'assets', 'docs/help', 'wxt.config.ts', 'scripts/page-chunks.ts', 'package.json'];

/** Newest modification time under p (0 when it does not exist). */
function newestMtime(p: string): number {
  let s;
  try {
    s = statSync(p);
  } catch {
    return 0;
  }
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = s.mtimeMs; // a deleted file shows as a newer folder
  for (const entry of readdirSync(p, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry.name)));
  }
  return newest;
}

const mtime = (p: string | undefined) => (p && existsSync(p) ? statSync(p).mtimeMs : 0);

function wxt(args: string[]) {
  console.log(`> wxt ${args.join(' ')}`);
  // A production build whoever calls this: under Vitest (the e2e setup) NODE_ENV is 'test', which
  // would otherwise give React's development build.
  const result = spawnSync(process.execPath, [wxtBin, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    console.error(`The extension build failed (wxt ${args.join(' ')}). Fix the error above, then run npm start again.`);
    process.exit(result.status ?? 1);
  }
}

async function main() {
  if (process.env.WEB_DIR?.trim()) {
    console.log(`WEB_DIR is set (${process.env.WEB_DIR}): serving that build, not building the extension.`);
    return;
  }
  const sourcesTime = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
  const outputs = {
    build: manifest,
    'Chrome zip': (await findExtensionZip(outDir, 'chrome'))?.file,
    'Edge zip': (await findExtensionZip(outDir, 'edge'))?.file,
    'Firefox zip': (await findExtensionZip(outDir, 'firefox'))?.file,
  };
  const stale = Object.entries(outputs)
    .filter(([, file]) => mtime(file) < sourcesTime)
    .map(([name, file]) => (file && existsSync(file) ? `${name} out of date` : `${name} missing`));
  if (stale.length === 0) {
    console.log('Extension build is up to date: skipping the build.');
    return;
  }
  if (!existsSync(wxtBin)) {
    // A production install without dev dependencies: serve whatever build is there.
    console.warn(`Extension build: ${stale.join(', ')}, but WXT is not installed (npm ci installs it); starting without rebuilding.`);
    return;
  }
  console.log(`Building the extension and web app (${stale.join(', ')})...`);
  // `wxt zip` builds, then zips: one build per browser, no separate `wxt build`.
  wxt(['zip']);
  wxt(['zip', '-b', 'edge']);
  // Firefox: the same code as Manifest V3 (its sidebar instead of the side panel: wxt.config.ts).
  wxt(['zip', '-b', 'firefox', '--mv3']);
}

await main();
