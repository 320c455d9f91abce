import type { z } from 'zod';

/**
 * One piece of persisted client state, declared once: its key, the version of its stored shape,
 * the schema a stored value must pass and the value used when nothing valid is stored.
 */
export interface Persisted<T> {
  readonly key: string;
  readonly version: number;
  readonly schema: z.ZodType<T>;
  readonly fallback: T;
}

/** What is written under the key: the value with the version of the shape it was written in. */
export interface StoredEnvelope {
  v: number;
  value: unknown;
}

export function definePersisted<T>(declaration: Persisted<T>): Persisted<T> {
  return Object.freeze({ ...declaration });
}

export function encodePersisted<T>(declaration: Persisted<T>, value: T): StoredEnvelope {
  return { v: declaration.version, value };
}

/**
 * The stored value when it is of the current version and passes the schema, else the fallback.
 * A stored value may come from an older build or another tool; it is never trusted as is. A
 * future version bump adds its migration here, before the schema check.
 */
export function decodePersisted<T>(declaration: Persisted<T>, raw: unknown): T {
  if (typeof raw !== 'object' || raw === null || !('v' in raw) || raw.v !== declaration.version) {
    return declaration.fallback;
  }
  const parsed = declaration.schema.safeParse((raw as StoredEnvelope).value);
  return parsed.success ? parsed.data : declaration.fallback;
}
