import type { z } from 'zod';

/**
 * The first problem of each field of a failed contract check, keyed by the field's path ('a.b';
 * '_' for a problem of the whole form), as a form shows it under that field. Forms check their body
 * with the contract the server applies: a form that passes it is not refused for its shape.
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    errors[key] ??= issue.message;
  }
  return errors;
}

/**
 * The text under each field, from `fieldErrors`: a problem code the form knows gets its own
 * sentence, any other problem the form's "check this value".
 */
export function fieldMessages(errors: Record<string, string>, known: ReadonlySet<string>, sentence: (code: string) => string, otherwise: () => string) {
  return (field: string): string | undefined => {
    const code = errors[field];
    if (!code) return undefined;
    return known.has(code) ? sentence(code) : otherwise();
  };
}
