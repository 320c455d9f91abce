import type { Code } from '../../shared/contracts/envelope.ts';
import type { MessageKey } from './i18n.ts';

/** A handled outcome: answered as HTTP 200 with its own Code and a message in the caller's language. */
export class AppError extends Error {
  constructor(
    readonly code: Code,
    readonly key: MessageKey,
    readonly params?: Record<string, string | number>,
  ) {
    super(key);
  }
}
