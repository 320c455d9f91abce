import { randomUUID } from 'node:crypto';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { TransTextBody, TransTextResult } from '../../../shared/contracts/translate.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import type { CatalogueEntry } from '../catalogue/catalogue.ts';
import { chargePoints, getIntegral, refundPoints } from '../points/ledger.ts';
import { settingValues, wholeNumberSetting } from '../system/settings.ts';
import { askModel, translationModel } from './model.ts';
import { translateOnce } from './request-ids.ts';
import { TRANSLATE_SYSTEM_PROMPT, chargedChars, checkTags, parseModelAnswer, translateUserMessage, translationCost, type ModelTranslation } from './protocol.ts';

/**
 * Translation (POST /api/System/TransText, docs/api.md#translation). The price is known before the
 * model is asked (it counts characters), so the points are charged first, atomically (a balance that
 * does not cover it is refused and nothing is asked), and given back when no translation comes
 * (the model failed, or the client went away and the model call was cut).
 */

/** The default of translation_points_per_1k_chars when its value cannot be read. */
const DEFAULT_POINTS_PER_1K = 1;

async function pointsPer1k(ctx: AppContext): Promise<number> {
  const { translation_points_per_1k_chars: value } = await settingValues(ctx, ['translation_points_per_1k_chars']);
  return wholeNumberSetting(value, 0, 1_000_000, DEFAULT_POINTS_PER_1K);
}

/** What the user can spend now: the balance and today's free allowance left. */
async function spendable(ctx: AppContext, userId: string): Promise<number> {
  const [entry] = await getIntegral(ctx.db, userId, ctx.config.FREE_DAILY_POINTS);
  return entry.integralValue;
}

/** The model's translation of the non-blank segments: asked again once when its answer cannot be read. */
async function translateSegments(
  ctx: AppContext,
  entry: CatalogueEntry,
  body: TransTextBody,
  segments: string[],
  signal?: AbortSignal,
): Promise<ModelTranslation> {
  const prompt = translateUserMessage(body.targetLanguage, segments);
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = parseModelAnswer(await askModel(ctx, entry, TRANSLATE_SYSTEM_PROMPT, prompt, signal), segments.length);
    if (answer) return answer;
    ctx.log.warn({ model: entry.model.aiModelId, attempt }, 'translation: the model answer could not be read');
  }
  throw new AppError(Codes.ModelBusy, 'translateBadAnswer');
}

/** Each segment's translation in order: blank segments answered '' (never sent), tags checked. */
function assemble(all: string[], sent: number[], answer: ModelTranslation): Pick<TransTextResult, 'translations' | 'tagsKept'> {
  const translations = all.map(() => '');
  const tagsKept = all.map(() => true);
  sent.forEach((index, i) => {
    const checked = checkTags(all[index], answer.translations[i]);
    translations[index] = checked.text;
    tagsKept[index] = checked.tagsKept;
  });
  return { translations, tagsKept };
}

/**
 * Translates `body` for the user; `signal` is the client's (server/http/client-gone.ts): when it goes
 * away before the answer, the model call is cut and the charge refunded. With a `requestId`, a repeat
 * is answered the first one's translation without a second charge or model call (request-ids.ts).
 */
export async function translate(ctx: AppContext, userId: string, body: TransTextBody, signal?: AbortSignal): Promise<TransTextResult> {
  if (!body.requestId || body.estimate) return translateNow(ctx, userId, body, signal);
  return translateOnce(
    ctx,
    userId,
    body.requestId,
    body,
    () => translateNow(ctx, userId, body, signal),
    () => spendable(ctx, userId),
    signal,
  );
}

async function translateNow(ctx: AppContext, userId: string, body: TransTextBody, signal?: AbortSignal): Promise<TransTextResult> {
  const all = body.segments ?? [body.text ?? ''];
  const chars = chargedChars(all);
  const cost = translationCost(chars, await pointsPer1k(ctx));
  const base = { targetLanguage: body.targetLanguage, chars, cost };
  if (body.estimate) return { ...base, translations: [], tagsKept: [], detectedLanguage: null, balance: await spendable(ctx, userId) };

  const sent = all.flatMap((s, i) => (s.trim() === '' ? [] : [i]));
  // Resolved before the charge: a server without a model refuses without charging.
  const entry = await translationModel(ctx);
  const refId = randomUUID();
  const key = `translate:${refId}`;
  signal?.throwIfAborted();
  if (cost > 0 && !(await chargePoints(ctx.db, userId, cost, ctx.config.FREE_DAILY_POINTS, { kind: 'translate', key, refId }))) {
    throw new AppError(Codes.NotEnoughPoints, 'notEnoughPoints');
  }
  let answer: ModelTranslation;
  try {
    answer = await translateSegments(
      ctx,
      entry,
      body,
      sent.map((i) => all[i]),
      signal,
    );
  } catch (err) {
    // Nothing translated (the model failed, or the client went away and the call was cut): the charge
    // goes back where it came from (balance or today's allowance), once (its ledger key).
    if (cost > 0) await refundPoints(ctx.db, userId, cost, { key: `refund:${key}`, refId });
    throw err;
  }
  return { ...base, ...assemble(all, sent, answer), detectedLanguage: answer.detectedLanguage, balance: await spendable(ctx, userId) };
}
