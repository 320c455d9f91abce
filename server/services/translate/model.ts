import { Codes } from '../../../shared/contracts/envelope.ts';
import { MODEL_TYPE_IDS } from '../../../shared/contracts/model-type.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { UpstreamFailure, type UpstreamFailureKind } from '../../core/upstream-failure.ts';
import { generateUpstreamText, upstreamFailureOf } from '../../providers/upstream.ts';
import { isCooling, markFailure, markSuccess } from '../catalogue/catalogue-health.ts';
import { chatEntries, getCatalogue, hasType, upstreamOf, type CatalogueEntry } from '../catalogue/catalogue.ts';
import { settingValues } from '../system/settings.ts';

/** A whole translation (up to 12,000 characters) is answered at once: the deployment gets this long. */
export const TRANSLATE_TIMEOUT_MS = 120_000;

/**
 * The model that translates: the `translation_model` setting when it names a served chat model
 * (online, with an enabled deployment); else the cheapest basic model (the Free plan's, minVipLevel 0),
 * else the cheapest chat model. The plan of the user does not matter: translation is priced by length.
 */
export async function translationModel(ctx: AppContext): Promise<CatalogueEntry> {
  const { translation_model: chosen } = await settingValues(ctx, ['translation_model']);
  const entries = chatEntries(await getCatalogue(ctx));
  const set = chosen.trim() ? entries.find((e) => e.model.aiModelId === chosen.trim()) : undefined;
  if (set && hasType(set.model, MODEL_TYPE_IDS.chat)) return set;
  if (!entries.length) throw new AppError(Codes.NoModelConfigured, 'noModelConfigured');
  const basic = entries.filter((e) => e.model.minVipLevel === 0);
  const priceOf = (e: CatalogueEntry) => e.model.pointsCost + (e.model.tokenPrice ? e.model.tokenPrice.inputPer1k + e.model.tokenPrice.outputPer1k : 0);
  return [...(basic.length ? basic : entries)].sort((a, b) => priceOf(a) - priceOf(b) || a.model.minVipLevel - b.model.minVipLevel || a.model.sort - b.model.sort)[0];
}

/** What the user is told when no deployment answered (as the chat tells it). */
function overallFailure(kinds: UpstreamFailureKind[]): AppError {
  if (!kinds.length) return new AppError(Codes.ModelMisconfigured, 'modelMisconfigured');
  if (kinds.includes('context-too-long')) return new AppError(Codes.ContextTooLong, 'contextTooLong');
  if (kinds.every((k) => k === 'auth' || k === 'not-found')) return new AppError(Codes.ModelMisconfigured, 'modelMisconfigured');
  if (kinds.every((k) => k === 'timeout')) return new AppError(Codes.ModelTimeout, 'modelTimeout');
  return new AppError(Codes.ModelBusy, 'modelBusy');
}

/**
 * One whole answer of the model, with failover across its enabled deployments (healthy ones first,
 * each group by priority; cooling ones as a last resort), as the chat does (chat/model-stream.ts).
 * Throws an AppError when none answered.
 */
export async function askModel(ctx: AppContext, entry: CatalogueEntry, system: string, prompt: string, signal?: AbortSignal): Promise<string> {
  const now = Date.now();
  const healthy = entry.deployments.filter((d) => !isCooling(ctx, d.id, now));
  const order = [...healthy, ...entry.deployments.filter((d) => !healthy.includes(d))];
  const kinds: UpstreamFailureKind[] = [];
  for (const deployment of order) {
    signal?.throwIfAborted();
    const attempt = AbortSignal.timeout(TRANSLATE_TIMEOUT_MS);
    try {
      const text = await generateUpstreamText(upstreamOf(ctx, deployment), {
        system,
        prompt,
        signal: signal ? AbortSignal.any([signal, attempt]) : attempt,
      });
      markSuccess(ctx, deployment.id);
      return text;
    } catch (err) {
      signal?.throwIfAborted();
      const failure = attempt.aborted ? new UpstreamFailure('timeout', 'no answer before the translation timeout') : upstreamFailureOf(err);
      if (failure.kind !== 'request' && failure.kind !== 'context-too-long') markFailure(ctx, deployment.id);
      ctx.log.warn(
        { deploymentId: deployment.id, model: entry.model.aiModelId, kind: failure.kind, status: failure.status, reason: failure.message },
        'translation: deployment failed; trying the next',
      );
      kinds.push(failure.kind);
    }
  }
  throw overallFailure(kinds);
}
