import type { ChatCitation, ChatToolCall } from '../../../shared/contracts/chat.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import type { AppContext } from '../../context.ts';
import { UpstreamFailure } from '../../core/upstream-failure.ts';
import type { ChatTurn, StreamPart, TokenUsage, ToolRound } from '../../providers/upstream.ts';
import type { PreparedMessage } from './prepare.ts';
import { CHARS_PER_TOKEN } from './context-budget.ts';
import { runToolCall, toolsOf, type ToolScope } from './tools.ts';
import { openModelStream } from './model-stream.ts';
import { storableText, withoutNul } from '../../core/storable-text.ts';
import { estimateToolRoundTokens, estimateTurnTokens, meterCall, type AnswerMetering } from './token-metering.ts';
import { citationsOf, readSources, searchWeb, sourcesPreamble } from '../search/web-search.ts';
import { withVideoPartSummaries } from './video-parts.ts';

/**
 * The middle of an answer: web search first when asked, then rounds of model output and tool calls
 * until the model answers in text (at most MAX_TOOL_ROUNDS rounds of tools).
 */

/** Of the model's context, the share the pages of a web-searched message may take. */
const SOURCES_SHARE_OF_CONTEXT = 0.3;
/** Rounds of tool calls one answer may make; the round after the last must answer in text. */
const MAX_TOOL_ROUNDS = 4;

type ToolCallPart = Extract<StreamPart, { type: 'tool-call' }>;

/** What the rounds read and change of the answer being streamed. */
export type AnswerState = {
  ctx: AppContext;
  p: PreparedMessage;
  lang: Language;
  signal: AbortSignal;
  /** Settles when the user's message is stored (its statement runs beside the first model call). */
  stored: Promise<unknown>;
  output: string;
  modelId: string;
  modelName: string;
  citations: ChatCitation[];
  toolCalls: ChatToolCall[];
  toolPoints: number;
  /** Steps done before the answer's text (a long video's part summaries): the answer is not idle while they advance. */
  progress: number;
  /** Tokens, deployment, first-output time and failed attempts, stored with the answer's end. */
  metering: AnswerMetering;
  /** Text for the user (sent and stored). */
  onText(text: string): void;
  /** Sources or tool calls changed (sent whole and stored). */
  onExtras(): void;
};

/** Searches the web and gives the model the pages it could read as numbered sources. */
async function withWebSources(s: AnswerState, turns: ChatTurn[]): Promise<ChatTurn[]> {
  const { ctx, p } = s;
  const results = await searchWeb(ctx, p.input, s.signal);
  const budgetChars = Math.floor(p.resolved.model.contextWindow * CHARS_PER_TOKEN * SOURCES_SHARE_OF_CONTEXT);
  const sources = await readSources(ctx, results, { signal: s.signal, budgetChars });
  s.citations.push(...citationsOf(sources));
  s.onExtras();
  return [{ role: 'system', content: sourcesPreamble(sources) }, ...turns];
}

/** Runs one round's calls in parallel; waits for all of them, so none outlives a stop. */
async function runCalls(s: AnswerState, calls: ToolCallPart[]): Promise<ToolRound['results']> {
  // Tools charge points and write rows that name the message: only once it is stored.
  await s.stored;
  const scope: ToolScope = {
    ctx: s.ctx,
    userId: s.p.userId,
    messageId: s.p.messageId,
    lang: s.lang,
    signal: s.signal,
    contextWindow: s.p.resolved.model.contextWindow,
    citations: s.citations,
  };
  const settled = await Promise.allSettled(
    calls.map(async (call) => {
      const { toolCallId, toolName, input } = call;
      const slot = s.toolCalls.push({ toolCallId, toolName, input, status: 'running', output: '', images: [] }) - 1;
      s.onExtras();
      const outcome = await runToolCall(scope, s.p.plugins.find((x) => x.toolName === call.toolName), call);
      s.toolCalls[slot] = outcome.call;
      s.toolPoints += outcome.charged;
      s.onExtras();
      return { toolCallId, toolName, output: outcome.modelOutput, isError: outcome.isError };
    }),
  );
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<ToolRound['results'][number]>).value);
}

type RoundResult = { said: string; calls: ToolCallPart[]; upstreamFinish: string | null };

/** One model call: its text goes to the user as it comes, its tool calls are collected. */
async function streamRound(s: AnswerState, turns: ChatTurn[], round: number, rounds: ToolRound[]): Promise<RoundResult> {
  const tools = s.p.plugins.length ? toolsOf(s.p.plugins) : undefined;
  const opened = await openModelStream(s.ctx, s.p.resolved, {
    messages: turns,
    signal: s.signal,
    onFailure: (failure) => s.metering.failures.push(failure),
    ...s.p.sampling,
    responses: s.p.responses,
    ...(tools ? { tools, toolRounds: rounds, toolChoice: round === MAX_TOOL_ROUNDS ? 'none' : 'auto' } : {}),
  });
  s.modelId = opened.modelId;
  s.modelName = opened.modelName;
  const result: RoundResult = { said: '', calls: [], upstreamFinish: null };
  let usage: TokenUsage | undefined;
  // What the model produced in this call, for the estimate when its provider reports no usage.
  let produced = '';
  try {
    for await (const part of opened.parts) {
      if (part.type === 'finish') [result.upstreamFinish, usage] = [part.reason, part.usage];
      else if (part.type === 'tool-call') {
        const call = { ...part, toolCallId: storableText(part.toolCallId), toolName: storableText(part.toolName), input: storableText(part.input) };
        result.calls.push(call);
        produced += call.input;
      } else if (part.text) {
        // A NUL (a model repeating a page or file it read) cannot be stored in text: it is dropped
        // here, so what the user is shown is what is stored.
        const said = withoutNul(part.text);
        if (!said) continue;
        produced += said;
        // Text after a round of tool calls starts a paragraph of its own.
        const text = round > 0 && !result.said && s.output && !/\s$/.test(s.output) ? `\n\n${said}` : said;
        s.output += text;
        if (tools) result.said += text;
        s.onText(text);
      }
    }
  } finally {
    const { deploymentId, firstTokenMs } = opened;
    meterCall(s.metering, { deploymentId, firstTokenMs, usage, said: produced, sent: () => estimateTurnTokens(turns) + estimateToolRoundTokens(rounds) });
  }
  // A provider that ends its answer in error (Gemini's MALFORMED_FUNCTION_CALL) failed like any other.
  if (result.upstreamFinish === 'error') throw new UpstreamFailure('request', 'the model ended its answer with an error');
  return result;
}

/**
 * Runs the answer to its end and returns the upstream's finish reason (null when the model still
 * asked for tools after the last round: it has answered what it could).
 */
export async function runAnswerRounds(s: AnswerState): Promise<string | null> {
  // A long video attached is summarised in parts first (chat/video-parts.ts); other messages pass as they are.
  const asked = s.p.videoParts ? await withVideoPartSummaries(s) : s.p.turns;
  const turns = s.p.webSearch ? await withWebSources(s, asked) : asked;
  const rounds: ToolRound[] = [];
  for (let round = 0; ; round++) {
    const { said, calls, upstreamFinish } = await streamRound(s, turns, round, rounds);
    if (!calls.length || round === MAX_TOOL_ROUNDS) return upstreamFinish === 'tool-calls' ? null : upstreamFinish;
    rounds.push({ text: said, calls, results: await runCalls(s, calls) });
  }
}
