import { randomUUID } from 'node:crypto';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import { DOCUMENT_EXTENSIONS } from '../../../shared/contracts/media.ts';
import type { Provider } from '../../../shared/contracts/model.ts';
import { MODEL_TYPE_IDS } from '../../../shared/contracts/model-type.ts';
import type { AppContext } from '../../context.ts';
import { aiDeployments, aiModels } from '../../db/schema/models.ts';
import { OPENAI_DEFAULT_BASE_URL } from '../../providers/llm.ts';
import { secretBox } from '../system/secrets.ts';
import { catalogueChanged, getCatalogue, watchCatalogueChanges } from './catalogue.ts';
import { setModelTypes } from './model-types.ts';

/**
 * Seeding from the environment at start-up. Only rows whose source is 'env' / 'ollama' are updated
 * or removed; an operator's edit turns a row into source 'admin', which seeding leaves alone.
 */

type SeedModel = { upstreamId: string; level: number };
type SeedSource = 'env' | 'ollama';
type SeedAccount = { provider: Provider; baseUrl: string | null; apiKey: string | null; models: SeedModel[]; source: SeedSource };

const POINTS_BY_LEVEL = [1, 2, 5, 10];

/** `upstreamId` or `upstreamId:level` (level 0 to 3); Ollama tags like `llama3:8b` keep their colon. */
export function parseModelList(items: string[]): SeedModel[] {
  return items.map((item) => {
    const m = /^(.+):([0-3])$/.exec(item);
    return m ? { upstreamId: m[1], level: Number(m[2]) } : { upstreamId: item, level: 0 };
  });
}

export function slugOf(upstreamId: string): string {
  return (
    upstreamId
      .toLowerCase()
      .replace(/:latest$/, '')
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[-._]+|[-._]+$/g, '')
      .slice(0, 64) || 'model'
  );
}

/** Image generators (their upstream ids): they draw, they do not chat. The migration uses the same names. */
const looksLikeImageGenerator = (id: string) => /(^|[-_./])(dall-e|gpt-image|stable-diffusion|sdxl|flux|imagen|midjourney)/i.test(id);

/** A seeded model's types: an image generator draws; any other chats, and reads images when its name says so. */
function seedTypes(id: string): string[] {
  if (looksLikeImageGenerator(id)) return [MODEL_TYPE_IDS.image];
  return looksLikeVision(id) ? [MODEL_TYPE_IDS.chat, MODEL_TYPE_IDS.vision] : [MODEL_TYPE_IDS.chat];
}

const looksLikeVision = (id: string) => /gpt-4o|gpt-4\.1|gpt-5|claude-(3|4|sonnet|opus|haiku)|gemini|llava|-vl\b|-vl-|vision/i.test(id);

function contextWindowOf(id: string): number {
  if (/gemini/i.test(id)) return 1_000_000;
  if (/claude/i.test(id)) return 200_000;
  if (/gpt-4\.1/i.test(id)) return 1_000_000;
  if (/gpt-4o|gpt-4-turbo|gpt-5|\bo[134]\b|o[134]-|deepseek/i.test(id)) return 128_000;
  return 8192;
}

async function ollamaModels(ctx: AppContext): Promise<string[] | null> {
  try {
    const res = await fetch(`${ctx.config.OLLAMA_URL.replace(/\/+$/, '')}/api/tags`, { signal: AbortSignal.timeout(1500) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = (await res.json()) as { models?: { name?: unknown; model?: unknown }[] };
    return (body.models ?? []).map((m) => String(m.name ?? m.model ?? '')).filter(Boolean);
  } catch (err) {
    ctx.log.info({ url: ctx.config.OLLAMA_URL, reason: (err as Error).message }, 'Ollama not reachable; its models are not imported');
    return null;
  }
}

function envAccounts(ctx: AppContext): SeedAccount[] {
  const c = ctx.config;
  const accounts: SeedAccount[] = [];
  const add = (provider: Provider, key: string | undefined, baseUrl: string | null, models: string[], name: string) => {
    if (!key) return;
    if (!models.length) {
      ctx.log.warn(`${name}_API_KEY is set but ${name}_MODELS is empty: no ${name} model is added`);
      return;
    }
    accounts.push({ provider, baseUrl, apiKey: key, models: parseModelList(models), source: 'env' });
  };
  add('openai-compatible', c.OPENAI_API_KEY, c.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL, c.OPENAI_MODELS, 'OPENAI');
  add('anthropic', c.ANTHROPIC_API_KEY, c.ANTHROPIC_BASE_URL ?? null, c.ANTHROPIC_MODELS, 'ANTHROPIC');
  add('google', c.GOOGLE_GENERATIVE_AI_API_KEY, c.GOOGLE_BASE_URL ?? null, c.GOOGLE_MODELS, 'GOOGLE');
  return accounts;
}

async function seedAccount(ctx: AppContext, account: SeedAccount, keep: Set<string>): Promise<void> {
  const box = account.apiKey ? secretBox(ctx) : null;
  for (const { upstreamId, level } of account.models) {
    const id = slugOf(upstreamId);
    const values = {
      name: upstreamId,
      description: '',
      minVipLevel: level,
      // Every model reads text, and the server turns these files into text (an operator may narrow it).
      fileTypes: [...DOCUMENT_EXTENSIONS],
      webSearch: true,
      pointsCost: POINTS_BY_LEVEL[level],
      contextWindow: contextWindowOf(upstreamId),
    };
    const seeded = await ctx.db
      .insert(aiModels)
      .values({ id, ...values, source: account.source })
      .onConflictDoUpdate({
        target: aiModels.id,
        set: { ...values, updatedAt: sql`now()` },
        setWhere: eq(aiModels.source, account.source),
      })
      .returning({ id: aiModels.id });
    // Only a model this source owns gets its types: an operator's edits stay.
    if (seeded.length) await setModelTypes(ctx.db, id, seedTypes(upstreamId));
    const [existing] = await ctx.db
      .select({ id: aiDeployments.id, source: aiDeployments.source })
      .from(aiDeployments)
      .where(
        and(eq(aiDeployments.aiModelId, id), eq(aiDeployments.provider, account.provider), eq(aiDeployments.upstreamModelId, upstreamId)),
      )
      .limit(1);
    const deployment = { baseUrl: account.baseUrl, apiKeyEnc: box && account.apiKey ? box.encrypt(account.apiKey) : null };
    if (!existing) {
      const depId = randomUUID();
      await ctx.db.insert(aiDeployments).values({
        id: depId,
        aiModelId: id,
        provider: account.provider,
        upstreamModelId: upstreamId,
        source: account.source,
        ...deployment,
      });
      keep.add(depId);
    } else if (existing.source === account.source) {
      await ctx.db.update(aiDeployments).set({ ...deployment, updatedAt: sql`now()` }).where(eq(aiDeployments.id, existing.id));
      keep.add(existing.id);
    }
  }
}

/** Removes what a source created and no longer provides: its deployments, then its models left without any. */
async function pruneSource(ctx: AppContext, source: SeedSource, keep: Set<string>): Promise<void> {
  await ctx.db
    .delete(aiDeployments)
    .where(and(eq(aiDeployments.source, source), keep.size ? notInArray(aiDeployments.id, [...keep]) : undefined));
  await ctx.db
    .delete(aiModels)
    .where(
      and(eq(aiModels.source, source), sql`not exists (select 1 from ${aiDeployments} d where d.ai_model_id = ${aiModels.id})`),
    );
}

/**
 * Creates catalogue entries from OPENAI_*, ANTHROPIC_*, GOOGLE_* and a reachable Ollama. Idempotent:
 * a restart with the same environment changes nothing; a changed one updates what it created.
 */
export async function seedCatalogue(ctx: AppContext): Promise<void> {
  watchCatalogueChanges(ctx);
  const envKeep = new Set<string>();
  for (const account of envAccounts(ctx)) await seedAccount(ctx, account, envKeep);
  await pruneSource(ctx, 'env', envKeep);

  const tags = await ollamaModels(ctx);
  if (tags) {
    const wanted = ctx.config.OLLAMA_MODELS.length
      ? parseModelList(ctx.config.OLLAMA_MODELS).filter((m) => tags.includes(m.upstreamId) || tags.includes(`${m.upstreamId}:latest`))
      : tags.map((upstreamId) => ({ upstreamId, level: 0 }));
    const ollamaKeep = new Set<string>();
    await seedAccount(ctx, { provider: 'ollama', baseUrl: null, apiKey: null, models: wanted, source: 'ollama' }, ollamaKeep);
    await pruneSource(ctx, 'ollama', ollamaKeep);
    ctx.log.info({ models: wanted.map((m) => m.upstreamId) }, 'Ollama models imported');
  }
  await catalogueChanged(ctx);
  const entries = await getCatalogue(ctx);
  if (!entries.length) {
    ctx.log.warn('No AI model is configured: set OPENAI_API_KEY + OPENAI_MODELS (or another provider), run Ollama, or add one in the admin console');
  }
}

