/**
 * What the browser benchmarks share (bench/selection, bench/translate): Chromium with the built
 * extension, as the end-to-end tests launch it (tests/e2e/harness.ts), and the percentiles they print.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchWithExtension, type ExtensionBrowser } from '../tests/e2e/harness.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A numeric command-line option (`--runs 20`). */
export function numberArg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

/**
 * Chromium with the extension. A build given in BENCH_EXTENSION_DIR is used as it is; else .output is
 * brought up to date and copied at once, so a rebuild of .output during the minutes of the runs cannot
 * pull the extension from under them.
 */
export async function launchBenchExtension(name: string): Promise<ExtensionBrowser> {
  let dir = process.env.BENCH_EXTENSION_DIR;
  let copy: string | undefined;
  if (!dir) {
    const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-extension-build.ts'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
    copy = mkdtempSync(path.join(os.tmpdir(), `tandem-bench-${name}-`));
    dir = path.join(copy, 'extension');
    cpSync(path.join(root, '.output', 'chrome-mv3'), dir, { recursive: true });
  }
  const ext = await launchWithExtension('en-US', dir);
  return {
    ...ext,
    async close() {
      await ext.close();
      if (copy) rmSync(copy, { recursive: true, force: true });
    },
  };
}

/** The nearest-rank percentile: the value below which `p` % of the runs fall (p95 of 20 runs is the 19th). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
