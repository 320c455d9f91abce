import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { IconLink } from '../ui/icons.tsx';

/** A link being dragged carries a URI list (browsers add it for links, bookmarks and address-bar drags). */
const isLinkDrag = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('text/uri-list');

/** The first address of a dropped URI list (its comment lines start with #); else the plain text. */
export function droppedLink(data: Pick<DataTransfer, 'getData'>): string {
  const listed = data
    .getData('text/uri-list')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line && !line.startsWith('#'));
  return listed ?? data.getData('text/plain').trim();
}

/**
 * Dropping a link on the chat reads its page (spec §2: only one item per drop). While a link is
 * dragged over the chat an overlay says what a drop does; files and text are left to the browser.
 */
export function useLinkDrop(onLink: (url: string) => void) {
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave fire for every child crossed: count them to know when the drag left the chat.
  const depth = useRef(0);

  const end = () => {
    depth.current = 0;
    setDragging(false);
  };

  const handlers = {
    onDragEnter: (event: DragEvent) => {
      if (!isLinkDrag(event)) return;
      event.preventDefault();
      depth.current += 1;
      setDragging(true);
    },
    onDragOver: (event: DragEvent) => {
      if (!isLinkDrag(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (event: DragEvent) => {
      if (!isLinkDrag(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (!isLinkDrag(event)) return;
      event.preventDefault();
      end();
      const url = droppedLink(event.dataTransfer);
      if (url) onLink(url);
    },
  };
  return { dragging, handlers };
}

/** What the chat shows while a link is dragged over it. */
export function LinkDropOverlay() {
  const { t } = useTranslation();
  return (
    <div className="chat-drop-overlay" role="status">
      <IconLink size={28} />
      <span>{t('chat.content.dropToReadPage')}</span>
    </div>
  );
}
