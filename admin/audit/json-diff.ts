/**
 * A plain diff of an audit entry's before and after: every leaf (a value that is not a plain object
 * or array) by its path, listed where the two differ. Enough to read what a write changed; not a
 * patch format.
 */

export type DiffKind = 'changed' | 'added' | 'removed';
export type DiffRow = { path: string; kind: DiffKind; before?: unknown; after?: unknown };

/** How deep the walk goes: a stored value is the server's JSON, but the page must not hang on a huge one. */
const MAX_DEPTH = 20;
/** Rows shown at most; the raw JSON below the table holds the rest. */
export const MAX_DIFF_ROWS = 500;

const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] => typeof value === 'object' && value !== null;

/** Leaves of a JSON value by path (`a.b[0].c`); an empty object or array is a leaf of its own. */
export function flatten(value: unknown, prefix = '', depth = 0, out = new Map<string, unknown>()): Map<string, unknown> {
  if (!isContainer(value) || depth >= MAX_DEPTH) {
    out.set(prefix || '(value)', value);
    return out;
  }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [`${prefix}[${i}]`, item])
    : Object.entries(value).map(([key, item]) => [prefix ? `${prefix}.${key}` : key, item]);
  if (entries.length === 0) {
    out.set(prefix || '(value)', value);
    return out;
  }
  for (const [path, item] of entries) flatten(item, path, depth + 1, out);
  return out;
}

const same = (a: unknown, b: unknown) => a === b || (isContainer(a) && isContainer(b) && JSON.stringify(a) === JSON.stringify(b));

/**
 * What differs between before and after. A missing before (null: the route does not load its
 * target) lists every field of after as added.
 */
export function jsonDiff(before: unknown, after: unknown): DiffRow[] {
  const left = before === null || before === undefined ? new Map<string, unknown>() : flatten(before);
  const right = after === null || after === undefined ? new Map<string, unknown>() : flatten(after);
  const rows: DiffRow[] = [];
  for (const [path, value] of left) {
    if (!right.has(path)) rows.push({ path, kind: 'removed', before: value });
    else if (!same(value, right.get(path))) rows.push({ path, kind: 'changed', before: value, after: right.get(path) });
    if (rows.length >= MAX_DIFF_ROWS) return rows;
  }
  for (const [path, value] of right) {
    if (!left.has(path)) rows.push({ path, kind: 'added', after: value });
    if (rows.length >= MAX_DIFF_ROWS) return rows;
  }
  return rows;
}

/** A leaf as the table shows it: strings as they are, everything else as JSON, long ones cut. */
export function showValue(value: unknown, max = 300): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
