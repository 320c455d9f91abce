import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Provider } from '../../shared/contracts/model.ts';

export type UpstreamModel = LanguageModelV3;

export type UpstreamTarget = {
  provider: Provider;
  /** Null: the provider's default; for Ollama the server's OLLAMA_URL. */
  baseUrl: string | null;
  apiKey: string | null;
  upstreamModelId: string;
};

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * The AI SDK model object of one deployment. `createOpenAI` would call the Responses API, which
 * OpenAI-compatible servers (Ollama, vLLM, DeepSeek) lack, so every OpenAI-style provider goes
 * through the chat-completions client.
 */
export function createUpstreamModel(target: UpstreamTarget, ollamaUrl: string): UpstreamModel {
  const apiKey = target.apiKey ?? undefined;
  switch (target.provider) {
    case 'anthropic':
      return createAnthropic({ apiKey, ...(target.baseUrl ? { baseURL: trimSlash(target.baseUrl) } : {}) })(target.upstreamModelId);
    case 'google':
      return createGoogleGenerativeAI({ apiKey, ...(target.baseUrl ? { baseURL: trimSlash(target.baseUrl) } : {}) })(
        target.upstreamModelId,
      );
    case 'ollama':
      return createOpenAICompatible({ name: 'ollama', baseURL: `${trimSlash(target.baseUrl ?? ollamaUrl)}/v1`, apiKey }).chatModel(
        target.upstreamModelId,
      );
    case 'openai':
    case 'openai-compatible':
      return createOpenAICompatible({
        name: target.provider,
        baseURL: trimSlash(target.baseUrl ?? OPENAI_DEFAULT_BASE_URL),
        apiKey,
      }).chatModel(target.upstreamModelId);
  }
}
