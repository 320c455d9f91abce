/** PostgreSQL's error of a statement, as pg or PGlite raise it, possibly wrapped by Drizzle as its cause. */
type DatabaseError = { code?: string; constraint?: string; message?: string };

function driverError(err: unknown): DatabaseError | undefined {
  const e = err as (DatabaseError & { cause?: DatabaseError }) | undefined;
  if (e?.code && /^[0-9A-Z]{5}$/.test(e.code)) return e;
  return e?.cause;
}

/** The SQLSTATE a statement failed with (e.g. 23505), or undefined for an error not from the database. */
export function sqlStateOf(err: unknown): string | undefined {
  const code = driverError(err)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** Whether a statement failed on a unique key (SQLSTATE 23505); on `constraint` when one is named. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = driverError(err);
  if (e?.code !== '23505') return false;
  // pg names the constraint; PGlite's message carries it.
  return !constraint || e.constraint === constraint || !!e.message?.includes(constraint);
}

/** Whether a statement failed on a foreign key (SQLSTATE 23503): a row still referenced, or a reference to none. */
export function isForeignKeyViolation(err: unknown): boolean {
  return driverError(err)?.code === '23503';
}
