import type { TokenPrice } from '../../../shared/contracts/model.ts';
import type { DeploymentFailure } from './model-stream.ts';

/**
 * Token counts for answers whose provider reported none (docs/admin-stats.md#token-metering): about
 * one token per CJK character (Han, kana, Hangul) and one per four other characters, the usual rule
 * of thumb for BPE tokenizers. Rows counted this way carry tokens_estimated, so the dashboard can say
 * how much of a figure is estimated. Images and tool schemas are not counted.
 */

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const LATIN_CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  if (!text) return 0;
  const cjk = text.match(CJK)?.length ?? 0;
  // Code points, not UTF-16 units: an emoji is one character (a low surrogate is not counted).
  let chars = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff) chars++;
  }
  return cjk + Math.ceil((chars - cjk) / LATIN_CHARS_PER_TOKEN);
}

/** A conversation's tokens: every turn's text and text parts. */
export function estimateTurnTokens(turns: readonly { content: string; parts?: string[] }[]): number {
  let tokens = 0;
  for (const turn of turns) {
    tokens += estimateTokens(turn.content);
    for (const part of turn.parts ?? []) tokens += estimateTokens(part);
  }
  return tokens;
}

/** What an answer's row records of its model calls (written with the answer's end: chat/answer-store.ts). */
export type AnswerMetering = {
  /** The deployment that gave the last model call's answer; null when none answered. */
  deploymentId: string | null;
  inputTokens: number;
  outputTokens: number;
  /** Some call's tokens were estimated (its provider reported none, or it was cut short). */
  estimated: boolean;
  /** The first call's time to its first output. */
  firstTokenMs: number | null;
  failures: DeploymentFailure[];
};

export const newMetering = (): AnswerMetering => ({ deploymentId: null, inputTokens: 0, outputTokens: 0, estimated: false, firstTokenMs: null, failures: [] });

/**
 * Adds one model call (a round of the answer) that a deployment answered: its reported usage, or,
 * without one, the estimate of what it was sent (`sent`) and what it said (`said`).
 */
export function meterCall(
  m: AnswerMetering,
  call: { deploymentId: string; firstTokenMs: number; usage: { inputTokens: number; outputTokens: number } | undefined; sent: () => number; said: string },
): void {
  m.deploymentId = call.deploymentId;
  m.firstTokenMs ??= call.firstTokenMs;
  if (call.usage) {
    m.inputTokens += call.usage.inputTokens;
    m.outputTokens += call.usage.outputTokens;
    return;
  }
  m.estimated = true;
  m.inputTokens += call.sent();
  m.outputTokens += estimateTokens(call.said);
}

/** The tokens of earlier tool rounds sent again with a call: what the model said and called, and the results. */
export function estimateToolRoundTokens(
  rounds: readonly { text: string; calls: readonly { input: string }[]; results: readonly { output: string }[] }[],
): number {
  let tokens = 0;
  for (const round of rounds) {
    tokens += estimateTokens(round.text);
    for (const call of round.calls) tokens += estimateTokens(call.input);
    for (const result of round.results) tokens += estimateTokens(result.output);
  }
  return tokens;
}

/** Points no single answer is charged beyond (a column of integers holds it with room to spare). */
const MAX_ANSWER_POINTS = 1_000_000_000;

/** A price per 1,000 tokens as stored: points per million tokens (the contract allows three decimals). */
export const perMillion = (per1k: number): number => Math.round(per1k * 1000);

/**
 * What an answer's tokens cost at `price` (docs/economy.md#token-pricing): points per 1,000 tokens,
 * summed over input and output and rounded up to whole points. Exact: the prices are thousandths.
 */
export function tokenCost(price: TokenPrice, tokens: { inputTokens: number; outputTokens: number }): number {
  const total = BigInt(tokens.inputTokens) * BigInt(perMillion(price.inputPer1k)) + BigInt(tokens.outputTokens) * BigInt(perMillion(price.outputPer1k));
  const points = (total + 999_999n) / 1_000_000n;
  return points > BigInt(MAX_ANSWER_POINTS) ? MAX_ANSWER_POINTS : Number(points);
}
