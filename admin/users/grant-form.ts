/**
 * The grant/deduct form's rules, as the server's (GrantPointsSchema): a whole number of points other
 * than zero, at most ten million at once, and a reason the user will read. A deduction may not take
 * the balance below zero (the server refuses it too; saying so here keeps the form's input).
 */

export const MAX_POINTS_AT_ONCE = 10_000_000;
export const MAX_REASON_LENGTH = 200;

export type GrantDirection = 'grant' | 'deduct';

export interface GrantFormValues {
  direction: GrantDirection;
  /** As typed: a number, or '' while empty. */
  amount: number | string;
  reason: string;
}

export type GrantFormErrors = {
  amount?: { key: 'amountRequired' | 'amountPositive' | 'amountTooLarge' | 'tooMuchDeducted'; values?: Record<string, number> };
  reason?: { key: 'reasonRequired' | 'reasonTooLong'; values?: Record<string, number> };
};

export function validateGrantForm(values: GrantFormValues, balance: number): GrantFormErrors {
  const errors: GrantFormErrors = {};
  const amount = typeof values.amount === 'number' ? values.amount : Number.NaN;
  if (!Number.isFinite(amount) || !Number.isInteger(amount)) errors.amount = { key: 'amountRequired' };
  else if (amount <= 0) errors.amount = { key: 'amountPositive' };
  else if (amount > MAX_POINTS_AT_ONCE) errors.amount = { key: 'amountTooLarge', values: { max: MAX_POINTS_AT_ONCE } };
  else if (values.direction === 'deduct' && amount > balance) errors.amount = { key: 'tooMuchDeducted', values: { balance } };
  const reason = values.reason.trim();
  if (!reason) errors.reason = { key: 'reasonRequired' };
  else if (reason.length > MAX_REASON_LENGTH) errors.reason = { key: 'reasonTooLong', values: { max: MAX_REASON_LENGTH } };
  return errors;
}

/** The signed change the server is sent: positive to grant, negative to deduct. */
export function signedAmount(values: GrantFormValues): number {
  const amount = Number(values.amount);
  return values.direction === 'deduct' ? -amount : amount;
}

/** True when the typed e-mail names the account (case and surrounding spaces aside, as the server compares). */
export function emailConfirms(typed: string, email: string): boolean {
  return typed.trim().toLowerCase() === email.trim().toLowerCase() && typed.trim() !== '';
}
