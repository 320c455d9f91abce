/**
 * A fixed, long model answer (about 60 KB) with what answers contain: prose, lists, code in several
 * languages, inline and display math, a table. Built from templates with numbered variations so every
 * run streams exactly the same text.
 */
function section(n: number): string {
  const ts = [
    '```ts',
    `interface Job${n} {`,
    '  id: string;',
    '  attempts: number;',
    '  payload: Record<string, unknown>;',
    '}',
    '',
    `export async function runJob${n}(job: Job${n}, signal: AbortSignal): Promise<number> {`,
    '  let delay = 500;',
    '  for (let attempt = 0; attempt < job.attempts; attempt++) {',
    '    if (signal.aborted) throw new Error(`job ${job.id} aborted`);',
    '    const response = await fetch(`/api/jobs/${job.id}`, { method: "POST", signal });',
    '    if (response.ok) return response.status;',
    `    await new Promise((resolve) => setTimeout(resolve, delay * ${n % 3 + 1}));`,
    '    delay *= 2;',
    '  }',
    '  return -1;',
    '}',
    '```',
  ].join('\n');
  const py = [
    '```python',
    `def moving_average_${n}(values: list[float], window: int = ${(n % 5) + 2}) -> list[float]:`,
    '    """Average of each run of `window` values, as a list."""',
    '    if window <= 0:',
    '        raise ValueError("window must be positive")',
    '    total = sum(values[:window])',
    '    result = [total / window]',
    '    for i in range(window, len(values)):',
    '        total += values[i] - values[i - window]',
    '        result.append(total / window)',
    '    return result',
    '',
    `print(moving_average_${n}([1.0, 2.5, 3.5, 4.0, 6.5, 7.0]))`,
    '```',
  ].join('\n');
  const bash = [
    '```bash',
    `export RELEASE=v${n}.$((RANDOM % 10))`,
    'npm ci && npm run build',
    `tar -czf "release-${n}.tgz" .output/ && sha256sum "release-${n}.tgz"`,
    'for host in alpha beta gamma; do',
    `  scp "release-${n}.tgz" "deploy@$host:/srv/app/" || echo "copy to $host failed"`,
    'done',
    '```',
  ].join('\n');
  const prose =
    `In step ${n}, the service keeps a queue of pending jobs and works through them in order. Each job ` +
    'is retried with an exponential back-off, which keeps a failing upstream from being flooded while ' +
    'still recovering quickly once it is back. The delay doubles after each attempt, so the total wait ' +
    `after $k$ attempts is $d \\cdot (2^k - 1)$ for a base delay $d$; with $d = ${n % 4 + 1}$ seconds and ` +
    `$k = 5$ that is $${(n % 4 + 1) * 31}$ seconds. A price of $5 per thousand calls and $12 for the ` +
    'premium tier stays plain text, as any currency should.';
  const list = [
    `- **Queue ${n}**: jobs are stored with an id, a payload and a retry budget.`,
    '- **Workers**: each worker takes the oldest job, runs it, and records the outcome.',
    '  - Successful jobs are removed from the queue.',
    '  - Failed jobs go back with `attempts - 1` and a later due time.',
    `- **Metrics**: the p95 latency over the last ${n * 10} jobs is exported every minute.`,
    '',
    `1. Read the configuration from \`config-${n}.yaml\`.`,
    '2. Open the database connection and run pending migrations.',
    '3. Start the workers and the HTTP listener; see [the docs](https://example.com/docs) for details.',
  ].join('\n');
  const math = [
    'The variance of the measured latencies follows the usual estimator:',
    '',
    '$$',
    `\\sigma^2_{${n}} = \\frac{1}{n - 1} \\sum_{i=1}^{n} \\left(x_i - \\bar{x}\\right)^2`,
    '$$',
    '',
    `and the bracket forms work too: \\(e^{i\\pi} + 1 = 0\\) inline, and as a display`,
    '',
    `\\[ \\int_0^{${n}} t^2 \\, dt = \\frac{${n}^3}{3} \\]`,
  ].join('\n');
  const table = [
    '| Tier | Requests per minute | Price |',
    '| --- | ---: | ---: |',
    `| Free | ${20 + n} | 0 |`,
    `| Standard | ${200 + n * 2} | 9.90 |`,
    `| Advanced | ${1000 + n * 5} | 29.90 |`,
  ].join('\n');
  const quote = `> Note ${n}: keep the retry budget small for user-facing calls; background jobs can afford more.`;
  return [`## Part ${n}: queue worker`, prose, list, ts, math, py, table, quote, bash].join('\n\n');
}

/** `firstPart` varies the numbers, so a warm-up answer shares the shapes but not the cached blocks. */
export function buildFixture(targetBytes: number, firstPart = 1): string {
  const parts = ['# Building a reliable job queue', 'Here is a complete walk-through, part by part.'];
  let size = parts.join('\n\n').length;
  for (let n = firstPart; size < targetBytes; n++) {
    const next = section(n);
    parts.push(next);
    size += next.length + 2;
  }
  parts.push('That covers the whole design. Tell me if you want any part in more detail.');
  return parts.join('\n\n');
}

export const STREAM_FIXTURE = buildFixture(60_000);
