import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { stripProductTags } from '../../../shared/utils/strip-tags.ts';
import { AppError } from '../../core/errors.ts';
import { chatMessages } from '../../db/schema/chat.ts';
import type { AddMessageBody } from '../../../shared/contracts/chat.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import { MAX_SELECTION_CHARS, type MessageQuickFunction, type MessageSelection } from '../../../shared/contracts/quick-function.ts';
import type { AppContext } from '../../context.ts';
import { delimitAttachment, renderQuickFunction } from '../quick-functions/quick-function-template.ts';
import { quickFunctionForMessage } from '../quick-functions/quick-functions.ts';

/**
 * How a message that uses a quick function and/or a page selection reaches the model and the
 * database (docs/api.md#quick-functions-and-prompts): the tool's rendered template is the instruction text, the
 * selection a separate delimited part; the stored input is what the user typed, or the tool's name.
 */
export type MessageFraming = {
  /** Stored as the message's inputMessage. */
  storedInput: string;
  /** What a new chat's title is made from: the typed input, or the tool's name with the start of the selection it ran on. */
  titleText: string;
  /** The instruction text the model gets in place of the input. */
  modelText: string;
  /** Further user content parts (the delimited selection). */
  parts: string[];
  quickFunction: MessageQuickFunction | null;
  selection: MessageSelection | null;
  /** The rendered template, stored so that later turns show the model the same text; null without a tool. */
  promptText: string | null;
};

const marker = () => randomBytes(12).toString('hex');

/** A message without a tool or a selection: the input as it is (no lookup, nothing to await). */
export function plainFraming(body: Pick<AddMessageBody, 'inputMessage'>): MessageFraming {
  return { storedInput: body.inputMessage, titleText: body.inputMessage, modelText: body.inputMessage, parts: [], quickFunction: null, selection: null, promptText: null };
}

/** The tool comes from the quick-function cache (no database read once warm); another user's id is 10404. */
export async function frameMessage(ctx: AppContext, userId: string, body: AddMessageBody, lang: Language): Promise<MessageFraming> {
  const attached = body.attachments?.[0];
  if (!body.quickFunctionId && !body.selection && !attached) return plainFraming(body);
  const tool = body.quickFunctionId ? await quickFunctionForMessage(ctx, userId, body.quickFunctionId, lang) : null;
  const quoted = attached ? await quotedAnswer(ctx, userId, attached.chatMessageId) : null;
  const selection: MessageSelection | null = body.selection ? { text: body.selection.text, title: body.selection.title, url: body.selection.url } : quoted;
  const rendered = renderQuickFunction({
    template: tool?.template ?? '',
    input: body.inputMessage,
    language: lang,
    selection: selection && { text: selection.text, title: selection.title, url: selection.url, fromChat: !!selection.chatMessageId },
    marker,
  });
  return {
    storedInput: body.inputMessage || tool?.name || '',
    titleText: body.inputMessage || [tool?.name, selection?.text.trim()].filter(Boolean).join(': '),
    modelText: rendered.text,
    parts: rendered.attachment ? [rendered.attachment] : [],
    quickFunction: tool ? { quickFunctionId: tool.quickFunctionId, name: tool.name, icon: tool.icon } : null,
    selection,
    promptText: tool ? rendered.text : null,
  };
}

/**
 * The attachment kind "chat message": an earlier answer of the caller's own, by id, as the attached
 * text (without the product's custom tags). Another user's message, a deleted one, or one without text
 * yet is refused (quotedAnswerNotFound, quotedAnswerEmpty) before anything is charged.
 */
async function quotedAnswer(ctx: AppContext, userId: string, chatMessageId: string): Promise<MessageSelection> {
  const [message] = await ctx.db
    .select({ output: chatMessages.outputMessage })
    .from(chatMessages)
    .where(and(eq(chatMessages.id, chatMessageId), eq(chatMessages.userId, userId)));
  if (!message) throw new AppError(Codes.NotFound, 'quotedAnswerNotFound');
  const text = stripProductTags(message.output).trim().slice(0, MAX_SELECTION_CHARS);
  if (!text) throw new AppError(Codes.BadRequest, 'quotedAnswerEmpty');
  return { text, title: '', url: '', chatMessageId };
}

/** An earlier message's text and parts for the model, as they were first sent (a fresh marker). */
export function historyFraming(h: { input: string; promptText?: string | null; selection?: MessageSelection | null }, lang: Language) {
  const { chatMessageId, ...attached } = h.selection ?? { text: '', title: '', url: '' };
  const parts = attached.text ? [delimitAttachment({ ...attached, source: chatMessageId ? 'chat message' : 'selection' }, lang, marker)] : [];
  return { text: h.promptText ?? h.input, parts };
}
