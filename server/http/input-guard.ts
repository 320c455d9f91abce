import { Codes } from '../../shared/contracts/envelope.ts';
import { AppError } from '../core/errors.ts';
import type { MessageKey } from '../core/i18n.ts';

/**
 * One rule for what any route may receive, applied at the edge before a route runs
 * (docs/security.md#headers-and-edges): text is valid UTF-8 and well-formed Unicode without NUL
 * (PostgreSQL cannot store NUL, and a lone surrogate half would be stored as U+FFFD, silently
 * changing what the user sent), and numbers are integers JavaScript holds exactly (a larger one is
 * not what the client meant, and would overflow a database column). Query strings, JSON and text
 * bodies and multipart fields all pass through here; a violation is bad input (10400) with a message
 * that says which rule, never a database error.
 */

/** Why a value is refused, as a message key; null when it is fine. */
export type InputProblem = Extract<MessageKey, 'nulCharacter' | 'textNotWellFormed' | 'numberTooLarge'> | null;

/** With the u flag a surrogate pair is one code point, so this matches only a half standing alone. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function textProblem(s: string): InputProblem {
  if (s.includes('\0')) return 'nulCharacter';
  if (LONE_SURROGATE.test(s)) return 'textNotWellFormed';
  return null;
}

/** The first problem in a parsed JSON value or query (values and keys); iterative, so depth cannot overflow the stack. */
export function inputProblem(value: unknown): InputProblem {
  const pending: unknown[] = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) return problem;
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER) return 'numberTooLarge';
    } else if (Array.isArray(v)) {
      pending.push(...v);
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, inner] of Object.entries(v)) {
        const problem = textProblem(k);
        if (problem) return problem;
        pending.push(inner);
      }
    }
  }
  return null;
}

export function refuseBadInput(value: unknown): void {
  const problem = inputProblem(value);
  if (problem) throw new AppError(Codes.BadRequest, problem);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A body's bytes as text, refused when they are not UTF-8 (instead of turning them into U+FFFD). */
export function decodeUtf8(bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new AppError(Codes.BadRequest, 'invalidUtf8');
  }
}

/** Marks a query string that did not decode: the hook refuses the request (the parser may not throw). */
export const UNDECODABLE_QUERY = Symbol('undecodable query');

function decodeComponent(s: string): string | null {
  try {
    return decodeURIComponent(s.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

/**
 * Fastify's query string parser, strict: a percent-encoding that is not UTF-8 (%FF, an encoded
 * surrogate half, a cut-off sequence) marks the query as undecodable instead of being kept as
 * literal text. Repeated names become arrays, as with the default parser.
 */
export function parseQueryString(query: string): Record<string | symbol, unknown> {
  const out: Record<string | symbol, unknown> = Object.create(null);
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const key = decodeComponent(at < 0 ? pair : pair.slice(0, at));
    const value = decodeComponent(at < 0 ? '' : pair.slice(at + 1));
    if (key === null || value === null) {
      out[UNDECODABLE_QUERY] = true;
      continue;
    }
    const seen = out[key];
    out[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}
