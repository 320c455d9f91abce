import { useEffect, useState } from 'react';
import { transText } from '../../shared/api/translate.ts';
import type { TranslateLanguage } from '../../shared/contracts/translate.ts';
import { errorMessage } from '../ui/error-message.ts';
import { BATCH_LIMITS, CONCURRENCY, makeBatches, splitDocument, type DocumentKind } from './document.ts';

/** What translating the text would cost: nothing asked yet, being asked, the points (and the balance now), or the server's refusal. */
export type Estimate = { status: 'idle' } | { status: 'loading' } | { status: 'done'; cost: number; balance: number } | { status: 'failed'; error: string };

/** How long the text must stay unchanged before its price is asked. */
export const ESTIMATE_DELAY_MS = 600;

/**
 * The price of translating `source` into `target`, asked (TransText with estimate: true, nothing
 * charged) once the text has stayed unchanged for ESTIMATE_DELAY_MS: the same batches a translation
 * would send, so the sum is what it will cost. Not asked when `enabled` is false (a visitor, a text
 * over the page's limit) or the text has nothing to translate.
 */
export function useEstimate(source: string, kind: DocumentKind, target: TranslateLanguage, enabled: boolean): Estimate {
  const [estimate, setEstimate] = useState<Estimate>({ status: 'idle' });
  useEffect(() => {
    const pieces = enabled ? splitDocument(source, kind) : [];
    const batches = makeBatches(pieces, BATCH_LIMITS);
    if (batches.length === 0) {
      setEstimate({ status: 'idle' });
      return;
    }
    const abort = new AbortController();
    setEstimate({ status: 'loading' });
    const timer = setTimeout(() => {
      const queue = [...batches];
      let cost = 0;
      let balance = 0;
      const worker = async () => {
        for (let batch = queue.shift(); batch && !abort.signal.aborted; batch = queue.shift()) {
          const result = await transText({ segments: batch.segments.map((i) => pieces[i]!.text), targetLanguage: target, estimate: true }, abort.signal);
          cost += result.cost;
          balance = result.balance;
        }
      };
      Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker)).then(
        () => !abort.signal.aborted && setEstimate({ status: 'done', cost, balance }),
        (error: unknown) => {
          if (abort.signal.aborted) return;
          abort.abort();
          setEstimate({ status: 'failed', error: errorMessage(error) });
        },
      );
    }, ESTIMATE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [source, kind, target, enabled]);
  return estimate;
}
