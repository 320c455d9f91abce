import type { ChatExchange } from '../../shared/contracts/chat.ts';
import { stripProductTags } from '../../shared/utils/strip-tags.ts';

export type MarkdownLabels = { you: string; attachments: string; sources: string; exported: string };

/**
 * A file name from a chat title: no characters file systems refuse, never empty, and no "…" or
 * dots at its end (a title cut short ends with one; "notes….pdf" reads as a broken name).
 */
export function fileNameFor(title: string, extension: string): string {
  const printable = Array.from(title, (c) => (c.charCodeAt(0) < 32 ? ' ' : c)).join('');
  const base = printable.replace(/[\\/:*?"<>|]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 80);
  return `${base.replace(/[\s.…]+$/u, '') || 'chat'}.${extension}`;
}

/**
 * A chat as Markdown: the title, then each exchange (the question as a quote-free heading block,
 * the answer exactly as the model wrote it, so math and code stay as source), the attachments
 * listed by name and address, and the cited sources. Without `heading`, the title line is left out
 * (the PDF export sends the title apart: the server sets it at the top of the first page).
 */
export function chatToMarkdown(title: string, messages: readonly ChatExchange[], labels: MarkdownLabels, exportedAt: string, { heading = true } = {}): string {
  const parts = [...(heading ? [`# ${title.replace(/\n/g, ' ')}`] : []), `_${labels.exported} ${exportedAt}_`];
  for (const m of messages) {
    parts.push(`## ${labels.you}`, m.inputMessage.trim() || '…');
    const attached = [
      ...m.chatMedias.map((media) => (media.url && /^https?:/.test(media.url) ? `- [${media.title || media.mediaType}](${media.url})` : `- ${media.title || media.mediaType}`)),
      ...(m.selection ? [`- ${m.selection.title || m.selection.url || '—'}${m.selection.url ? ` (${m.selection.url})` : ''}`] : []),
    ];
    if (attached.length) parts.push(`**${labels.attachments}**\n\n${attached.join('\n')}`);
    parts.push(`## ${m.modelName ?? 'AI'}`, stripProductTags(m.outputMessage).trim() || '…');
    if (m.citations.length) parts.push(`**${labels.sources}**\n\n${m.citations.map((c) => `${c.index}. [${c.title || c.url}](${c.url})`).join('\n')}`);
  }
  return `${parts.join('\n\n')}\n`;
}
