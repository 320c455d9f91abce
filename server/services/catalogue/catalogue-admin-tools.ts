import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { DOCUMENT_EXTENSIONS } from '../../../shared/contracts/media.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import {
  AUTO_MODEL_ID,
  type DeploymentProtocol,
  type Provider,
  type SyncModelMap,
  type SyncModelMapResult,
  type DeploymentHealth,
  type DeploymentWindowStats,
  type TestDeployment,
  type TestDeploymentResult,
  type UpstreamModelEntry,
  type UpstreamModelListRequest,
} from '../../../shared/contracts/model.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { chatMessages } from '../../db/schema/chat.ts';
import { aiDeployments, aiModels } from '../../db/schema/models.ts';
import { upstreamFailures } from '../../db/schema/usage.ts';
import { AppError } from '../../core/errors.ts';
import { redactText } from '../../core/log-safety.ts';
import { createUpstreamModel, type UpstreamTarget } from '../../providers/llm.ts';
import { openUpstreamStream, upstreamFailureOf, type PartReader } from '../../providers/upstream.ts';
import { listUpstreamModels, ModelListError } from '../../providers/upstream-models.ts';
import { setModelTypes, typesToSave } from './model-types.ts';
import { catalogueChanged } from './catalogue.ts';
import { slugOf } from './catalogue-seed.ts';
import { secretBox } from '../system/secrets.ts';

/**
 * The console's catalogue tools beyond plain edits (catalogue-admin.ts): ordering, a test call to a
 * deployment, and importing models from a provider's model list. Keys given here are used for the
 * call and never answered or logged; a saved deployment's key is used when none is given.
 */

/** A text[] of the values, one parameter each (works alike on PostgreSQL and PGlite). */
const textArray = (values: string[]) => sql`array[${sql.join(values.map((v) => sql`${v}`), sql`, `)}]::text[]`;

// ---- ordering ----

/**
 * Orders the catalogue as `ids` says (sort 10, 20, 30, ...), the models not named after them in
 * their current order, in one statement; every instance re-reads the catalogue (the bus).
 */
export async function sortModels(ctx: AppContext, ids: string[]): Promise<void> {
  const known = await ctx.db.select({ id: aiModels.id }).from(aiModels).where(inArray(aiModels.id, ids));
  const missing = ids.filter((id) => !known.some((k) => k.id === id));
  if (missing.length) throw new AppError(Codes.NotFound, 'modelsNotFound', { ids: missing.slice(0, 5).join(', ') });
  await ctx.db.execute(sql`
    with named as (select id, pos from unnest(${textArray(ids)}) with ordinality as n(id, pos)),
    ranked as (
      select m.id, row_number() over (order by named.pos is null, named.pos, m.sort, m.min_vip_level, m.name, m.id) * 10 as sort
      from ${aiModels} m left join named on named.id = m.id
    )
    update ${aiModels} set sort = ranked.sort, updated_at = now()
    from ranked where ${aiModels.id} = ranked.id and ${aiModels.sort} <> ranked.sort`);
  await catalogueChanged(ctx);
}

// ---- the upstream of a test or an import ----

type TargetInput = { aiModelMapId?: string; provider?: Provider; protocol?: DeploymentProtocol; baseUrl?: string | null; apiKey?: string | null; upstreamModelId?: string };

/** A saved deployment's settings with the given fields over them, or the given fields alone. */
async function targetOf(ctx: AppContext, input: TargetInput): Promise<UpstreamTarget> {
  let saved: UpstreamTarget | null = null;
  if (input.aiModelMapId) {
    const [row] = await ctx.db.select().from(aiDeployments).where(eq(aiDeployments.id, input.aiModelMapId)).limit(1);
    if (!row) throw new AppError(Codes.NotFound, 'notFound');
    let apiKey: string | null = null;
    if (row.apiKeyEnc) {
      try {
        apiKey = secretBox(ctx).decrypt(row.apiKeyEnc);
      } catch {
        throw new AppError(Codes.ModelMisconfigured, 'deploymentKeyUnreadable');
      }
    }
    saved = { provider: row.provider, baseUrl: row.baseUrl, apiKey, upstreamModelId: row.upstreamModelId, protocol: row.protocol };
  }
  const provider = input.provider ?? saved?.provider;
  if (!provider) throw new AppError(Codes.BadRequest, 'deploymentTargetRequired');
  return {
    provider,
    // Another provider than the saved one: its address and key do not carry over.
    baseUrl: input.baseUrl !== undefined ? input.baseUrl : provider === saved?.provider ? saved.baseUrl : null,
    // Absent or null: the saved key (of the same provider); an empty string: none.
    apiKey: input.apiKey != null ? input.apiKey || null : provider === saved?.provider ? saved.apiKey : null,
    upstreamModelId: input.upstreamModelId ?? saved?.upstreamModelId ?? '',
    protocol: input.protocol ?? (provider === saved?.provider ? saved.protocol : undefined),
  };
}

/** A provider's message for the operator: the key it was given (and anything key-like) removed, kept short. */
function safeMessage(message: string, apiKey: string | null): string {
  const withoutKey = apiKey && apiKey.length >= 4 ? message.split(apiKey).join('[redacted]') : message;
  return redactText(withoutKey).replace(/\s+/g, ' ').trim().slice(0, 500);
}

// ---- test call ----

const TEST_PROMPT = 'Say hello in one short sentence.';
/** The first tokens the console shows. */
const TEST_TEXT_CHARS = 200;
/** A test waits this long at most for the first text, and this long in all. */
const TEST_FIRST_TEXT_MS = 20_000;
const TEST_TOTAL_MS = 30_000;

/**
 * Sends one short prompt to a deployment through the chat's provider code and answers the first
 * tokens, the time to the first one, or what went wrong. Nobody is charged, no message is stored,
 * and the deployment's health is left alone (a test is not traffic).
 */
export async function testDeployment(ctx: AppContext, input: TestDeployment): Promise<TestDeploymentResult> {
  const target = await targetOf(ctx, input);
  if (!target.upstreamModelId) throw new AppError(Codes.BadRequest, 'deploymentTargetRequired');
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const firstTextMs = Math.min(TEST_FIRST_TEXT_MS, ctx.config.MODEL_FIRST_TEXT_TIMEOUT_SECONDS * 1000);
  const controller = new AbortController();
  let timedOut = false;
  let timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, firstTextMs);
  let reader: PartReader | undefined;
  let text = '';
  let firstTokenMs: number | null = null;
  let finished = false;
  try {
    reader = await openUpstreamStream(createUpstreamModel(target, ctx.config.OLLAMA_URL), {
      messages: [{ role: 'user', content: input.prompt ?? TEST_PROMPT }],
      canSeeImages: false,
      signal: controller.signal,
    });
    for (;;) {
      const part = await reader.read();
      if (!part || part.type === 'finish') {
        finished = true;
        break;
      }
      if (part.type !== 'text') continue;
      if (firstTokenMs === null) {
        firstTokenMs = elapsed();
        // From the first text on, the rest of the total time.
        clearTimeout(timer);
        timer = setTimeout(() => controller.abort(), Math.max(0, TEST_TOTAL_MS - firstTokenMs));
      }
      text += part.text;
      if (text.length >= TEST_TEXT_CHARS) break;
    }
    return { ok: true, text: text.slice(0, TEST_TEXT_CHARS), firstTokenMs, totalMs: elapsed(), errorKind: null, error: null };
  } catch (err) {
    // Text already shown is an answer cut short by the total time: still a working deployment.
    if (firstTokenMs !== null && controller.signal.aborted) {
      return { ok: true, text: text.slice(0, TEST_TEXT_CHARS), firstTokenMs, totalMs: elapsed(), errorKind: null, error: null };
    }
    const failure = timedOut ? { kind: 'timeout', message: `no text within ${Math.round(firstTextMs / 1000)} s` } : upstreamFailureOf(err);
    const status = 'status' in failure && failure.status ? `HTTP ${failure.status}: ` : '';
    return {
      ok: false,
      text: text.slice(0, TEST_TEXT_CHARS),
      firstTokenMs,
      totalMs: elapsed(),
      errorKind: failure.kind,
      error: safeMessage(`${status}${failure.message}`, target.apiKey),
    };
  } finally {
    clearTimeout(timer);
    // An answer cut short releases its connection; the signal is aborted only by the timers, as a
    // chat's is only by a stop (aborting a finished request's signal would fail its pooled socket).
    if (!finished) reader?.cancel();
  }
}

// ---- import from a provider's model list ----

/** Deployments of this provider and base URL, by upstream model id (the first one of each). */
async function existingDeployments(db: Db, target: Pick<UpstreamTarget, 'provider' | 'baseUrl'>) {
  const rows = await db
    .select({ id: aiDeployments.id, aiModelId: aiDeployments.aiModelId, upstreamModelId: aiDeployments.upstreamModelId })
    .from(aiDeployments)
    .where(and(eq(aiDeployments.provider, target.provider), sql`${aiDeployments.baseUrl} is not distinct from ${target.baseUrl}`))
    .orderBy(aiDeployments.createdAt);
  const byUpstream = new Map<string, { id: string; aiModelId: string }>();
  for (const r of rows) if (!byUpstream.has(r.upstreamModelId)) byUpstream.set(r.upstreamModelId, r);
  return byUpstream;
}

/** The models the upstream lists, each marked when a deployment of it already exists. */
export async function listProviderModels(ctx: AppContext, input: UpstreamModelListRequest): Promise<{ list: UpstreamModelEntry[] }> {
  const target = await targetOf(ctx, input);
  let listed;
  try {
    listed = await listUpstreamModels(target, ctx.config.OLLAMA_URL);
  } catch (err) {
    if (!(err instanceof ModelListError)) throw err;
    throw new AppError(Codes.ServiceFailed, 'upstreamModelListFailed', { detail: safeMessage(err.message, target.apiKey) });
  }
  const existing = await existingDeployments(ctx.db, target);
  return {
    list: listed.map((m) => {
      const found = existing.get(m.id);
      return { upstreamModelId: m.id, ownedBy: m.ownedBy, imported: !!found, aiModelId: found?.aiModelId ?? null };
    }),
  };
}

/** Any number naming Tandem's import among the database's advisory locks. */
const IMPORT_LOCK = 7_317_012;

/** A catalogue id for an upstream model: its slug, never the reserved 'auto'. */
const modelIdFor = (upstreamModelId: string) => {
  const slug = slugOf(upstreamModelId);
  return slug === AUTO_MODEL_ID ? `${slug}-model` : slug;
};

/**
 * Creates a catalogue model and a deployment for each chosen upstream model, skipping those this
 * provider and base URL already serve. Two imports at once wait for each other (a transaction-wide
 * advisory lock), so importing twice never makes two deployments of one model.
 */
export async function syncModelMap(ctx: AppContext, input: SyncModelMap): Promise<SyncModelMapResult> {
  const target = await targetOf(ctx, input);
  const apiKeyEnc = target.apiKey ? secretBox(ctx).encrypt(target.apiKey) : null;
  const result = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK})`);
    const existing = await existingDeployments(tx, target);
    const [{ maxSort }] = await tx.select({ maxSort: sql<number>`coalesce(max(${aiModels.sort}), 0)`.mapWith(Number) }).from(aiModels);
    const out: SyncModelMapResult = { created: [], skipped: [] };
    for (const upstreamModelId of input.upstreamModelIds) {
      const found = existing.get(upstreamModelId);
      if (found) {
        out.skipped.push({ upstreamModelId, aiModelId: found.aiModelId, aiModelMapId: found.id });
        continue;
      }
      const aiModelId = modelIdFor(upstreamModelId);
      const inserted = await tx
        .insert(aiModels)
        .values({
          id: aiModelId,
          name: upstreamModelId.slice(0, 100),
          minVipLevel: input.minVipLevel,
          fileTypes: [...DOCUMENT_EXTENSIONS],
          webSearch: input.webSearch,
          pointsCost: input.pointsCost,
          contextWindow: input.contextWindow,
          // New models go to the end of the list, in the order chosen.
          sort: maxSort + 10 * (out.created.length + 1),
          online: input.online,
          source: 'admin',
        })
        .onConflictDoNothing()
        .returning({ id: aiModels.id });
      // A new model gets its types; an existing one (it gains a deployment) keeps its own.
      if (inserted.length) await setModelTypes(tx, aiModelId, typesToSave(input.typeIds, null, input.isImage));
      const aiModelMapId = randomUUID();
      await tx.insert(aiDeployments).values({
        id: aiModelMapId,
        aiModelId,
        provider: target.provider,
        baseUrl: target.baseUrl,
        apiKeyEnc,
        upstreamModelId,
        source: 'admin',
      });
      out.created.push({ upstreamModelId, aiModelId, aiModelMapId, newModel: inserted.length > 0 });
    }
    return out;
  });
  if (result.created.length) await catalogueChanged(ctx);
  return result;
}

// ---- deployment health ----

type WindowRow = { deployment_id: string; win: string; successes: number | string; failures: number | string; p50: number | string | null };
type LastErrorRow = { deployment_id: string; error: string; created_at: Date | string };

const emptyWindow = (): DeploymentWindowStats => ({ attempts: 0, successes: 0, failures: 0, successRate: null, p50FirstTokenMs: null });

/**
 * Health of deployments from what was stored: answers each deployment started (chat_messages with
 * its deployment_id; an answer that failed after its first text counts as a failure) and the
 * upstream failures recorded when it was tried and failed, over the last 24 hours and 7 days; the
 * median time to first token of its answers; its latest recorded failure. Two statements for any
 * number of deployments, aggregated by the database.
 */
export async function deploymentHealth(db: Db, deploymentIds: string[]): Promise<Map<string, DeploymentHealth>> {
  const out = new Map<string, DeploymentHealth>(deploymentIds.map((id) => [id, { lastError: null, lastErrorTime: null, day: emptyWindow(), week: emptyWindow() }]));
  if (!deploymentIds.length) return out;
  const ids = textArray(deploymentIds);
  const [windows, lastErrors] = await Promise.all([
    db.execute<WindowRow>(sql`
      with w(win, since) as (values ('day', now() - interval '1 day'), ('week', now() - interval '7 days')),
      answers as (
        -- By when they finished (an index serves the range). An answer that failed after its first
        -- text is a failure, unless that failure was recorded already (then it counts there).
        select w.win, a.deployment_id,
          count(*) filter (where not a.failed) as successes,
          count(*) filter (where a.failed and not a.recorded) as failures,
          percentile_cont(0.5) within group (order by a.first_token_ms) filter (where not a.failed) as p50
        from w join (
          select m.deployment_id, m.finished_at, m.first_token_ms, coalesce(m.finish_reason = 'error', false) as failed,
            case when m.finish_reason = 'error'
              then exists (select 1 from ${upstreamFailures} uf where uf.message_id = m.id and uf.deployment_id = m.deployment_id)
              else false end as recorded
          from ${chatMessages} m
          where m.finished_at >= now() - interval '7 days' and m.deployment_id = any(${ids})
        ) a on a.finished_at >= w.since
        group by w.win, a.deployment_id
      ),
      failed as (
        select w.win, f.deployment_id, count(*) as failures
        from w join ${upstreamFailures} f on f.created_at >= w.since
        where f.deployment_id = any(${ids})
        group by w.win, f.deployment_id
      )
      select coalesce(a.win, f.win) as win, coalesce(a.deployment_id, f.deployment_id) as deployment_id,
        coalesce(a.successes, 0) as successes, coalesce(a.failures, 0) + coalesce(f.failures, 0) as failures, a.p50
      from answers a full join failed f on f.win = a.win and f.deployment_id = a.deployment_id`),
    db.execute<LastErrorRow>(sql`
      select distinct on (f.deployment_id) f.deployment_id, f.error, f.created_at
      from ${upstreamFailures} f
      where f.deployment_id = any(${ids})
      order by f.deployment_id, f.created_at desc`),
  ]);
  for (const row of windows.rows) {
    const health = out.get(row.deployment_id);
    if (!health) continue;
    const successes = Number(row.successes);
    const failures = Number(row.failures);
    const attempts = successes + failures;
    health[row.win === 'day' ? 'day' : 'week'] = {
      attempts,
      successes,
      failures,
      successRate: attempts ? successes / attempts : null,
      p50FirstTokenMs: row.p50 === null ? null : Math.round(Number(row.p50)),
    };
  }
  for (const row of lastErrors.rows) {
    const health = out.get(row.deployment_id);
    if (!health) continue;
    health.lastError = row.error;
    health.lastErrorTime = new Date(row.created_at).toISOString();
  }
  return out;
}
