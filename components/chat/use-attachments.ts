import { useCallback, useEffect, useMemo, useRef, useState, type MutableRefObject } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { addChatMedia, uploadPageUrl } from '../../shared/api/media.ts';
import { MAX_MEDIA_PER_MESSAGE, type MessageMedia } from '../../shared/contracts/chat.ts';
import {
  acceptedExtensions,
  extensionOf,
  IMAGE_EXTENSIONS,
  MAX_PAGE_URL_CHARS,
  MEDIA_LIMITS,
  type MediaType,
} from '../../shared/contracts/media.ts';
import type { ModelListItem, ModelMap } from '../../shared/contracts/model.ts';
import type { ActiveTab, TabAccess } from '../../shared/platform/platform.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { isPdfContentType, pdfAddressOf, PdfFetchError, pdfFileName } from '../../shared/utils/pdf-tab.ts';
import { notifyWarning } from '../ui/notify.ts';
import type { DocumentReading } from '../../shared/utils/read-document.ts';
import { fileKindsInWords } from './file-kinds.ts';
import { modelName } from './model-name.ts';

type MediaStatus = 'loading' | 'completed' | 'error';

/** A media item, as the composer holds it until the message is sent. */
export interface MediaItem {
  uid: string;
  type: MediaType;
  status: MediaStatus;
  /**
   * Where the item comes from: a web address the server reads ('url'), the page open in the user's
   * tab, read there by the extension ('tab'), or a file of the user's ('file': picked, dropped,
   * pasted or a screenshot).
   */
  source: 'url' | 'tab' | 'file';
  /** A page: the address asked for (as parsePageUrl gives it). A file: its name. */
  name: string;
  /**
   * A page: its address, the one asked for until the server answers with the one it read. An
   * image or a file: the server's link to its bytes once uploaded (resolved as shared/utils/image-link.ts says).
   */
  link: string;
  /** A page: its title once read ('' while loading, unless the tab told it). A file: its name. */
  title: string;
  /** A page's icon address once read; '' when it has none. */
  icon: string;
  /** An image's local bytes as an object URL, for its thumbnail; revoked when the chip goes. */
  preview?: string;
  /** chatMediaId, once completed. */
  id?: string;
  /** The server's message (or the local one) when the upload failed. */
  error?: string;
  /** A PDF read from the tab: the address it was fetched from (the duplicate check's). */
  address?: string;
  /** A PDF: how many pages the server read, once uploaded. */
  pages?: number;
}

/** What a finished upload changes in its item. */
type Uploaded = Pick<MediaItem, 'id' | 'link' | 'title'> & Partial<Pick<MediaItem, 'icon' | 'pages'>>;
/** Uploads one item; may tell what it learnt on the way (a tab's title) before it is done. */
type Uploader = (signal: AbortSignal, progress: (changes: Partial<MediaItem>) => void) => Promise<Uploaded>;

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

/** Both addresses a page is known by, normalised as parsePageUrl does, for the duplicate check. */
function addressesOf(item: MediaItem): string[] {
  if (item.address) return [item.address];
  return [item.name, item.link].map((address) => parsePageUrl(address) ?? address);
}

/**
 * Model switch: whether a model reads an item. Pages go to every model; an image needs a
 * model that reads images (isImage) and one of the image extensions; a file, its extension among
 * the model's accepted ones.
 */
export function modelAccepts(modelMap: ModelMap, item: Pick<MediaItem, 'type' | 'name'>): boolean {
  if (item.type === 'html') return true;
  const extension = extensionOf(item.name);
  if (item.type === 'image') return modelMap.isImage && (IMAGE_EXTENSIONS as readonly string[]).includes(extension);
  return acceptedExtensions(modelMap).includes(extension);
}

/**
 * The name a file is checked and uploaded under. A pasted image may come without an extension
 * (some browsers name it "image"): its MIME subtype gives one, as for screenshots.
 */
export function fileNameOf(file: File): string {
  const name = file.name.trim() || 'file';
  if (extensionOf(name) || !/^image\/[a-z0-9.+-]+$/i.test(file.type)) return name;
  return `${name}.${file.type.slice('image/'.length).replace(/\+.*$/, '').toLowerCase()}`;
}

const MAX_MB = MEDIA_LIMITS.chat.maxBytes / (1024 * 1024);

let uids = 0;

type Start = (item: Omit<MediaItem, 'uid' | 'status'>, uploader: Uploader) => void;

/**
 * The list and its uploads: each item is uploaded as soon as it is added (loading, then completed or
 * error, with retry); removing an item stops its upload and frees its thumbnail.
 */
function useAttachmentList() {
  const { t } = useTranslation();
  const [items, setItems] = useState<MediaItem[]>([]);
  /** The list as of the last change: two adds in one event must see each other (duplicates, count). */
  const current = useRef<MediaItem[]>(items);
  const uploads = useRef(new Map<string, AbortController>());
  const uploaders = useRef(new Map<string, Uploader>());

  const update = useCallback((edit: (list: MediaItem[]) => MediaItem[]) => {
    current.current = edit(current.current);
    setItems(current.current);
  }, []);
  const patch = useCallback(
    (uid: string, changes: Partial<MediaItem>) => update((list) => list.map((item) => (item.uid === uid ? { ...item, ...changes } : item))),
    [update],
  );

  /** Runs (or runs again) the upload of item `uid`. */
  const run = useCallback(
    (uid: string) => {
      const uploader = uploaders.current.get(uid);
      if (!uploader) return;
      uploads.current.get(uid)?.abort();
      const controller = new AbortController();
      uploads.current.set(uid, controller);
      patch(uid, { status: 'loading', error: undefined });
      const progress = (changes: Partial<MediaItem>) => {
        if (!controller.signal.aborted) patch(uid, changes);
      };
      const fallback = current.current.find((i) => i.uid === uid)?.source === 'url' ? t('chat.content.readPageFail') : t('chat.content.uploadMediaFail');
      uploader(controller.signal, progress)
        .then(
          (done) => {
            if (!controller.signal.aborted) patch(uid, { status: 'completed', ...done });
          },
          (error: unknown) => {
            // Removed (or the chat closed) meanwhile: there is no chip left to mark.
            if (controller.signal.aborted) return;
            patch(uid, { status: 'error', error: error instanceof Error && error.message ? error.message : fallback });
          },
        )
        .finally(() => {
          if (uploads.current.get(uid) === controller) uploads.current.delete(uid);
        });
    },
    [patch, t],
  );

  /** Adds an item and starts its upload. */
  const start: Start = useCallback(
    (item, uploader) => {
      const uid = `${item.source}-${++uids}`;
      uploaders.current.set(uid, uploader);
      update((list) => [...list, { ...item, uid, status: 'loading' }]);
      run(uid);
    },
    [run, update],
  );

  /** Stops what runs for the items and frees their thumbnails. */
  const release = useCallback((gone: readonly MediaItem[]) => {
    for (const item of gone) {
      uploads.current.get(item.uid)?.abort();
      uploads.current.delete(item.uid);
      uploaders.current.delete(item.uid);
      if (item.preview) URL.revokeObjectURL(item.preview);
    }
  }, []);

  // Leaving the chat stops the uploads still running and frees the thumbnails.
  useEffect(() => {
    const list = current;
    return () => release(list.current);
  }, [release]);

  return { items, current, update, patch, run, start, release };
}

type AttachmentList = ReturnType<typeof useAttachmentList>;

/** The rules every source follows: a page is not added twice, a message carries at most five items. */
function useListRules(list: AttachmentList) {
  const { t } = useTranslation();
  const { current } = list;
  /** A page already added and not failed. */
  const duplicateOf = useCallback(
    (url: string, except?: string) =>
      current.current.find(
        (item) => item.uid !== except && (item.type === 'html' || !!item.address) && item.status !== 'error' && addressesOf(item).includes(url),
      ),
    [current],
  );
  const countExceeded = useCallback(
    () => (current.current.length >= MAX_MEDIA_PER_MESSAGE ? t('chat.content.attachmentCountExceed', { max: MAX_MEDIA_PER_MESSAGE }) : null),
    [current, t],
  );
  // One object while the rules stay the same, so the callbacks built on it stay the same too
  // (memoized views skip them while an answer streams).
  return useMemo(() => ({ duplicateOf, countExceeded }), [duplicateOf, countExceeded]);
}

type ListRules = ReturnType<typeof useListRules>;

/** A web page by its address, read by the server. Answers the validation message, or null when it was added. */
function usePageSource(list: AttachmentList, rules: ListRules) {
  const { t } = useTranslation();
  const { current, run, start } = list;
  const { duplicateOf, countExceeded } = rules;
  return useCallback(
    (input: string): string | null => {
      if (!input.trim()) return t('chat.content.urlRequired');
      const url = parsePageUrl(input);
      if (!url) return t('chat.content.urlInvalid');
      if (duplicateOf(url)) return t('chat.content.readHtmlPage');
      // The same page added again after it failed: it is read again in its own chip, not a second one.
      const failed = current.current.find((item) => item.type === 'html' && item.status === 'error' && addressesOf(item).includes(url));
      if (failed) {
        run(failed.uid);
        return null;
      }
      const refused = countExceeded();
      if (refused) return refused;
      start({ type: 'html', source: 'url', name: url, link: url, title: '', icon: '' }, async (signal) => {
        const page = await uploadPageUrl(url, signal);
        return { id: page.chatMediaId, title: page.pageTitle || url, icon: page.iconStr, link: page.pageUrl || url };
      });
      return null;
    },
    [countExceeded, current, duplicateOf, run, start, t],
  );
}

/** Reads the tab's page through the platform's tabs; an empty page or a refusal is an error in the user's words. */
async function readTab(tabs: TabAccess | null, tabId: number, t: TFunction): Promise<DocumentReading> {
  let read: DocumentReading;
  try {
    if (!tabs) throw new Error('no tab access on this page');
    read = await tabs.readTabPage(tabId);
  } catch (error) {
    // The tab closed, went to a page the browser protects, or the permission was withdrawn.
    console.warn('reading the tab failed', error);
    throw new Error(t('chat.content.readTabFailed'));
  }
  if (!read.markdown.trim()) throw new Error(t('chat.content.pageEmpty'));
  // A video without a transcript: the model answers from its description; the user is told so.
  if (read.video?.source === 'description') notifyWarning(t(read.video.live ? 'chat.video.live' : 'chat.video.noTranscript'));
  return read;
}

/** What the user is told when a tab's PDF could not be fetched. */
function pdfFailureText(error: unknown, t: TFunction): string {
  if (!(error instanceof PdfFetchError)) return t('chat.content.pdf.network');
  if (error.reason === 'tooLarge') return t('chat.content.pdf.tooLarge', { max: MAX_MB });
  if (error.reason === 'httpStatus') return t('chat.content.pdf.httpStatus', { status: error.status ?? '' });
  return t(`chat.content.pdf.${error.reason}`);
}

/** Why `model` cannot take a PDF (its accepted types leave PDFs out), or null when it can. */
function pdfRefusal(model: ModelListItem | undefined, name: string, t: TFunction, language: string): string | null {
  const accepted = model ? acceptedExtensions(model.modelMap) : [];
  if (!model || accepted.length === 0) return t('chat.content.modelTakesNoFiles', { model: model ? modelName(model, t) : '' });
  if (!accepted.includes('pdf')) return t('chat.content.uploadFileTypeError', { name, model: modelName(model, t), types: fileKindsInWords(accepted, t, language) });
  return null;
}

/**
 * A PDF the tab shows, at `address`: its bytes fetched by the extension with the user's cookies
 * (bounded by the upload limit), then uploaded as a file, so the server reads its text page by page
 * under its own bounds (a scan without a text layer is refused there, with its message).
 */
async function uploadTabPdf(
  tabs: TabAccess | null,
  address: string,
  title: string,
  model: ModelListItem | undefined,
  t: TFunction,
  signal: AbortSignal,
): Promise<Uploaded> {
  if (!tabs) throw new Error(t('chat.content.readTabFailed'));
  let pdf: Blob;
  try {
    // The server refuses 10 MB and more, as the file chooser does.
    pdf = await tabs.fetchPdf(address, MEDIA_LIMITS.chat.maxBytes - 1, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    console.warn('fetching the tab PDF failed', error);
    throw new Error(pdfFailureText(error, t));
  }
  const name = pdfFileName(address);
  const pageUrl = /^https?:/i.test(address) && address.length <= MAX_PAGE_URL_CHARS ? address : '';
  const fields = { mediaType: 'file' as const, pageTitle: title.trim().slice(0, 500), pageUrl, aiModelId: model?.aiModelId };
  const answer = await addChatMedia(fields, pdf, name, signal);
  return { id: answer.chatMediaId, title: answer.pageTitle || name, link: answer.pageFilePath, pages: answer.pageCount };
}

/**
 * Extension only: the page open in a tab, read there as the user sees it (signed in, after its
 * scripts ran), and uploaded. A PDF (by its address, or by its document's content type) is fetched
 * and uploaded as a file instead, for the server to read page by page. Answers why it was refused, or null.
 */
function useTabSource(list: AttachmentList, rules: ListRules, modelRef: MutableRefObject<ModelListItem | undefined>) {
  const { t, i18n } = useTranslation();
  const { tabs } = usePlatform();
  const { start } = list;
  const { duplicateOf, countExceeded } = rules;
  return useCallback(
    (tab: ActiveTab): string | null => {
      const pdf = pdfAddressOf(tab.url);
      if (pdf) {
        if (duplicateOf(pdf)) return t('chat.content.readHtmlPage');
        const name = pdfFileName(pdf);
        const refused = pdfRefusal(modelRef.current, name, t, i18n.language) ?? countExceeded();
        if (refused) return refused;
        const title = tab.title && tab.title !== tab.url ? tab.title : name;
        start({ type: 'file', source: 'tab', name, link: '', title, icon: '', address: pdf }, (signal) =>
          uploadTabPdf(tabs, pdf, title, modelRef.current, t, signal),
        );
        return null;
      }
      const url = parsePageUrl(tab.url);
      if (!url || tab.id === undefined) return t('chat.content.readTabFailed');
      if (duplicateOf(url)) return t('chat.content.readHtmlPage');
      const refused = countExceeded();
      if (refused) return refused;
      const tabId = tab.id;
      /** What the tab gave: kept, so a retry after a failed upload sends the same page again. */
      let reading: DocumentReading | undefined;
      /** Whether the tab shows a PDF at an address without .pdf (asked once). */
      let isPdf: boolean | undefined;
      start({ type: 'html', source: 'tab', name: url, link: url, title: tab.title, icon: tab.favIconUrl ?? '' }, async (signal, progress) => {
        isPdf ??= isPdfContentType(await tabs?.tabContentType(tabId));
        if (isPdf) {
          const name = pdfFileName(url);
          const title = tab.title && tab.title !== tab.url ? tab.title : name;
          progress({ type: 'file', name, link: '', title, icon: '', address: url });
          const refusal = pdfRefusal(modelRef.current, name, t, i18n.language);
          if (refusal) throw new Error(refusal);
          return uploadTabPdf(tabs, url, title, modelRef.current, t, signal);
        }
        if (!reading) {
          reading = await readTab(tabs, tabId, t);
          progress({ title: reading.title, icon: reading.icon || tab.favIconUrl || '' });
        }
        // The address the page itself had when read (the tab may have moved on since the click).
        const pageUrl = parsePageUrl(reading.url) ?? url;
        const page = new Blob([reading.markdown], { type: 'text/markdown' });
        const fields = { mediaType: 'html' as const, pageTitle: reading.title.slice(0, 500), pageUrl, aiModelId: modelRef.current?.aiModelId };
        const answer = await addChatMedia(fields, page, 'page.md', signal);
        return {
          id: answer.chatMediaId,
          title: answer.pageTitle || reading.title,
          icon: answer.iconStr || reading.icon || tab.favIconUrl || '',
          link: answer.pageUrl || pageUrl,
        };
      });
      return null;
    },
    [countExceeded, duplicateOf, modelRef, start, t, i18n, tabs],
  );
}

/**
 * A file or an image (picked, dropped, pasted, or a screenshot), uploaded. The checks come first, in
 * this order (the server checks again): the extension among the current model's accepted ones, the
 * size under 10 MB, at most five attachments. Answers the refusal, or null when it was added.
 */
function useFileSource(list: AttachmentList, rules: ListRules, modelRef: MutableRefObject<ModelListItem | undefined>) {
  const { t, i18n } = useTranslation();
  const { start } = list;
  const { countExceeded } = rules;
  return useCallback(
    (file: File): string | null => {
      const target = modelRef.current;
      const name = fileNameOf(file);
      const accepted = target ? acceptedExtensions(target.modelMap) : [];
      if (!target || accepted.length === 0) return t('chat.content.modelTakesNoFiles', { model: target ? modelName(target, t) : '' });
      if (!accepted.includes(extensionOf(name))) return t('chat.content.uploadFileTypeError', { name, model: modelName(target, t), types: fileKindsInWords(accepted, t, i18n.language) });
      if (file.size >= MEDIA_LIMITS.chat.maxBytes) return t('chat.content.fileSizeExceed', { name, max: MAX_MB });
      if (file.size === 0) return t('chat.content.emptyFile', { name });
      const refused = countExceeded();
      if (refused) return refused;
      const type: MediaType = target.modelMap.isImage && (IMAGE_EXTENSIONS as readonly string[]).includes(extensionOf(name)) ? 'image' : 'file';
      const preview = type === 'image' ? URL.createObjectURL(file) : undefined;
      start({ type, source: 'file', name, link: '', title: name, icon: '', preview }, async (signal) => {
        const answer = await addChatMedia({ mediaType: type, pageTitle: name, aiModelId: modelRef.current?.aiModelId }, file, name, signal);
        return { id: answer.chatMediaId, title: name, link: (type === 'image' ? answer.image.imgSrcAll : '') || answer.pageFilePath };
      });
      return null;
    },
    [countExceeded, modelRef, start, t, i18n],
  );
}

/** Retrying, removing and clearing items. */
function useListEdits(list: AttachmentList, rules: ListRules) {
  const { t } = useTranslation();
  const { current, patch, run, release, update } = list;
  /** Reads or uploads a failed item again (a page, unless the same page was added again meanwhile). */
  const retry = useCallback(
    (uid: string) => {
      const item = current.current.find((i) => i.uid === uid);
      if (!item || item.status !== 'error') return;
      // name is stored as parsePageUrl gave it.
      if (item.type === 'html' && rules.duplicateOf(item.name, uid)) {
        patch(uid, { error: t('chat.content.readHtmlPage') });
        return;
      }
      run(uid);
    },
    [current, patch, rules, run, t],
  );
  /** Removes the items `uids` (a chip's remove button, or a model switch that cannot read them). */
  const removeMany = useCallback(
    (uids: readonly string[]) => {
      const gone = new Set(uids);
      release(current.current.filter((item) => gone.has(item.uid)));
      update((items) => items.filter((item) => !gone.has(item.uid)));
    },
    [current, release, update],
  );
  const remove = useCallback((uid: string) => removeMany([uid]), [removeMany]);
  /** Empties the list: the message was sent (its bubble shows the server's links, not the local bytes). */
  const clear = useCallback(() => {
    release(current.current);
    update(() => []);
  }, [current, release, update]);
  return { retry, removeMany, remove, clear };
}

/**
 * The attachments of the message being written: web pages (by address or read in a tab), files and
 * images, one hook per source over one list. Held by the chat view only: nothing here outlives it
 * or is shared between chats. `model` is the model the message goes to: it decides which files are
 * accepted.
 */
export function useAttachments(model: ModelListItem | undefined) {
  const modelRef = useRef(model);
  modelRef.current = model;
  const list = useAttachmentList();
  const rules = useListRules(list);
  const addPage = usePageSource(list, rules);
  const addTabPage = useTabSource(list, rules, modelRef);
  const addFile = useFileSource(list, rules, modelRef);
  const { retry, remove, removeMany, clear } = useListEdits(list, rules);
  const { items, current } = list;

  /** What a message sent now carries: the items uploaded, as its bubble shows them. */
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
  const has = useCallback((url: string) => rules.duplicateOf(url) !== undefined, [rules, items]);
  /** The items `target` cannot read (the model switch asks before removing them). */
  const unsupportedBy = useCallback((target: ModelListItem) => current.current.filter((item) => !modelAccepts(target.modelMap, item)), [current]);

  return { items, addPage, addTabPage, addFile, retry, remove, removeMany, clear, has, unsupportedBy, completed, busy };
}
