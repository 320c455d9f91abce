import { ApiError, setApiBase } from '../../shared/api/request.ts';
import { transTextKeyed } from '../../shared/api/translate.ts';
import { tokenPersisted } from '../../shared/atoms/auth.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import type { TransTextBody, TransTextResult } from '../../shared/contracts/translate.ts';
import { loadPersisted } from '../../shared/storage/active.ts';
import { applyToolLanguage } from './selection-tools.ts';
import { loadServerUrl } from './server.ts';

/**
 * Why a translation asked from the background did not come: signed out, not enough points, too many
 * requests for now (the server's rate limit: worth asking again shortly), or another failure (its message).
 */
export type TranslateCallOutcome = { ok: true; result: TransTextResult } | { ok: false; reason: 'signIn' | 'noPoints' | 'busy' | 'failed'; message: string };

/**
 * The background's one call of POST /api/System/TransText, for the selection card and typed text
 * (selection-translate.ts) and the page translator (page-translate.ts), each of which words the
 * outcome in its own message protocol. It loads the server's address, puts the server's messages in
 * the user's language (Accept-Language), asks a signed-out user to sign in without calling, and sends
 * the request with its idempotency key, retried once with it when the answer was lost.
 */
export async function callTranslate(body: TransTextBody): Promise<TranslateCallOutcome> {
  // The chosen server, also on a cold start of the service worker before wireServer has read it.
  setApiBase(await loadServerUrl());
  await applyToolLanguage();
  if (!(await loadPersisted(tokenPersisted))) return { ok: false, reason: 'signIn', message: '' };
  try {
    return { ok: true, result: await transTextKeyed(body) };
  } catch (error) {
    const code = error instanceof ApiError ? error.code : Codes.ServerError;
    const message = error instanceof Error ? error.message : String(error);
    if (code === Codes.NotLoggedIn) return { ok: false, reason: 'signIn', message };
    return { ok: false, reason: code === Codes.NotEnoughPoints ? 'noPoints' : code === Codes.RateLimited ? 'busy' : 'failed', message };
  }
}
