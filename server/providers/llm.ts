import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { DeploymentProtocol, Provider } from '../../shared/contracts/model.ts';

export type { DeploymentProtocol };
import { withLightTextStream } from './openai-text-stream.ts';

export type UpstreamModel = LanguageModelV3;

export type UpstreamTarget = {
  provider: Provider;
  /** Null: the provider's default; for Ollama the server's OLLAMA_URL. */
  baseUrl: string | null;
  apiKey: string | null;
  upstreamModelId: string;
  /** What an OpenAI-style deployment speaks: chat completions (default) or the Responses API. */
  protocol?: DeploymentProtocol;
};

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * The AI SDK model object of one deployment. `createOpenAI` would call the Responses API, which
 * OpenAI-compatible servers (Ollama, vLLM, DeepSeek) lack, so every OpenAI-style provider goes
 * through the chat-completions client, unless its deployment's protocol says 'responses'.
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
      // A deployment set to the Responses API (models offered only there): OpenAI's own client for it.
      if (target.protocol === 'responses') return createOpenAI({ name: target.provider, baseURL: baseUrl, apiKey }).responses(target.upstreamModelId);
      const sdk = createOpenAICompatible({ name: target.provider, baseURL: baseUrl, apiKey, includeUsage: true }).chatModel(target.upstreamModelId);
      // includeUsage asks for the token counts in the stream (stream_options), for metering.
      // Plain text messages take a lighter stream (openai-text-stream.ts); the rest goes through the SDK.
      return withLightTextStream(sdk, { baseUrl, apiKey, upstreamModelId: target.upstreamModelId });
    }
  }
}
