import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Provider } from '../../shared/contracts/model.ts';
import { withLightTextStream } from './openai-text-stream.ts';

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
    case 'openai':
    case 'openai-compatible': {
      const baseUrl = target.provider === 'ollama' ? `${trimSlash(target.baseUrl ?? ollamaUrl)}/v1` : trimSlash(target.baseUrl ?? OPENAI_DEFAULT_BASE_URL);
      const sdk = createOpenAICompatible({ name: target.provider, baseURL: baseUrl, apiKey, includeUsage: true }).chatModel(target.upstreamModelId);
      // includeUsage asks for the token counts in the stream (stream_options), for metering.
      // Plain text messages take a lighter stream (openai-text-stream.ts); the rest goes through the SDK.
      return withLightTextStream(sdk, { baseUrl, apiKey, upstreamModelId: target.upstreamModelId });
    }
  }
}
