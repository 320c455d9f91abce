import { randomBytes } from 'node:crypto';
import type { AddMessageBody } from '../../../shared/contracts/chat.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import type { MessageQuickFunction, MessageSelection } from '../../../shared/contracts/quick-function.ts';
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
  if (!body.quickFunctionId && !body.selection) return plainFraming(body);
  const tool = body.quickFunctionId ? await quickFunctionForMessage(ctx, userId, body.quickFunctionId, lang) : null;
  const selection = body.selection ? { text: body.selection.text, title: body.selection.title, url: body.selection.url } : null;
  const rendered = renderQuickFunction({ template: tool?.template ?? '', input: body.inputMessage, language: lang, selection, marker });
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

/** An earlier message's text and parts for the model, as they were first sent (a fresh marker). */
export function historyFraming(h: { input: string; promptText?: string | null; selection?: MessageSelection | null }, lang: Language) {
  const parts = h.selection?.text ? [delimitAttachment({ ...h.selection, source: 'selection' }, lang, marker)] : [];
  return { text: h.promptText ?? h.input, parts };
}
