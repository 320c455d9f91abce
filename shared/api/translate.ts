import type { DocumentText, TransTextBody, TransTextResult } from '../contracts/translate.ts';
import { ApiError, apiPost, ServerUnreachableError } from './request.ts';

/** Translates text or segments (POST /api/System/TransText); `estimate: true` answers the price only. */
export function transText(body: TransTextBody, signal?: AbortSignal): Promise<TransTextResult> {
  return apiPost('/api/System/TransText', body, { signal });
}

/** A new idempotency key for one logical translation request (its retries send the same). */
export const newTranslateRequestId = (): string => crypto.randomUUID();

/**
 * A failure after which the server may have translated (and charged) though its answer did not
 * arrive: the connection dropped, or a proxy answered a 5xx.
 */
export function answerLost(error: unknown): boolean {
  return error instanceof ServerUnreachableError || (error instanceof ApiError && error.status !== undefined && error.status >= 500);
}

/**
 * One logical translation request with its idempotency key (`requestId`, a new one unless given):
 * sent again once, with the same key, when its answer was lost, so the server answers the retry the
 * first translation without charging it twice (docs/api.md#translation). An estimate has no key.
 */
export async function transTextKeyed(body: TransTextBody, signal?: AbortSignal, requestId = newTranslateRequestId()): Promise<TransTextResult> {
  const keyed: TransTextBody = body.estimate ? body : { ...body, requestId };
  try {
    return await transText(keyed, signal);
  } catch (error) {
    if (!answerLost(error) || signal?.aborted) throw error;
    return transText(keyed, signal);
  }
}

/** The text of a .docx or .pdf, read on the server (POST /api/System/DocumentText): nothing kept or charged. */
export function documentText(file: File, signal?: AbortSignal): Promise<DocumentText> {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiPost('/api/System/DocumentText', form, { signal });
}
