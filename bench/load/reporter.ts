// Loaded into the Tandem server under test with `node --import ./bench/load/reporter.ts` (nothing in
// the server knows of it): measures the server's event-loop delay (monitorEventLoopDelay) and serves
// it with the process's memory on BENCH_REPORT_PORT, for bench/load. GET /?reset=1 starts a new
// delay window; GET /?gc=1 collects garbage first (the server runs with --expose-gc), so heap figures
// compare live data, not what the collector has not reached yet.
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

// The histogram records the time between two samples, i.e. the resolution plus the delay: the
// resolution is taken off what is reported.
const RESOLUTION_MS = 2;
const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
delay.enable();
const ms = (ns: number) => Math.max(0, Math.round(ns / 1e4 - RESOLUTION_MS * 100) / 100);

const server = createServer((req, res) => {
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (query.has('gc') && gc) gc();
  const memory = process.memoryUsage();
  const body = {
    rssMB: Math.round(memory.rss / 2 ** 20),
    heapUsedMB: Math.round(memory.heapUsed / 2 ** 20),
    externalMB: Math.round(memory.external / 2 ** 20),
    delayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max), mean: ms(delay.mean) },
  };
  if (query.has('reset')) delay.reset();
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
});
server.listen(Number(process.env.BENCH_REPORT_PORT), '127.0.0.1');
server.unref();
