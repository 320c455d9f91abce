import { APICallError, generateText } from 'ai';
import type { JSONSchema7, LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { UpstreamFailure, type UpstreamFailureKind } from '../core/upstream-failure.ts';
import type { UpstreamModel } from './llm.ts';

/**
 * The project's own view of a model call: conversation turns in, a reader of text / tool-call /
 * finish parts out, and failures as UpstreamFailure with a kind. Services see only this; the AI
 * SDK's prompt and part types stay in server/providers/ (docs/architecture.md#layers).
 */

/** An image a user turn shows a vision model: its bytes (already downscaled) and sniffed type. */
export type TurnImage = { mediaType: string; data: Uint8Array };
/** `images` only on user turns, and only for models whose modelMap.isImage (others never receive them). */
export type ChatTurn = {
  role: 'system' | 'user' | 'assistant';
  content: string;
  images?: TurnImage[];
  /** Further text parts of a user turn, sent as separate content parts after `content` (a delimited page selection). */
  parts?: string[];
  /**
   * Files the upstream already holds (the Responses API's `/files`), by the upstream's id: sent as
   * input_file parts (input_image for images). Only a Responses deployment can read them.
   */
  upstreamFiles?: UpstreamFileRef[];
};
/** A file uploaded to the deployment: its upstream id (`file-…`) and sniffed MIME type. */
export type UpstreamFileRef = { fileId: string; mimeType: string };
export type StreamPart =
  | { type: 'text'; text: string }
  /** `usage`: the tokens the provider reported for this call, when it did (token metering). */
  | { type: 'finish'; reason: string; usage?: TokenUsage }
  /** The model asks to run a tool; `input` is its arguments as JSON text. */
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: string };
export type TokenUsage = { inputTokens: number; outputTokens: number };
/** A function the model may call (a function plugin); inputSchema is a JSON schema of its arguments. */
export type ModelTool = { name: string; description: string; inputSchema: JSONSchema7 };
/** One round of tool use, fed back to the model after the conversation: what it said and called, then what each call returned. */
export type ToolRound = {
  text: string;
  calls: { toolCallId: string; toolName: string; input: string }[];
  results: { toolCallId: string; toolName: string; output: string; isError: boolean }[];
};

/** Providers say "context length", "maximum context", "too many tokens", "prompt is too long", ... */
const CONTEXT_TOO_LONG = /context.{0,20}(length|window|limit)|maximum.{0,20}tokens|too many tokens|prompt is too long|token limit|too long/i;

function kindOfStatus(status: number, message: string): UpstreamFailureKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not-found';
  if (status === 408 || status === 504) return 'timeout';
  if ((status === 400 || status === 413 || status === 422) && CONTEXT_TOO_LONG.test(message)) return 'context-too-long';
  if (status === 400 || status === 413 || status === 422) return 'request';
  return 'busy';
}

/** Any error of a model call as an UpstreamFailure (already one: unchanged). */
export function upstreamFailureOf(err: unknown): UpstreamFailure {
  if (err instanceof UpstreamFailure) return err;
  if (APICallError.isInstance(err)) {
    const status = err.statusCode;
    return new UpstreamFailure(status === undefined ? 'busy' : kindOfStatus(status, err.message), err.message, status);
  }
  if (err instanceof Error) {
    const timedOut = err.name === 'TimeoutError' || /ETIMEDOUT|timed? ?out/i.test(err.message);
    return new UpstreamFailure(timedOut ? 'timeout' : 'busy', err.message);
  }
  const inner = (err as { message?: unknown } | null)?.message;
  return new UpstreamFailure('busy', typeof inner === 'string' ? inner : JSON.stringify(err));
}

function toPrompt(messages: ChatTurn[], canSeeImages: boolean): LanguageModelV3Prompt {
  return messages.map((m) => {
    if (m.role === 'system') return { role: 'system', content: m.content };
    if (m.role === 'assistant') return { role: 'assistant', content: [{ type: 'text', text: m.content }] };
    // A model that cannot take images never receives them, whatever the caller passed.
    const images = canSeeImages ? (m.images ?? []) : [];
    return {
      role: 'user',
      content: [
        ...images.map((i) => ({ type: 'file' as const, mediaType: i.mediaType, data: i.data })),
        // An id string as the data: the Responses client sends it as file_id. Its media type only picks
        // input_image or input_file (any non-image goes as input_file, which the client takes as PDF).
        ...(m.upstreamFiles ?? []).map((f) => ({
          type: 'file' as const,
          mediaType: f.mimeType.startsWith('image/') ? f.mimeType : 'application/pdf',
          data: f.fileId,
        })),
        { type: 'text', text: m.content },
        ...(m.parts ?? []).map((text) => ({ type: 'text' as const, text })),
      ],
    };
  });
}

const parseToolInput = (input: string): unknown => {
  try {
    return JSON.parse(input);
  } catch {
    return {};
  }
};

function roundsToPrompt(rounds: readonly ToolRound[]): LanguageModelV3Prompt {
  return rounds.flatMap((r): LanguageModelV3Prompt => [
    {
      role: 'assistant',
      content: [
        ...(r.text ? [{ type: 'text' as const, text: r.text }] : []),
        ...r.calls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.toolCallId, toolName: c.toolName, input: parseToolInput(c.input) })),
      ],
    },
    {
      role: 'tool',
      content: r.results.map((x) => ({
        type: 'tool-result' as const,
        toolCallId: x.toolCallId,
        toolName: x.toolName,
        output: x.isError ? { type: 'error-text' as const, value: x.output } : { type: 'text' as const, value: x.output },
      })),
    },
  ]);
}

/** Maps one provider part to ours; undefined for parts we do not forward (reasoning, metadata...). */
function mapPart(part: LanguageModelV3StreamPart): StreamPart | undefined {
  switch (part.type) {
    case 'text-delta':
      return part.delta ? { type: 'text', text: part.delta } : undefined;
    case 'finish': {
      const input = part.usage.inputTokens.total;
      const output = part.usage.outputTokens.total;
      // Both counts or neither: a half-reported usage is estimated whole (chat/rounds.ts).
      const usage = typeof input === 'number' && typeof output === 'number' ? { inputTokens: input, outputTokens: output } : undefined;
      return { type: 'finish', reason: part.finishReason.unified, ...(usage ? { usage } : {}) };
    }
    case 'tool-call':
      return part.providerExecuted ? undefined : { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
    case 'error':
      throw upstreamFailureOf(part.error);
    default:
      return undefined;
  }
}

/** Reads one model answer part by part; null at the end of the stream. */
export type PartReader = { read(): Promise<StreamPart | null>; cancel(): void };

export type UpstreamRequest = {
  messages: ChatTurn[];
  canSeeImages: boolean;
  signal: AbortSignal;
  /** Functions the model may call; 'none' (the last round of a tool loop) makes it answer in text. */
  tools?: ModelTool[];
  toolChoice?: 'auto' | 'none';
  toolRounds?: readonly ToolRound[];
  /** The chat's parameters (ParamTools), already clamped to the model's bounds; absent: not sent. */
  temperature?: number;
  maxOutputTokens?: number;
};

/** Calls one deployment's model and reads its answer as our parts. Failures are UpstreamFailure. */
export async function openUpstreamStream(model: UpstreamModel, req: UpstreamRequest): Promise<PartReader> {
  const turns = toPrompt(req.messages, req.canSeeImages);
  const prompt = req.toolRounds?.length ? [...turns, ...roundsToPrompt(req.toolRounds)] : turns;
  const tools = req.tools?.length
    ? {
        tools: req.tools.map((t) => ({ type: 'function' as const, name: t.name, description: t.description, inputSchema: t.inputSchema })),
        toolChoice: { type: req.toolChoice ?? 'auto' },
      }
    : {};
  // An abort (a stop, a timeout of the caller's) is not the upstream's failure: it passes as it is.
  const failure = (err: unknown) => (req.signal.aborted ? err : upstreamFailureOf(err));
  let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart>;
  try {
    const sampling = {
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(req.maxOutputTokens !== undefined ? { maxOutputTokens: req.maxOutputTokens } : {}),
    };
    reader = (await model.doStream({ prompt, ...tools, ...sampling, abortSignal: req.signal })).stream.getReader();
  } catch (err) {
    throw failure(err);
  }
  return {
    async read() {
      for (;;) {
        let next: ReadableStreamReadResult<LanguageModelV3StreamPart>;
        try {
          next = await reader.read();
        } catch (err) {
          throw failure(err);
        }
        if (next.done) return null;
        const part = mapPart(next.value);
        if (part) return part;
      }
    },
    cancel: () => void reader.cancel().catch(() => {}),
  };
}

export type GenerateRequest = {
  /** The instructions (the system prompt) and the one user message. */
  system: string;
  prompt: string;
  signal: AbortSignal;
  temperature?: number;
  maxOutputTokens?: number;
};

/**
 * One whole (non-streaming) answer of one deployment's model, as text: for calls whose answer is
 * read only once complete (a translation's JSON). No retries here: the caller fails over across
 * deployments. Failures are UpstreamFailure, an abort of the caller's passes as it is.
 */
export async function generateUpstreamText(model: UpstreamModel, req: GenerateRequest): Promise<string> {
  try {
    const result = await generateText({
      model,
      system: req.system,
      prompt: req.prompt,
      abortSignal: req.signal,
      maxRetries: 0,
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(req.maxOutputTokens !== undefined ? { maxOutputTokens: req.maxOutputTokens } : {}),
    });
    return result.text;
  } catch (err) {
    throw req.signal.aborted ? err : upstreamFailureOf(err);
  }
}
