import type { AddMessageBody } from '../../../shared/contracts/chat.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { authenticateCached, hashSecret, type AuthUser } from '../accounts/auth.ts';
import { prepareChatMessage, type PreparedMessage, type SendExtras } from './prepare.ts';
import { frameMessage } from './quick-function.ts';

/**
 * AddMessage up to the stream (chat/stream.ts): the message framed by its quick function and page
 * selection (docs/api.md#quick-functions-and-prompts), then prepared for `user` as the login check
 * found them. That check may come from the cache (a token verified recently is trusted from memory
 * on this hot path), so a plan bought since then must count at once: a PlanRequired is checked once
 * more against a fresh login, and the message prepared again if the plan changed.
 */
export async function prepareToSend(
  ctx: AppContext,
  user: AuthUser,
  token: string,
  body: AddMessageBody,
  lang: Language,
  // SendResponses: the Responses path forced, with its uploaded files (chat/responses.ts).
  extras: SendExtras = {},
): Promise<PreparedMessage> {
  const tokenHash = hashSecret(token);
  const framing = await frameMessage(ctx, user.id, body, lang);
  return prepareChatMessage(ctx, user, body, tokenHash, framing, lang, extras).catch(async (err: unknown) => {
    if (!(err instanceof AppError) || err.code !== Codes.PlanRequired) throw err;
    const policy = { ttlDays: ctx.config.TOKEN_TTL_DAYS, renewAfterSeconds: ctx.config.TOKEN_RENEW_AFTER_SECONDS };
    const fresh = await authenticateCached(ctx, token, policy, true);
    if (!fresh || fresh.user.vipLevel === user.vipLevel) throw err;
    return prepareChatMessage(ctx, fresh.user, body, tokenHash, framing, lang, extras);
  });
}
