import { is, Param, Placeholder, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/**
 * Statements of the hot path, compiled to SQL text once per shape instead of once per call.
 *
 * Building a statement with Drizzle's `sql` and turning it into text took 0.3 ms at a chat start
 * after an idle gap; under load, compiling it once saves 3.7 % of the CPU a chat start costs
 * (bench/README.md, load). Here the statement is built once for each shape (each set of its
 * branches), with a named placeholder for every value, and each call only puts its values in order.
 *
 * Every value must be a placeholder: a literal value in the built statement would be kept and sent
 * for every later call (another user's id, another server's settings), so compiling one throws.
 */

/** A value in a statement: itself, or in a compiled statement the placeholder it is bound to. */
export type SqlValue<T> = T | Placeholder;

/** A statement's text and its values in order, ready for `runPrepared`. */
export type BoundStatement = { text: string; values: unknown[] };

type Compiled = { text: string; names: string[] };

const dialect = new PgDialect();

function placeholderName(param: unknown): string {
  if (is(param, Placeholder)) return param.name;
  if (is(param, Param) && is(param.value, Placeholder)) return param.value.name;
  throw new Error(`a compiled statement holds a literal value (${JSON.stringify(param)}); give it a placeholder`);
}

/**
 * One kind of statement. `bind(shape, values)` builds the statement of that shape on first use,
 * calling `build` with the shape and a placeholder for each value (`v.userId`), and returns its
 * text with `values` in placeholder order. `build` may branch only on `shape`.
 */
export function compiledStatement<Shape extends Record<string, boolean>, V extends Record<string, unknown>>(
  build: (shape: Shape, v: { readonly [K in keyof V]: Placeholder }) => SQL,
): (shape: Shape, values: V) => BoundStatement {
  const shapes = new Map<string, Compiled>();
  const slots = new Proxy({} as { readonly [K in keyof V]: Placeholder }, { get: (_, name) => sql.placeholder(String(name)) });
  const compile = (shape: Shape): Compiled => {
    const query = dialect.sqlToQuery(build(shape, slots));
    return { text: query.sql, names: query.params.map(placeholderName) };
  };
  return (shape, values) => {
    const key = Object.keys(shape)
      .sort()
      .map((k) => `${k}:${shape[k] ? 1 : 0}`)
      .join(',');
    let compiled = shapes.get(key);
    if (!compiled) shapes.set(key, (compiled = compile(shape)));
    return {
      text: compiled.text,
      values: compiled.names.map((name) => {
        if (!(name in values)) throw new Error(`no value for the placeholder ${name}`);
        return values[name];
      }),
    };
  };
}
