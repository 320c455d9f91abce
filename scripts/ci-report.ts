/**
 * Printed at the end of `.ci/run`, whether it passed or not: where the run's time went. Reads the
 * phases .ci/run recorded (phases.tsv: name, start and end in seconds, exit status) and the JSON
 * report each test phase wrote (vitest's json reporter, <phase>.json), all in the folder given.
 * Prints each phase's time, result and test counts, the 15 slowest test files, and the tests that
 * ran in no phase (skipped wherever they appeared); writes accounting.tsv there: for each test file,
 * how many of its tests passed in each phase.
 *
 *   node --import tsx scripts/ci-report.ts .ci/reports
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

type Assertion = { fullName: string; status: string; duration?: number | null };
type FileResult = { name: string; startTime: number; endTime: number; assertionResults: Assertion[] };
type Report = { numTotalTests: number; numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number; testResults: FileResult[] };
type Phase = { name: string; start: number; end: number; status: number; report?: Report };

const dir = process.argv[2] ?? '.ci/reports';
const root = process.cwd();

function readPhases(): Phase[] {
  const file = path.join(dir, 'phases.tsv');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name, start, end, status] = line.split('\t');
      const json = path.join(dir, `${name}.json`);
      const report = existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as Report) : undefined;
      return { name: name!, start: Number(start), end: Number(end), status: Number(status), report };
    });
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;
const pad = (s: string | number, n: number) => String(s).padEnd(n);
const padLeft = (s: string | number, n: number) => String(s).padStart(n);
const relative = (file: string) => path.relative(root, file);

function printPhases(phases: Phase[]): void {
  console.log('\nWhere the time went (.ci/run):');
  console.log(`${pad('phase', 22)}${padLeft('time', 7)}  ${pad('result', 8)}${padLeft('files', 6)}${padLeft('passed', 8)}${padLeft('failed', 8)}${padLeft('skipped', 9)}`);
  for (const p of phases) {
    const r = p.report;
    const result = p.status === 0 ? 'ok' : `FAIL(${p.status})`;
    const counts = r ? `${padLeft(r.testResults.length, 6)}${padLeft(r.numPassedTests, 8)}${padLeft(r.numFailedTests, 8)}${padLeft(r.numPendingTests + r.numTodoTests, 9)}` : '';
    console.log(`${pad(p.name, 22)}${padLeft(clock(p.end - p.start), 7)}  ${pad(result, 8)}${counts}`);
  }
  if (phases.length) {
    const start = Math.min(...phases.map((p) => p.start));
    const end = Math.max(...phases.map((p) => p.end));
    console.log(`${pad('total (wall clock)', 22)}${padLeft(clock(end - start), 7)}  (phases that overlap ran side by side)`);
  }
}

function printSlowest(phases: Phase[]): void {
  const files = phases.flatMap((p) => (p.report?.testResults ?? []).map((f) => ({ phase: p.name, file: relative(f.name), seconds: (f.endTime - f.startTime) / 1000 })));
  if (!files.length) return;
  console.log('\nThe 15 slowest test files (seconds, in their phase):');
  for (const f of files.sort((a, b) => b.seconds - a.seconds).slice(0, 15)) console.log(`${padLeft(f.seconds.toFixed(1), 8)}  ${pad(f.phase, 20)}${f.file}`);
}

/** Tests by file and full name: which phases passed them; those no phase passed and none failed were skipped everywhere. */
function account(phases: Phase[]): void {
  const withReports = phases.filter((p) => p.report);
  if (!withReports.length) return;
  const passed = new Map<string, Map<string, number>>();
  const seen = new Map<string, { file: string; name: string; ran: boolean }>();
  for (const p of withReports) {
    for (const f of p.report!.testResults) {
      const file = relative(f.name);
      const perPhase = passed.get(file) ?? new Map<string, number>();
      passed.set(file, perPhase);
      for (const a of f.assertionResults) {
        const key = `${file}\u0000${a.fullName}`;
        const entry = seen.get(key) ?? { file, name: a.fullName, ran: false };
        entry.ran ||= a.status === 'passed' || a.status === 'failed';
        seen.set(key, entry);
        if (a.status === 'passed') perPhase.set(p.name, (perPhase.get(p.name) ?? 0) + 1);
      }
    }
  }
  const names = withReports.map((p) => p.name);
  const lines = [['file', ...names].join('\t'), ...[...passed].sort(([a], [b]) => a.localeCompare(b)).map(([file, per]) => [file, ...names.map((n) => per.get(n) ?? 0)].join('\t'))];
  writeFileSync(path.join(dir, 'accounting.tsv'), `${lines.join('\n')}\n`);
  const never = [...seen.values()].filter((t) => !t.ran);
  console.log(`\n${seen.size} distinct tests in ${passed.size} files; ${never.length} ran in no phase (skipped wherever they appeared). Per file and phase: ${path.join(dir, 'accounting.tsv')}`);
  for (const t of never.slice(0, 40)) console.log(`  not run: ${t.file} › ${t.name}`);
  if (never.length > 40) console.log(`  … and ${never.length - 40} more`);
}

const phases = readPhases();
printPhases(phases);
printSlowest(phases);
account(phases);
