import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { IconLink, IconPaperclip } from '../ui/icons.tsx';

/** What is dragged over the chat: files (from the desktop, or an image from a page) or a link. */
export type DragKind = 'file' | 'link';

/**
 * Files win over a link: an image dragged from a web page carries both, and the picture is what
 * the user sees in hand. A link being dragged carries a URI list (browsers add it for links,
 * bookmarks and address-bar drags). Anything else (text) is left to the browser.
 */
function dragKind(event: DragEvent): DragKind | null {
  const types = Array.from(event.dataTransfer?.types ?? []);
  if (types.includes('Files')) return 'file';
  if (types.includes('text/uri-list')) return 'link';
  return null;
}

/** The first address of a dropped URI list (its comment lines start with #); else the plain text. */
export function droppedLink(data: Pick<DataTransfer, 'getData'>): string {
  const listed = data
    .getData('text/uri-list')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line && !line.startsWith('#'));
  return listed ?? data.getData('text/plain').trim();
}

export interface ChatDropHandlers {
  /** A link was dropped: its page is to be read. */
  onLink: (url: string) => void;
  /** Files were dropped (only the first is handled); `count` says how many came. */
  onFile: (file: File, count: number) => void;
}

/**
 * Dropping on the chat (one item per drop): a file is uploaded, a link's page is read.
 * While something usable is dragged over the chat an overlay says what a drop does.
 */
export function useChatDrop({ onLink, onFile }: ChatDropHandlers) {
  const [dragging, setDragging] = useState<DragKind | null>(null);
  // dragenter/dragleave fire for every child crossed: count them to know when the drag left the chat.
  const depth = useRef(0);

  const end = () => {
    depth.current = 0;
    setDragging(null);
  };

  const handlers = {
    onDragEnter: (event: DragEvent) => {
      const kind = dragKind(event);
      if (!kind) return;
      event.preventDefault();
      depth.current += 1;
      setDragging(kind);
    },
    onDragOver: (event: DragEvent) => {
      if (!dragKind(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (event: DragEvent) => {
      if (!dragKind(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(null);
    },
    onDrop: (event: DragEvent) => {
      const kind = dragKind(event);
      if (!kind) return;
      // The browser would otherwise open the file or follow the link, leaving the chat.
      event.preventDefault();
      end();
      if (kind === 'file') {
        const files = Array.from(event.dataTransfer.files ?? []);
        if (files.length > 0) onFile(files[0], files.length);
        return;
      }
      const url = droppedLink(event.dataTransfer);
      if (url) onLink(url);
    },
  };
  return { dragging, handlers };
}

/** What the chat shows while a file or a link is dragged over it. */
export function ChatDropOverlay({ kind }: { kind: DragKind }) {
  const { t } = useTranslation();
  return (
    <div className="chat-drop-overlay" role="status">
      {kind === 'file' ? <IconPaperclip size={28} /> : <IconLink size={28} />}
      <span>{kind === 'file' ? t('chat.content.dropToUpload') : t('chat.content.dropToReadPage')}</span>
    </div>
  );
}
