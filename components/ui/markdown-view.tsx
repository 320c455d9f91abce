import 'katex/dist/katex.min.css';
import './markdown-view.css';
import { memo, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { createStreamCache, finishBlock, renderStreaming } from '../../shared/markdown/blocks.ts';
import type { RenderedBlock } from '../../shared/markdown/blocks.ts';
import { citationSet } from '../../shared/markdown/citations.ts';
import type { CitationSet, CitationSource } from '../../shared/markdown/citations.ts';
import { loadImageOnClick, showLoadedImages } from '../../shared/markdown/image-placeholders.ts';
import { COPY_BUTTON_ATTR } from '../../shared/markdown/render.ts';
import { TIMESTAMP_ATTR } from '../../shared/markdown/timestamps.ts';
import { VideoTimesContext } from './video-times.ts';
import { morphHtml } from './morph-html.ts';

/** For the chat's own images outside answers (attachments.tsx Thumbnail), which load with this chunk. */
export { loadOwnImage } from '../../shared/markdown/image-placeholders.ts';

export interface MarkdownViewProps {
  /** Markdown of the answer, already stripped of the product's custom tags. */
  text: string;
  /** The answer is still arriving: show a cursor and keep the last block open. */
  streaming?: boolean;
  className?: string;
  /** Sources the answer cites as [1], [2]: those markers become superscript links to them. */
  citations?: readonly CitationSource[];
}

const COPIED_MS = 1500;

/**
 * A chat answer as rendered markdown. While streaming, only the growing last block is rendered again
 * on each update; finished blocks keep their element (React.memo on an unchanged block object).
 */
export function MarkdownView({ text, streaming = false, className, citations }: MarkdownViewProps) {
  const { t } = useTranslation();
  const copyLabel = t('markdown.copyCode');
  const copiedLabel = t('markdown.copied');
  // The renderer puts each image's host in place of {host} (shared/markdown/render.ts).
  const imageLabel = t('markdown.remoteImage', { host: '{host}' });
  // Without citations this is undefined and the renderer does no citation work.
  const citeSet = useMemo(() => citationSet(citations), [citations]);
  const citeKey = citeSet?.key;
  // One cache per view and set of sources: it holds this answer's finished blocks between updates.
  // Sources arriving (or changing) start a new one, so the blocks are rendered again with their links;
  // the same sources again (the key) keep it.
  const cache = useMemo(() => createStreamCache(copyLabel, citeSet, imageLabel), [copyLabel, citeKey, imageLabel]);
  const blocks = useMemo(() => renderStreaming(text, cache, { done: !streaming }), [text, cache, streaming]);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  // In a chat about a video, its [mm:ss] timestamps are buttons (seek the video, or open it there).
  const videoTimes = useContext(VideoTimesContext);

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  // One listener for every copy button and image placeholder: they are plain HTML from the renderer.
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (loadImageOnClick(event.currentTarget, event.target as Element, () => event.preventDefault())) return;
    const time = (event.target as Element).closest(`[${TIMESTAMP_ATTR}]`);
    if (time && videoTimes && event.currentTarget.contains(time)) {
      event.preventDefault();
      videoTimes.onTime(Number(time.getAttribute(TIMESTAMP_ATTR)));
      return;
    }
    const button = (event.target as Element).closest(`[${COPY_BUTTON_ATTR}]`);
    if (!button || !event.currentTarget.contains(button)) return;
    const code = button.closest('.md-code')?.querySelector('pre code, pre')?.textContent ?? '';
    void navigator.clipboard.writeText(code).then(() => {
      button.setAttribute('data-copied', '');
      button.setAttribute('aria-label', copiedLabel);
      button.setAttribute('title', copiedLabel);
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        button.removeAttribute('data-copied');
        button.setAttribute('aria-label', copyLabel);
        button.setAttribute('title', copyLabel);
      }, COPIED_MS);
      timers.current.add(timer);
    });
  };

  return (
    <div
      className={className ? `md-view ${className}` : 'md-view'}
      data-streaming={streaming ? '' : undefined}
      data-video-times={videoTimes ? '' : undefined}
      aria-busy={streaming}
      onClick={onClick}
    >
      {sectionsOf(blocks).map((section, n) => (
        // A block always stays in the same section (by its index), so no block is ever re-mounted.
        <div className="md-section" key={n}>
          {section.map((block) => (
            <MarkdownBlock key={block.key} block={block} copyLabel={copyLabel} imageLabel={imageLabel} citations={cache.citations} />
          ))}
        </div>
      ))}
      {/* The cursor is drawn by CSS after the last block's text; before any text it is this span. */}
      {streaming && blocks.length === 0 && <span className="md-cursor" aria-hidden="true" />}
    </div>
  );
}

/** Blocks per section (see .md-section in markdown-view.css). */
const SECTION_BLOCKS = 16;

function sectionsOf(blocks: readonly RenderedBlock[]): RenderedBlock[][] {
  const sections: RenderedBlock[][] = [];
  for (let i = 0; i < blocks.length; i += SECTION_BLOCKS) sections.push(blocks.slice(i, i + SECTION_BLOCKS));
  return sections;
}

interface MarkdownBlockProps {
  block: RenderedBlock;
  copyLabel: string;
  imageLabel: string;
  /** The sources the block was rendered with (for its highlighted rendering). */
  citations: CitationSet | undefined;
}

const MarkdownBlock = memo(function MarkdownBlock({ block, copyLabel, imageLabel, citations }: MarkdownBlockProps) {
  const [finished, setFinished] = useState<{ block: RenderedBlock; html: string }>();

  // Highlighting and math typesetting load code, so they are async, and only for finished blocks: a
  // growing block is rendered again on the next update anyway (with KaTeX, once it has arrived).
  useEffect(() => {
    if (!block.complete || !(block.needsHighlight || block.needsMath)) return;
    let live = true;
    finishBlock(block, copyLabel, citations, imageLabel).then(
      (html) => live && setFinished({ block, html }),
      // A grammar or KaTeX that fails to load leaves the source readable as plain text.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [block, copyLabel, imageLabel, citations]);

  const html = finished?.block === block ? finished.html : block.html;
  const ref = useRef<HTMLDivElement>(null);
  const shown = useRef<string | undefined>(undefined);
  // The renderer's output is sanitized HTML (no raw HTML, checked links, images as placeholders). The
  // first render sets it whole; later ones (the growing block, a highlight) patch only what changed,
  // and images the user loaded are put back in place of their placeholders.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || shown.current === html) return;
    if (shown.current === undefined) element.innerHTML = html;
    else morphHtml(element, html);
    shown.current = html;
    showLoadedImages(element, element.closest('.md-view') ?? element);
  }, [html]);
  return <div ref={ref} className="md-block" data-complete={block.complete ? '' : undefined} />;
});
