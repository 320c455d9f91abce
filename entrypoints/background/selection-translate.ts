import type { Browser } from 'wxt/browser';
import { browser } from 'wxt/browser';
import { z } from 'zod';
import { TRANSLATE_MAX_SEGMENT_CHARS, TranslateLanguageSchema, type TransTextBody } from '../../shared/contracts/translate.ts';
import { MAX_TRANSLATE_TEXT, SELECTION_MESSAGE_SOURCE, type TranslateReply } from '../../shared/utils/sider-settings.ts';
import { callTranslate } from './translate-call.ts';

const TranslateRequestSchema = z.object({
  source: z.literal(SELECTION_MESSAGE_SOURCE),
  type: z.literal('translate'),
  text: z.string().trim().min(1).max(MAX_TRANSLATE_TEXT),
  targetLanguage: TranslateLanguageSchema,
});

/** True for a message that asks for a translation (whether or not it is valid: handleTranslateMessage answers it). */
export function isTranslateMessage(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { source?: unknown }).source === SELECTION_MESSAGE_SOURCE && (message as { type?: unknown }).type === 'translate';
}

/**
 * Cuts a long text into segments the server takes (each at most TRANSLATE_MAX_SEGMENT_CHARS), at
 * line breaks where it can; the translations are joined back with line breaks.
 */
export function segmentsOf(text: string): string[] {
  const segments: string[] = [];
  let current = '';
  const push = () => {
    if (current) segments.push(current);
    current = '';
  };
  for (let line of text.split('\n')) {
    while (line.length > TRANSLATE_MAX_SEGMENT_CHARS) {
      push();
      segments.push(line.slice(0, TRANSLATE_MAX_SEGMENT_CHARS));
      line = line.slice(TRANSLATE_MAX_SEGMENT_CHARS);
    }
    if (current && current.length + 1 + line.length > TRANSLATE_MAX_SEGMENT_CHARS) push();
    current = current ? `${current}\n${line}` : line;
  }
  push();
  return segments;
}

async function translate(text: string, targetLanguage: TransTextBody['targetLanguage']): Promise<TranslateReply> {
  const body: TransTextBody = text.length <= TRANSLATE_MAX_SEGMENT_CHARS ? { text, targetLanguage } : { segments: segmentsOf(text), targetLanguage };
  const outcome = await callTranslate(body);
  if (outcome.ok) return { ok: true, text: outcome.result.translations.join('\n') };
  // The card shows the server's message for too many requests (it says when to try again).
  const reason = outcome.reason === 'noPoints' ? 'points' : outcome.reason === 'busy' ? 'failed' : outcome.reason;
  return { ok: false, reason, message: outcome.message };
}

/**
 * The selection card's and the typed-text trigger's translation (content scripts cannot call the
 * server). Only this extension's content script in a tab's top frame is answered, and the payload
 * is checked; `respond` gets a TranslateReply. Answers true (the reply comes later).
 */
export function handleTranslateMessage(message: unknown, sender: Browser.runtime.MessageSender, respond: (reply: TranslateReply) => void): boolean {
  if (sender.id !== browser.runtime.id || sender.tab === undefined || (sender.frameId ?? 0) !== 0) return false;
  const parsed = TranslateRequestSchema.safeParse(message);
  if (!parsed.success) {
    respond({ ok: false, reason: 'failed', message: '' });
    return false;
  }
  void translate(parsed.data.text, parsed.data.targetLanguage).then(respond, (error: unknown) =>
    respond({ ok: false, reason: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
  return true;
}
