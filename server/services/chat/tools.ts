import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ChatCitation, ChatToolCall } from '../../../shared/contracts/chat.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import { REMEMBER_TOOL_NAME, RememberToolInputSchema } from '../../../shared/contracts/personalization.ts';
import { AddDrawBodySchema } from '../../../shared/contracts/plugin.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { t } from '../../core/i18n.ts';
import { drawImage } from '../plugins/draw.ts';
import type { ModelTool } from '../../providers/upstream.ts';
import type { MessagePlugin, ToolName } from '../plugins/plugins.ts';
import { chargePoints, refundPoints } from '../points/ledger.ts';
import { storableText } from '../../core/storable-text.ts';
import { citationsOf, readPage, resultsForModel, searchWeb } from '../search/web-search.ts';

/**
 * The function plugins as tools of the model: their definitions (what the model is told) and their
 * implementations, run when the model calls them during an AddMessage answer.
 */

/** What a call shows people in its collapsible view; the model gets the whole result. */
const DISPLAY_MAX_CHARS = 2000;
/** Of a page read by read_url, at most this much (and at most a third of the context) reaches the model. */
const READ_URL_MAX_CHARS = 20_000;
const CHARS_PER_TOKEN = 3;

const DEFINITIONS: Record<ToolName, ModelTool> = {
  web_search: {
    name: 'web_search',
    description:
      'Search the web for recent or outside information. Answers numbered results (title, address, snippet); cite them as [n] with their numbers.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to search for, as you would type it into a search engine.' } },
      required: ['query'],
      additionalProperties: false,
    },
  },
  read_url: {
    name: 'read_url',
    description: 'Read a public web page by its address. Answers its title and readable text as Markdown.',
    inputSchema: {
      type: 'object',
      properties: { url: { type: 'string', description: 'The http:// or https:// address of the page.' } },
      required: ['url'],
      additionalProperties: false,
    },
  },
  generate_image: {
    name: 'generate_image',
    description: 'Draw an image from a description. The image is shown to the user; answer with a short note on what was drawn.',
    inputSchema: {
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'A detailed description of the image, in English.' },
        size: { type: 'string', enum: ['256x256', '512x512', '1024x1024'], description: 'Default 1024x1024.' },
      },
      required: ['prompt'],
      additionalProperties: false,
    },
  },
  remember: {
    name: REMEMBER_TOOL_NAME,
    description:
      'Propose to remember a fact about the user for future conversations, when the user asks you to remember it. ' +
      'The user is shown the fact and decides whether to save it; it is not saved until they do.',
    inputSchema: {
      type: 'object',
      properties: {
        fact: { type: 'string', description: 'The fact, short and self-contained, in the third person ("Writes Python at work").' },
      },
      required: ['fact'],
      additionalProperties: false,
    },
  },
};

/**
 * The remember tool, offered by the chat when memory is on (server/services/personalization/personalization.ts). Free,
 * and it saves nothing: the answer carries the proposal and the user saves it (POST /api/Memory/Save).
 */
export const REMEMBER_PLUGIN: MessagePlugin = { pluginId: REMEMBER_TOOL_NAME, name: 'Memory', toolName: 'remember', pointsCost: 0 };

export const toolsOf = (plugins: readonly MessagePlugin[]): ModelTool[] => plugins.map((p) => DEFINITIONS[p.toolName]);

const INPUTS = {
  web_search: z.object({ query: z.string().trim().min(1).max(1000) }),
  read_url: z.object({ url: z.string().trim().min(1).max(2048) }),
  generate_image: AddDrawBodySchema,
  remember: RememberToolInputSchema,
} satisfies Record<ToolName, z.ZodType>;

/** What a tool call needs from the message it serves. */
export type ToolScope = {
  ctx: AppContext;
  userId: string;
  messageId: string;
  lang: Language;
  signal: AbortSignal;
  contextWindow: number;
  /** The message's citations so far; web_search appends its results, numbered after them. */
  citations: ChatCitation[];
};

/** A finished call: `modelOutput` goes back to the model; `call` is what people see. */
export type ToolOutcome = { call: ChatToolCall; modelOutput: string; isError: boolean; charged: number };

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

async function execute(scope: ToolScope, toolName: ToolName, input: unknown): Promise<{ output: string; images?: string[] }> {
  const { ctx, signal } = scope;
  switch (toolName) {
    case 'web_search': {
      const { query } = INPUTS.web_search.parse(input);
      const results = await searchWeb(ctx, query, signal);
      // Numbered now, synchronously, so parallel searches never share a number.
      const first = scope.citations.length + 1;
      const numbered = results.map((r, i) => ({ ...r, index: first + i }));
      scope.citations.push(...citationsOf(numbered));
      return { output: resultsForModel(numbered) };
    }
    case 'read_url': {
      const { url } = INPUTS.read_url.parse(input);
      const page = await readPage(ctx, url, { signal });
      const max = Math.min(READ_URL_MAX_CHARS, Math.floor((scope.contextWindow * CHARS_PER_TOKEN) / 3));
      const text = page.markdown.length > max ? `${page.markdown.slice(0, max)}\n[The page continues; it was cut.]` : page.markdown;
      return { output: `Title: ${page.title}\nURL: ${page.url}\n\n${text}` };
    }
    case 'generate_image': {
      const body = INPUTS.generate_image.parse(input);
      const drawn = await drawImage(ctx, scope.userId, body, signal);
      return {
        output: `The image was generated and is already shown to the user (do not repeat its address). Prompt used: ${body.prompt}`,
        images: [drawn.imgSrcAll],
      };
    }
    case 'remember': {
      // Nothing is saved here: the user sees the proposal with the answer and saves it, or not.
      const { fact } = INPUTS.remember.parse(input);
      return {
        output: `Not saved yet: the user is shown "${fact}" with a button to save it to their memory. Tell them briefly they can save it there.`,
      };
    }
  }
}

/**
 * Runs one call the model made: checks its arguments, charges the plugin's points (atomically, never
 * below zero), runs it, and gives the points back when it fails. A refusal or failure is an error
 * result for the model, never a failure of the answer; only a stop (the signal) throws.
 */
export async function runToolCall(
  scope: ToolScope,
  plugin: MessagePlugin | undefined,
  call: { toolCallId: string; toolName: string; input: string },
): Promise<ToolOutcome> {
  const base = { toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, images: [] as string[] };
  const fail = (message: string, charged = 0): ToolOutcome => ({
    call: { ...base, status: 'error', output: clip(message, DISPLAY_MAX_CHARS) },
    modelOutput: message,
    isError: true,
    charged,
  });
  if (!plugin) return fail(`There is no tool named ${call.toolName}.`);
  let input: unknown;
  try {
    input = JSON.parse(call.input || '{}');
  } catch {
    return fail('The arguments are not valid JSON.');
  }
  const parsed = INPUTS[plugin.toolName].safeParse(input);
  if (!parsed.success) return fail(`Invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);

  const { ctx, userId, messageId } = scope;
  const cost = plugin.pointsCost;
  // A model may reuse its call ids across rounds: each call is its own charge.
  const chargeId = randomUUID();
  const ref = { kind: 'plugin' as const, key: `plugin:${chargeId}`, refId: messageId };
  if (cost > 0 && !(await chargePoints(ctx.db, userId, cost, ctx.config.FREE_DAILY_POINTS, ref))) return fail(t(scope.lang, 'notEnoughPoints'));
  try {
    const done = await execute(scope, plugin.toolName, parsed.data);
    // What a tool brings back (a page, search results) is shown and stored.
    const output = storableText(done.output);
    return {
      call: { ...base, status: 'completed', output: clip(output, DISPLAY_MAX_CHARS), images: done.images ?? [] },
      modelOutput: output,
      isError: false,
      charged: cost,
    };
  } catch (err) {
    await refundPoints(ctx.db, userId, cost, { key: `refund:plugin:${chargeId}`, refId: messageId });
    if (scope.signal.aborted) throw scope.signal.reason;
    if (err instanceof AppError) return fail(t(scope.lang, err.key, err.params));
    ctx.log.warn({ err, toolName: plugin.toolName, messageId }, 'tool call failed');
    return fail(`The ${plugin.toolName} tool failed.`);
  }
}
