import { z } from 'zod';
import { OPENAI_DEFAULT_BASE_URL, type UpstreamTarget } from './llm.ts';

/**
 * The models a provider account offers, for the console's import: OpenAI-style `GET {base}/models`,
 * Ollama's `GET /api/tags`, Anthropic's and Google's model lists. The base URL is the operator's
 * (admin only, http or https, as a deployment's); the key travels in a header, never in the URL.
 */

export type ListedModel = { id: string; ownedBy: string | null };

/** The provider failed, refused, answered something else than a model list, or was too slow; the message is for the operator. */
export class ModelListError extends Error {
  override name = 'ModelListError';
}

export const MODEL_LIST_TIMEOUT_MS = 10_000;
/** A model list is tens of kilobytes; OpenRouter's, the largest known, about 1 MB. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const MAX_MODELS = 2000;

const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com/v1';
const GOOGLE_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

const trimSlash = (url: string) => url.replace(/\/+$/, '');

const OpenAiListSchema = z.object({
  data: z.array(z.object({ id: z.string().min(1).max(200), owned_by: z.string().max(200).nullish() }).loose()),
});
const OllamaTagsSchema = z.object({ models: z.array(z.object({ name: z.string().min(1).max(200) }).loose()) });
const GoogleListSchema = z.object({ models: z.array(z.object({ name: z.string().min(1).max(200) }).loose()).default([]) });

async function getJson(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<unknown> {
  const timeout = AbortSignal.timeout(MODEL_LIST_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json', ...headers }, redirect: 'error', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (err) {
    signal?.throwIfAborted();
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    throw new ModelListError(timeout.aborted ? `no answer within ${MODEL_LIST_TIMEOUT_MS / 1000} s` : `cannot connect: ${cause ?? (err as Error).message}`);
  }
  const body = await readLimited(res, timeout);
  if (!res.ok) throw new ModelListError(`HTTP ${res.status}${providerMessage(body)}`);
  try {
    return JSON.parse(body);
  } catch {
    throw new ModelListError('the answer is not JSON');
  }
}

async function readLimited(res: Response, timeout: AbortSignal): Promise<string> {
  if (Number(res.headers.get('content-length')) > MAX_ANSWER_BYTES) {
    await res.body?.cancel().catch(() => {});
    throw new ModelListError('the answer is too large');
  }
  try {
    const text = await res.text();
    if (text.length > MAX_ANSWER_BYTES) throw new ModelListError('the answer is too large');
    return text;
  } catch (err) {
    if (err instanceof ModelListError) throw err;
    throw new ModelListError(timeout.aborted ? `no answer within ${MODEL_LIST_TIMEOUT_MS / 1000} s` : 'the answer was cut off');
  }
}

/** ": <the provider's own message>" from an error body ({error: {message}} or {error: "..."}), when there is one. */
function providerMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    const err = parsed.error as { message?: unknown } | string | undefined;
    const message = typeof err === 'string' ? err : typeof err?.message === 'string' ? err.message : typeof parsed.message === 'string' ? parsed.message : '';
    return message ? `: ${message.slice(0, 300)}` : '';
  } catch {
    return '';
  }
}

function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new ModelListError('the answer is not a model list');
  return result.data;
}

/** The models of one provider account, sorted by id, duplicates removed. */
export async function listUpstreamModels(target: Omit<UpstreamTarget, 'upstreamModelId'>, ollamaUrl: string, signal?: AbortSignal): Promise<ListedModel[]> {
  const key = target.apiKey ?? '';
  let models: ListedModel[];
  switch (target.provider) {
    case 'ollama': {
      const tags = parsed(OllamaTagsSchema, await getJson(`${trimSlash(target.baseUrl ?? ollamaUrl)}/api/tags`, {}, signal));
      models = tags.models.map((m) => ({ id: m.name, ownedBy: null }));
      break;
    }
    case 'anthropic': {
      const list = parsed(
        OpenAiListSchema,
        await getJson(`${trimSlash(target.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL)}/models?limit=1000`, { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, signal),
      );
      models = list.data.map((m) => ({ id: m.id, ownedBy: 'anthropic' }));
      break;
    }
    case 'google': {
      const list = parsed(GoogleListSchema, await getJson(`${trimSlash(target.baseUrl ?? GOOGLE_DEFAULT_BASE_URL)}/models?pageSize=1000`, { 'x-goog-api-key': key }, signal));
      models = list.models.map((m) => ({ id: m.name.replace(/^models\//, ''), ownedBy: 'google' }));
      break;
    }
    case 'openai':
    case 'openai-compatible': {
      const list = parsed(
        OpenAiListSchema,
        await getJson(`${trimSlash(target.baseUrl ?? OPENAI_DEFAULT_BASE_URL)}/models`, key ? { authorization: `Bearer ${key}` } : {}, signal),
      );
      models = list.data.map((m) => ({ id: m.id, ownedBy: m.owned_by ?? null }));
      break;
    }
  }
  const unique = new Map(models.map((m) => [m.id, m]));
  return [...unique.values()].sort((a, b) => a.id.localeCompare(b.id)).slice(0, MAX_MODELS);
}
