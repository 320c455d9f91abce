import type { z } from 'zod';

/**
 * The first problem of each field of a failed contract check, keyed by the field's path ('a.b'),
 * as the form shows it under that field. The contracts are the server's own checks: a form that
 * passes them is not refused for its shape.
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    errors[key] ??= issue.message;
  }
  return errors;
}
