/**
 * Run by `npm start` before the server: builds the extension (which is also the hosted web app) and
 * its Chrome, Edge and Firefox zips when they are missing or older than their sources, so a fresh clone
 * serves the web app, /login and /downloads/* on its first start; then the operator's console
 * (/admin, a Vite build of its own into .output/admin). Fresh builds are left alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findExtensionZip } from '../server/services/system/extension-zip.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.join(root, '.output');
const manifest = path.join(outDir, 'chrome-mv3', 'manifest.json');
const wxtBin = path.join(root, 'node_modules', 'wxt', 'bin', 'wxt.mjs');
const viteBin = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
/** The operator's console (/admin): its own Vite build, not part of the extension (admin.vite.config.ts). */
const adminIndex = path.join(outDir, 'admin', 'index.html');
const ADMIN_SOURCES = ['admin', 'components', 'shared', 'locales', 'admin.vite.config.ts', 'package.json'];

/** What the build is made from; entrypoints are discovered by WXT, so folders, not a file list. */
const SOURCES = ['entrypoints', 'components', 'shared', 'locales', 'public', 'assets', 'docs/help', 'wxt.config.ts', 'scripts/page-chunks.ts', 'scripts/pure-contracts.ts', 'package.json'];

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

/** Builds the console when its page is missing or older than its sources. */
function ensureAdminBuild(): void {
  const sourcesTime = Math.max(...ADMIN_SOURCES.map((s) => newestMtime(path.join(root, s))));
  if (mtime(adminIndex) >= sourcesTime) {
    console.log('Admin console build is up to date: skipping it.');
    return;
  }
  if (!existsSync(viteBin)) {
    console.warn('Admin console build is missing or out of date, but Vite is not installed (npm ci installs it); starting without it.');
    return;
  }
  console.log('Building the admin console...');
  const result = spawnSync(process.execPath, [viteBin, 'build', '--config', 'admin.vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    console.error('The admin console build failed (vite build --config admin.vite.config.ts). Fix the error above, then run npm start again.');
    process.exit(result.status ?? 1);
  }
}

async function ensureExtensionBuild() {
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

async function main() {
  if (process.env.WEB_DIR?.trim()) {
    console.log(`WEB_DIR is set (${process.env.WEB_DIR}): serving that build (and the admin console beside it), not building.`);
    return;
  }
  await ensureExtensionBuild();
  ensureAdminBuild();
}

await main();
