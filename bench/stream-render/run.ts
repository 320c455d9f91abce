/**
 * Streams a fixed 60 KB answer into MarkdownView in Chromium, 50 characters per update, and compares
 * the block cache ('incremental') with rendering the whole text on every update ('naive').
 *
 *   node --import tsx bench/stream-render/run.ts
 *
 * Needs Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import type { Page } from 'puppeteer-core';
import { build, preview } from 'vite';
import type { Mode, RunResult } from './page.tsx';

const here = fileURLToPath(new URL('.', import.meta.url));
const configFile = join(here, 'vite.config.ts');
const TARGETS = { p95Ms: 4, lastFirst: 2, longTaskMs: 50, naiveRatio: 10 };
/** Updates averaged at each end for the last/first ratio: one update alone is mostly timer noise. */
const EDGE = 10;

interface Figures {
  updates: number;
  p95: number;
  renderP95: number;
  max: number;
  lastFirst: number;
  longestTask: number;
  updateMs: number;
  taskMs: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

async function measure(page: Page, mode: Mode): Promise<Figures> {
  const started = Date.now();
  const before = await page.metrics();
  const result: RunResult = await page.evaluate((m) => window.__bench.run(m), mode);
  const after = await page.metrics();
  const { updates, renders, longTasks } = result;
  console.error(`${mode}: ${((Date.now() - started) / 1000).toFixed(1)} s wall clock`);
  return {
    updates: updates.length,
    p95: percentile(updates, 95),
    renderP95: percentile(renders, 95),
    max: Math.max(...updates),
    lastFirst: mean(updates.slice(-EDGE)) / mean(updates.slice(0, EDGE)),
    longestTask: longTasks.length ? Math.max(...longTasks) : 0,
    updateMs: updates.reduce((a, b) => a + b, 0),
    // Everything the renderer's main thread did during the run: script, style, layout, paint.
    taskMs: ((after.TaskDuration ?? 0) - (before.TaskDuration ?? 0)) * 1000,
  };
}

await build({ configFile });
const server = await preview({ configFile, preview: { port: 0, host: '127.0.0.1', strictPort: false } });
const url = server.resolvedUrls?.local[0];
if (!url) throw new Error('vite preview did not report a URL');

/** Prints both runs side by side, with the targets. */
function compare(incremental: Figures, naive: Figures): void {
  const fmt = (n: number) => n.toFixed(2);
  const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  console.log(`stream-render: ${incremental.updates} updates of 50 characters`);
  console.log('                              incremental      naive');
  console.log(`p95 per update (ms)        ${fmt(incremental.p95).padStart(13)} ${fmt(naive.p95).padStart(10)}`);
  console.log(`  of which render (p95)    ${fmt(incremental.renderP95).padStart(13)} ${fmt(naive.renderP95).padStart(10)}`);
  console.log(`max per update (ms)        ${fmt(incremental.max).padStart(13)} ${fmt(naive.max).padStart(10)}`);
  console.log(`last/first update cost     ${fmt(incremental.lastFirst).padStart(13)} ${fmt(naive.lastFirst).padStart(10)}`);
  console.log(`longest long task (ms)     ${fmt(incremental.longestTask).padStart(13)} ${fmt(naive.longestTask).padStart(10)}`);
  console.log(`sum of updates (ms)        ${fmt(incremental.updateMs).padStart(13)} ${fmt(naive.updateMs).padStart(10)}`);
  console.log(`main-thread task time (ms) ${fmt(incremental.taskMs).padStart(13)} ${fmt(naive.taskMs).padStart(10)}`);
  const updateRatio = naive.updateMs / incremental.updateMs;
  const taskRatio = naive.taskMs / incremental.taskMs;
  console.log(`naive / incremental: ${fmt(updateRatio)}x update time, ${fmt(taskRatio)}x main-thread task time`);
  console.log('targets (incremental):');
  console.log(`  p95 <= ${TARGETS.p95Ms} ms: ${verdict(incremental.p95 <= TARGETS.p95Ms)}`);
  console.log(`  last/first <= ${TARGETS.lastFirst} (mean of ${EDGE} each end): ${verdict(incremental.lastFirst <= TARGETS.lastFirst)}`);
  console.log(`  no task over ${TARGETS.longTaskMs} ms: ${verdict(incremental.longestTask <= TARGETS.longTaskMs)}`);
  console.log(`  >= ${TARGETS.naiveRatio}x less main-thread time than naive: ${verdict(taskRatio >= TARGETS.naiveRatio)}`);
}

const profile = mkdtempSync(join(tmpdir(), 'stream-render-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  userDataDir: profile,
  // The naive run re-renders 60 KB a thousand times: minutes, beyond puppeteer's default 3-minute call limit.
  protocolTimeout: 15 * 60_000,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  /**
   * Each mode in a page of its own, so neither inherits the other's heap (the naive run leaves
   * gigabytes of garbage behind). A warm-up pass on another answer first: JIT-compiled code, KaTeX
   * fonts and shiki grammars are loaded, as in a chat that has shown answers before, but no block of
   * this answer is cached.
   */
  const runInFreshPage = async (mode: Mode): Promise<Figures> => {
    const page = await browser.newPage();
    page.on('pageerror', (error) => console.error('page error:', error));
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => typeof window.__bench?.run === 'function');
    await page.evaluate(() => window.__bench.run('warmup'));
    const figures = await measure(page, mode);
    await page.close();
    return figures;
  };
  const incremental = await runInFreshPage('incremental');
  // `--incremental-only`: quick reruns while working on the renderer; the baseline and the ratio need the full run.
  if (process.argv.includes('--incremental-only')) {
    console.log(
      `incremental only: p95 ${incremental.p95.toFixed(2)} ms (render ${incremental.renderP95.toFixed(2)}), ` +
        `last/first ${incremental.lastFirst.toFixed(2)}, longest task ${incremental.longestTask.toFixed(0)} ms`,
    );
  } else {
    compare(incremental, await runInFreshPage('naive'));
  }
} finally {
  await browser.close();
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  rmSync(profile, { recursive: true, force: true });
}
