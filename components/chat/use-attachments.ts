import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadPageUrl } from '../../shared/api/media.ts';
import { MAX_MEDIA_PER_MESSAGE, type MessageMedia } from '../../shared/contracts/chat.ts';
import { MAX_PAGE_URL_CHARS, type MediaType } from '../../shared/contracts/media.ts';

type MediaStatus = 'loading' | 'completed' | 'error';

/** Spec §3 Media item, as the composer holds it until the message is sent. */
export interface MediaItem {
  uid: string;
  type: MediaType;
  status: MediaStatus;
  /** The address the user asked for (typed, or the side panel's tab). */
  name: string;
  /** The page's address: the one asked for until the server answers with the one it read (after redirects). */
  link: string;
  /** The page's title once read; '' while loading. */
  title: string;
  /** The page's icon address once read; '' when it has none. */
  icon: string;
  /** chatMediaId, once completed. */
  id?: string;
  /** The server's message (or the local one) when the upload failed. */
  error?: string;
}

/** A scheme without `//` ("mailto:", "javascript:"), as opposed to a host followed by a port. */
const OPAQUE_SCHEME = /^[a-z][a-z\d+.-]*:(?!\d)/i;

/**
 * The address a typed text names, or null when it is not a web page's: http(s) only, and a bare
 * "example.com/x" is read as https. The fragment goes, as it names a place in the same page.
 */
export function parsePageUrl(input: string): string | null {
  const text = input.trim();
  if (!text || text.length > MAX_PAGE_URL_CHARS || /\s/.test(text)) return null;
  const bare = !text.includes('://');
  if (bare && OPAQUE_SCHEME.test(text)) return null;
  let url: URL;
  try {
    url = new URL(bare ? `https://${text}` : text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // "hello" typed alone is a word, not a host: without a scheme a host needs a dot.
  if (!url.hostname || (bare && !url.hostname.includes('.'))) return null;
  url.hash = '';
  return url.href;
}

/** Both addresses an item is known by, normalised as parsePageUrl does, for the duplicate check. */
function addressesOf(item: MediaItem): string[] {
  return [item.name, item.link].map((address) => parsePageUrl(address) ?? address);
}

let uids = 0;

/**
 * The attachments of the message being written (spec §3 media items, §4 media upload): each web
 * page is read by the server as soon as it is added (loading, then completed or error). Held by
 * the chat view only: nothing here outlives it or is shared between chats.
 */
export function useAttachments() {
  const { t } = useTranslation();
  const [items, setItems] = useState<MediaItem[]>([]);
  /** The list as of the last change: two adds in one event must see each other (duplicates, count). */
  const current = useRef<MediaItem[]>(items);
  const uploads = useRef(new Map<string, AbortController>());

  const update = useCallback((edit: (list: MediaItem[]) => MediaItem[]) => {
    current.current = edit(current.current);
    setItems(current.current);
  }, []);

  const patch = useCallback(
    (uid: string, changes: Partial<MediaItem>) => update((list) => list.map((item) => (item.uid === uid ? { ...item, ...changes } : item))),
    [update],
  );

  const upload = useCallback(
    (uid: string, url: string) => {
      uploads.current.get(uid)?.abort();
      const controller = new AbortController();
      uploads.current.set(uid, controller);
      patch(uid, { status: 'loading', error: undefined });
      uploadPageUrl(url, controller.signal)
        .then(
          (page) => {
            if (controller.signal.aborted) return;
            patch(uid, {
              status: 'completed',
              id: page.chatMediaId,
              title: page.pageTitle || url,
              icon: page.iconStr,
              link: page.pageUrl || url,
            });
          },
          (error: unknown) => {
            // Removed (or the chat closed) meanwhile: there is no chip left to mark.
            if (controller.signal.aborted) return;
            patch(uid, { status: 'error', error: error instanceof Error && error.message ? error.message : t('chat.content.uploadMediaFail') });
          },
        )
        .finally(() => {
          if (uploads.current.get(uid) === controller) uploads.current.delete(uid);
        });
    },
    [patch, t],
  );

  /** The duplicate rule of spec §4: a page already added and not failed. */
  const duplicateOf = useCallback(
    (url: string, except?: string) =>
      current.current.find((item) => item.uid !== except && item.type === 'html' && item.status !== 'error' && addressesOf(item).includes(url)),
    [],
  );

  /**
   * Adds the web page at `input` and starts reading it. Answers the validation message (spec §5)
   * when it is refused, null when it was added.
   */
  const addPage = useCallback(
    (input: string): string | null => {
      if (!input.trim()) return t('chat.content.urlRequired');
      const url = parsePageUrl(input);
      if (!url) return t('chat.content.urlInvalid');
      if (duplicateOf(url)) return t('chat.content.readHtmlPage');
      // The same page added again after it failed: it is read again in its own chip, not a second one.
      const failed = current.current.find((item) => item.type === 'html' && item.status === 'error' && addressesOf(item).includes(url));
      if (failed) {
        upload(failed.uid, failed.name);
        return null;
      }
      if (current.current.length >= MAX_MEDIA_PER_MESSAGE) return t('chat.content.attachmentCountExceed', { max: MAX_MEDIA_PER_MESSAGE });
      const uid = `page-${++uids}`;
      update((list) => [...list, { uid, type: 'html', status: 'loading', name: url, link: url, title: '', icon: '' }]);
      upload(uid, url);
      return null;
    },
    [duplicateOf, t, update, upload],
  );

  /** Reads a failed page again (unless the same page was added again meanwhile). */
  const retry = useCallback(
    (uid: string) => {
      const item = current.current.find((i) => i.uid === uid);
      if (!item || item.status !== 'error') return;
      // name is stored as parsePageUrl gave it.
      if (duplicateOf(item.name, uid)) {
        patch(uid, { error: t('chat.content.readHtmlPage') });
        return;
      }
      upload(uid, item.name);
    },
    [duplicateOf, patch, t, upload],
  );

  const remove = useCallback(
    (uid: string) => {
      uploads.current.get(uid)?.abort();
      uploads.current.delete(uid);
      update((list) => list.filter((item) => item.uid !== uid));
    },
    [update],
  );

  const clear = useCallback(() => {
    for (const controller of uploads.current.values()) controller.abort();
    uploads.current.clear();
    update(() => []);
  }, [update]);

  // Leaving the chat stops the reads still running.
  useEffect(() => {
    const running = uploads.current;
    return () => {
      for (const controller of running.values()) controller.abort();
      running.clear();
    };
  }, []);

  /** What a message sent now carries: the pages read, as its bubble shows them. */
  const completed = useMemo(
    (): MessageMedia[] =>
      items.flatMap((item) =>
        item.status === 'completed' && item.id ? [{ chatMediaId: item.id, mediaType: item.type, title: item.title, url: item.link, icon: item.icon }] : [],
      ),
    [items],
  );
  const busy = items.some((item) => item.status === 'loading');

  /**
   * Whether the page at `url` (as parsePageUrl gives it) is already attached and not failed. A new
   * function whenever the list changes, so a memoized caller shows the change.
   */
  const has = useCallback((url: string) => duplicateOf(url) !== undefined, [duplicateOf, items]);

  return { items, addPage, retry, remove, clear, has, completed, busy };
}
