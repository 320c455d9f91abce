import type { TransTextBody, TransTextResult } from '../contracts/translate.ts';
import { apiPost } from './request.ts';

/** Translates text or segments (POST /api/System/TransText); `estimate: true` answers the price only. */
export function transText(body: TransTextBody, signal?: AbortSignal): Promise<TransTextResult> {
  return apiPost('/api/System/TransText', body, { signal });
}
