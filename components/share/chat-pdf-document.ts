import type { ChatExchange } from '../../shared/contracts/chat.ts';
import { citationSet, type CitationSource } from '../../shared/markdown/citations.ts';
import { highlightCode, resolveLanguage } from '../../shared/markdown/highlight.ts';
import { loadKatex } from '../../shared/markdown/math.ts';
import { markdown, type RenderEnv } from '../../shared/markdown/render.ts';
import { stripProductTags } from '../../shared/utils/strip-tags.ts';
import type { MarkdownLabels } from './chat-markdown.ts';

export type PdfLabels = MarkdownLabels & {
  /** Text of an answer's image, which a PDF shows as its address only; `{host}` stands for the host. */
  image: string;
};

/**
 * An answer as the app shows it once it has finished: the app's renderer, with KaTeX loaded and its
 * code highlighted (both load on demand, so the first pass says what the second one needs).
 */
async function renderAnswer(text: string, citations: readonly CitationSource[], imageLabel: string): Promise<string> {
  const cites = citationSet(citations);
  const first: RenderEnv = { copyLabel: '', citations: cites, imageLabel, fences: [] };
  const html = markdown.render(text, first);
  if (!first.mathPending && !first.unhighlighted) return html;
  await Promise.all([
    first.mathPending ? loadKatex() : undefined,
    ...(first.fences ?? []).filter((fence) => resolveLanguage(fence.lang) !== undefined).map((fence) => highlightCode(fence.code, fence.lang)),
  ]);
  return markdown.render(text, { copyLabel: '', citations: cites, imageLabel } satisfies RenderEnv);
}

function element<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = doc.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function labelled(doc: Document, className: string, label: string): HTMLDivElement {
  const block = element(doc, 'div', className);
  block.append(element(doc, 'div', 'chat-pdf-label', label));
  return block;
}

/** What was attached to a question, by name (and address for pages); their content is not exported. */
function attachmentNames(message: ChatExchange): string[] {
  return [
    ...message.chatMedias.map((media) => media.title || media.mediaType),
    ...(message.selection ? [[message.selection.title, message.selection.url].filter(Boolean).join(' · ') || '—'] : []),
  ];
}

function turn(doc: Document, message: ChatExchange, answerHtml: string, labels: PdfLabels): HTMLElement {
  const section = element(doc, 'section', 'chat-pdf-turn');
  const question = labelled(doc, 'chat-pdf-user', labels.you);
  question.append(element(doc, 'div', 'chat-pdf-question', message.inputMessage.trim() || '…'));
  const attached = attachmentNames(message);
  if (attached.length) {
    const list = labelled(doc, 'chat-pdf-attachments', labels.attachments);
    const items = element(doc, 'ul', '');
    for (const name of attached) items.append(element(doc, 'li', '', name));
    list.append(items);
    question.append(list);
  }
  const answer = labelled(doc, 'chat-pdf-assistant', message.modelName ?? 'AI');
  const body = element(doc, 'div', 'md-view');
  // The renderer's own output: no raw HTML, checked links, images as inert placeholders.
  body.innerHTML = answerHtml || '<p>…</p>';
  answer.append(body);
  if (message.citations.length) {
    const sources = labelled(doc, 'chat-pdf-sources', labels.sources);
    const items = element(doc, 'ol', '');
    for (const c of message.citations) {
      const item = element(doc, 'li', '', `${c.title || c.url} — ${c.url}`);
      item.value = c.index;
      items.append(item);
    }
    sources.append(items);
    answer.append(sources);
  }
  section.append(question, answer);
  return section;
}

/**
 * The chat as the page a PDF is drawn from: its title and the export's date, then each exchange (the
 * question labelled as the user's, with the names of its attachments; the answer labelled with its
 * model, rendered as in the app; its sources). Each child of the returned element is a unit the
 * pages are cut around. `onProgress` gets the number of answers rendered so far; the work yields
 * between answers so a long chat does not hold the page.
 */
export async function buildChatPdfDocument(
  doc: Document,
  title: string,
  messages: readonly ChatExchange[],
  labels: PdfLabels,
  exportedAt: string,
  onProgress?: (rendered: number) => void,
): Promise<HTMLElement> {
  const root = element(doc, 'div', 'chat-pdf');
  const head = element(doc, 'header', 'chat-pdf-head');
  head.append(element(doc, 'h1', 'chat-pdf-title', title.replace(/\s+/g, ' ').trim() || '—'), element(doc, 'p', 'chat-pdf-date', `${labels.exported} ${exportedAt}`));
  root.append(head);
  for (const [i, message] of messages.entries()) {
    const html = await renderAnswer(stripProductTags(message.outputMessage).trim(), message.citations, labels.image);
    root.append(turn(doc, message, html, labels));
    onProgress?.(i + 1);
    if (i % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return root;
}
