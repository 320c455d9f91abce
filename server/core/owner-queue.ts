import { Codes } from '../../shared/contracts/envelope.ts';
import { AppError } from './errors.ts';
import type { MessageKey } from './i18n.ts';

/**
 * Heavy jobs (a document's text, a PDF) one at a time per user, and at most `capacity()` admitted
 * across all users: past it a job is refused at once as busy (`busy`, in the user's language) rather
 * than queued without end. A user's next job starts when their previous one settles, failed or not.
 */
export function ownerQueue(capacity: () => number, busy: MessageKey) {
  let admitted = 0;
  /** Per user, the tail of their queue. */
  const tails = new Map<string, Promise<unknown>>();
  return async function run<T>(owner: string, job: () => Promise<T>): Promise<T> {
    if (admitted >= capacity()) throw new AppError(Codes.RateLimited, busy);
    admitted++;
    const mine = (tails.get(owner) ?? Promise.resolve()).catch(() => {}).then(job);
    tails.set(owner, mine);
    try {
      return await mine;
    } finally {
      admitted--;
      if (tails.get(owner) === mine) tails.delete(owner);
    }
  };
}
