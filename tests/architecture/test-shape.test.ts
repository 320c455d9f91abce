import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The tests' own house rules (docs/testing.md): a `describe` names one behaviour and stays short
 * enough to read as one (≤ 200 lines; a file's shared setup lives in its module-level hooks), and the
 * server tests call the app through the one request helper (tests/helpers/api.ts) rather than each
 * building its own JSON and Authorization headers.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const MAX_DESCRIBE_LINES = 200;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return /\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Each `describe(…)` (and describe.each/skip/only…) call of a source, with its first line and its length in lines. */
export function describesOf(fileName: string, text: string): { line: number; lines: number }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found: { line: number; lines: number }[] = [];
  const isDescribe = (callee: ts.Expression): boolean =>
    (ts.isIdentifier(callee) && callee.text === 'describe') ||
    ((ts.isPropertyAccessExpression(callee) || ts.isCallExpression(callee)) &&
      isDescribe(ts.isPropertyAccessExpression(callee) ? callee.expression : callee.expression));
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && isDescribe(node.expression) && node.arguments.some((a) => ts.isFunctionLike(a))) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The lines of a source where a headers object sets both an Authorization (`auth(…)` or a Bearer
 * token) and a JSON content type (a literal, or JSON_TYPE): a request built by hand that the helper
 * builds. Multipart bodies, content types held in a variable (tests of content types) and what a fake
 * upstream checks it received (an Authorization alone) are not such requests.
 */
export function ownJsonRequests(text: string): number[] {
  const headers = /headers:\s*\{((?:\$\{[^{}]*\}|[^{}])*)\}/g;
  const authorization = /auth\(|Bearer/;
  const jsonType = /['"`]application\/json(-patch\+json)?['"`]|JSON_TYPE/;
  return [...text.matchAll(headers)]
    .filter((m) => authorization.test(m[1]) && jsonType.test(m[1]))
    .map((m) => text.slice(0, m.index).split('\n').length);
}

const block = (lines: number) => `describe('x', () => {\n${"  it('y', () => {});\n".repeat(lines - 2)}});\n`;

describe('the shape of the tests', () => {
  it('measures a describe from its first line to its last, nested and each-ed ones included', () => {
    expect(describesOf('a.test.ts', block(MAX_DESCRIBE_LINES))).toEqual([{ line: 1, lines: MAX_DESCRIBE_LINES }]);
    const nested = `describe.each([1])('x %s', () => {\n  describe.skip('y', () => {\n    it('z', () => {});\n  });\n});\n`;
    expect(describesOf('b.test.ts', nested)).toEqual([
      { line: 1, lines: 5 },
      { line: 2, lines: 3 },
    ]);
  });

  it(`keeps every describe within ${MAX_DESCRIBE_LINES} lines`, () => {
    const tooLong = testFiles(path.join(root, 'tests')).flatMap((file) =>
      describesOf(file, readFileSync(file, 'utf8'))
        .filter((d) => d.lines > MAX_DESCRIBE_LINES)
        .map((d) => `${path.relative(root, file)}:${d.line} (${d.lines} lines)`),
    );
    expect(tooLong).toEqual([]);
  });

  it('finds a headers object with both an Authorization and a JSON content type, and nothing else', () => {
    const planted = [
      "await fetch(url, { method: 'POST', headers: { ...auth(token), 'content-type': 'application/json' }, body });",
      'await fetch(url, {\n  headers: { \'content-type\': \'application/json-patch+json\', authorization: `Bearer ${token}` },\n});',
      "t.app.inject({ method: 'POST', url, headers: { ...JSON_TYPE, ...auth(token) }, payload });",
    ].join('\n');
    expect(ownJsonRequests(planted)).toEqual([1, 3, 5]);
    const fine = [
      "t.app.inject({ method: 'POST', url, headers: { ...auth(token), 'content-type': 'multipart/form-data; boundary=x' }, payload });",
      "t.app.inject({ method: 'POST', url, headers: { ...auth(token), 'content-type': contentType }, payload });",
      "expect(sent).toMatchObject({ headers: { authorization: `Bearer ${KEY}` } });",
      "await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body });",
      "await api(t.app, user).post(url, undefined, { raw: '{', headers: { 'content-type': 'application/json' } });",
    ].join('\n');
    expect(ownJsonRequests(fine)).toEqual([]);
  });

  it('calls the app through tests/helpers/api.ts: no server test builds its own JSON and Authorization headers', () => {
    const rolling = testFiles(path.join(root, 'tests/server')).flatMap((file) =>
      ownJsonRequests(readFileSync(file, 'utf8')).map((line) => `${path.relative(root, file)}:${line}`),
    );
    expect(rolling).toEqual([]);
  });
});
