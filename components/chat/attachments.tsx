import { ActionIcon, Button, Group, Loader, Popover, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { memo, useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { mediaLink } from '../../shared/api/media.ts';
import type { MessageMedia } from '../../shared/contracts/chat.ts';
import { MAX_PAGE_URL_CHARS, MEDIA_LIMITS } from '../../shared/contracts/media.ts';
import { screenshotFile } from '../../shared/utils/screenshot.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { fileKindsInWords } from './file-kinds.ts';
import { IconAlert, IconCamera, IconFileText, IconLink, IconPaperclip, IconPhoto, IconRefresh, IconX } from '../ui/icons.tsx';
import { notifyError } from '../ui/notify.ts';
import { Modal } from '../ui/overlays.tsx';
import { ToolButton } from '../ui/tool-button.tsx';
import type { MediaItem } from './use-attachments.ts';
import { unreadableReason, useCurrentTab } from './current-tab.ts';
import type { TabAccess } from '../../shared/platform/platform.ts';

/** Adds a page: answers the validation message when it is refused, null when it was added. */
export type AddPage = (url: string) => string | null;
/** Adds a file: answers why it was refused, null when it was added. */
export type AddFile = (file: File) => string | null;

/** Only sources that load without running anything: web addresses, inline images, local object URLs. */
function safeImageSrc(src: string): string | null {
  return /^(https?:\/\/|data:image\/|blob:)/i.test(src) ? src : null;
}

/**
 * A page's icon when it is inline (data:), else a link icon: an icon at another host's address is
 * never fetched, as that would tell the host who looks at the chat (docs/security.md).
 */
export function PageIcon({ icon }: { icon: string }) {
  if (!/^data:image\//i.test(icon)) return <IconLink size={14} className="attachment-icon" />;
  return <img src={icon} alt="" width={14} height={14} className="attachment-icon" />;
}

/**
 * An image's thumbnail, or a picture icon while it has none (or it does not load). A thumbnail is a
 * local preview or Tandem's own image on the server: a web page (the web app, served by the server)
 * loads that as it is; the extension's pages, another origin, get a blob: URL fetched from the
 * server, the only way their CSP lets it in (docs/security.md).
 */
function Thumbnail({ src, size }: { src: string; size: number }) {
  // What became of `src`: its blob: URL once fetched, or '' once it failed to load.
  const [outcome, setOutcome] = useState(['', '']);
  const fetched = src.startsWith('http') && !location.protocol.startsWith('http');
  useEffect(() => {
    if (!fetched) return;
    // The loader comes with the answer renderer's chunk, which the chat view fetches as it mounts
    // (message-item.tsx): nothing of it weighs on the pages' entry.
    import('../ui/markdown-view.tsx')
      .then((view) => view.loadOwnImage(src))
      .then(
        (url) => setOutcome([src, url]),
        () => setOutcome([src, '']),
      );
  }, [src, fetched]);
  const shown = outcome[0] === src ? outcome[1] : fetched ? '' : safeImageSrc(src);
  if (!shown) return <IconPhoto size={14} className="attachment-icon" />;
  return <img src={shown} alt="" width={size} height={size} className="attachment-thumb" onError={() => setOutcome([src, ''])} />;
}

/** What a chip is called: a page's title (its address until read), a file's name. */
const nameOf = (item: MediaItem) => item.title || (item.type === 'html' ? item.link : item.name);

function KindIcon({ item }: { item: MediaItem }) {
  if (item.type === 'html') return <PageIcon icon={item.icon} />;
  if (item.type === 'image') return <IconPhoto size={14} className="attachment-icon" />;
  return <IconFileText size={14} className="attachment-icon" />;
}

function AttachmentChip({ item, onRetry, onRemove }: { item: MediaItem; onRetry: (uid: string) => void; onRemove: (uid: string) => void }) {
  const { t } = useTranslation();
  const name = nameOf(item);
  const isPage = item.type === 'html';
  const thumbnail = item.type === 'image' ? item.preview || mediaLink(item.link) : '';
  return (
    <div className="attachment-chip" role="listitem" data-status={item.status} data-type={item.type} aria-busy={item.status === 'loading'}>
      <Tooltip label={item.status === 'error' ? item.error : isPage ? item.link : (item.address ?? item.name)} withArrow multiline maw={320} openDelay={300}>
        <Group gap={6} wrap="nowrap" className="attachment-main">
          {thumbnail && <Thumbnail src={thumbnail} size={28} />}
          {item.status === 'loading' ? (
            <Loader size={12} aria-label={isPage ? t('chat.content.readingPage') : t('chat.content.uploading')} />
          ) : item.status === 'error' ? (
            <IconAlert size={14} className="attachment-icon" color="var(--mantine-color-red-6)" />
          ) : (
            !thumbnail && <KindIcon item={item} />
          )}
          <div className="attachment-text">
            <Text size="xs" truncate="end" c={item.status === 'loading' ? 'dimmed' : undefined}>
              {name}
            </Text>
            {item.status === 'completed' && item.pages !== undefined && (
              <Text size="xs" c="dimmed" truncate="end" data-testid="attachment-pages">
                {t('chat.content.pdfPages', { count: item.pages })}
              </Text>
            )}
            {item.status === 'error' && (
              // A PDF's refusals say what to do (allow file access, a scan): shown in full, over a few lines.
              <Text size="xs" c="red" lineClamp={item.address ? 4 : undefined} truncate={item.address ? undefined : 'end'}>
                {item.error}
              </Text>
            )}
          </div>
        </Group>
      </Tooltip>
      {item.status === 'error' && (
        <ActionIcon
          variant="subtle"
          size={20}
          color="gray"
          aria-label={isPage ? t('chat.content.retryAttachment', { name }) : t('chat.content.retryUpload', { name })}
          onClick={() => onRetry(item.uid)}
        >
          <IconRefresh size={12} />
        </ActionIcon>
      )}
      <ActionIcon variant="subtle" size={20} color="gray" aria-label={t('chat.content.removeAttachment', { name })} onClick={() => onRemove(item.uid)}>
        <IconX size={12} />
      </ActionIcon>
    </div>
  );
}

/** Only web addresses become links. */
const safeLink = (url: string) => (/^https?:\/\//i.test(url) ? url : undefined);

/** One attachment of a sent message: a page links to itself, an image shows (and opens) itself, a file is named. */
function SentItem({ item }: { item: MessageMedia }) {
  if (item.mediaType === 'image') {
    const src = mediaLink(item.url);
    return (
      <div className="attachment-sent-item attachment-sent-image" role="listitem">
        <a className="attachment-image" href={safeLink(src)} target="_blank" rel="noopener noreferrer nofollow" title={item.title}>
          <Thumbnail src={src} size={56} />
          <span className="attachment-sr-only">{item.title}</span>
        </a>
      </div>
    );
  }
  if (item.mediaType === 'file') {
    // The server answers the bytes as a download (never as a page of its origin).
    const href = safeLink(mediaLink(item.url));
    const name = (
      <>
        <IconFileText size={14} className="attachment-icon" />
        <Text size="xs" truncate="end">
          {item.title}
        </Text>
      </>
    );
    return (
      <div className="attachment-sent-item" role="listitem" title={item.title}>
        {href ? (
          <a className="attachment-link" href={href} target="_blank" rel="noopener noreferrer nofollow" download={item.title}>
            {name}
          </a>
        ) : (
          <Group gap={6} wrap="nowrap" className="attachment-main">
            {name}
          </Group>
        )}
      </div>
    );
  }
  return (
    <div className="attachment-sent-item" role="listitem">
      <a className="attachment-link" href={safeLink(item.url)} target="_blank" rel="noopener noreferrer nofollow" title={item.url}>
        <PageIcon icon={item.icon} />
        <Text size="xs" truncate="end">
          {item.title || item.url}
        </Text>
      </a>
    </div>
  );
}

/** What a sent message carried, in its bubble. */
export function SentMedia({ media }: { media: readonly MessageMedia[] }) {
  const { t } = useTranslation();
  if (media.length === 0) return null;
  return (
    <div className="attachment-list attachment-list-sent" role="list" aria-label={t('chat.content.sentAttachments')}>
      {media.map((item) => (
        <SentItem key={item.chatMediaId} item={item} />
      ))}
    </div>
  );
}

interface AttachmentChipsProps {
  items: readonly MediaItem[];
  onRetry: (uid: string) => void;
  onRemove: (uid: string) => void;
}

/** What is attached to the message being written, above its text. */
export const AttachmentChips = memo(function AttachmentChips({ items, onRetry, onRemove }: AttachmentChipsProps) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <div className="attachment-list" role="list" aria-label={t('chat.content.attachments')}>
      {items.map((item) => (
        <AttachmentChip key={item.uid} item={item} onRetry={onRetry} onRemove={onRemove} />
      ))}
    </div>
  );
});

/** The address field of the attach action: Enter or Add submits, a refusal shows under the field. */
function PageUrlForm({ onAdd, onAdded }: { onAdd: AddPage; onAdded: () => void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const refused = onAdd(url);
    setError(refused);
    if (refused === null) {
      setUrl('');
      onAdded();
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap={8}>
        <TextInput
          data-autofocus
          label={t('chat.content.pageUrlLabel')}
          placeholder={t('chat.content.pageUrlPlaceholder')}
          value={url}
          maxLength={MAX_PAGE_URL_CHARS}
          inputMode="url"
          autoComplete="off"
          error={error}
          onChange={(event) => {
            setUrl(event.currentTarget.value);
            setError(null);
          }}
          onKeyDown={(event) => {
            // The Enter that confirms an IME composition picks the word; it does not submit.
            if (event.key === 'Enter' && (event.nativeEvent.isComposing || event.keyCode === 229)) event.preventDefault();
          }}
        />
        <Group justify="flex-end">
          <Button type="submit" size="xs">
            {t('chat.content.addPage')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The composer's "Attach a web page" action: a popover beside it, a modal on mobile web. */
export const AttachPageButton = memo(function AttachPageButton({ onAdd }: { onAdd: AddPage }) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  const [opened, setOpened] = useState(false);
  const label = t('chat.content.attachPage');

  const trigger = (
    <ActionIcon variant="default" size={30} aria-label={label} aria-expanded={opened} onClick={() => setOpened((o) => !o)}>
      <IconLink size={16} />
    </ActionIcon>
  );

  if (isH5) {
    return (
      <>
        <Tooltip label={label} withArrow>
          {trigger}
        </Tooltip>
        <Modal opened={opened} onClose={() => setOpened(false)} title={label} centered size="sm">
          <PageUrlForm onAdd={onAdd} onAdded={() => setOpened(false)} />
        </Modal>
      </>
    );
  }
  return (
    // hideDetached off: the composer never scrolls away, and a page without layout (tests) would hide it.
    <Popover opened={opened} onChange={setOpened} position="top-start" withArrow shadow="md" trapFocus returnFocus hideDetached={false} width={300}>
      <Popover.Target>
        {/* The hint would cover the open popover: it stays closed meanwhile. */}
        <Tooltip label={label} withArrow opened={opened ? false : undefined}>
          {trigger}
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown aria-label={label}>
        <PageUrlForm onAdd={onAdd} onAdded={() => setOpened(false)} />
      </Popover.Dropdown>
    </Popover>
  );
});

const MAX_MB = MEDIA_LIMITS.chat.maxBytes / (1024 * 1024);

interface AttachFileButtonProps {
  /** The extensions the current model accepts, lower case without the dot. */
  accepted: readonly string[];
  /** Why files cannot be attached now (the model takes none); null when they can. */
  unavailable: string | null;
  /** Called on click before the file chooser opens; false keeps it closed (a visitor is asked to sign in). */
  canOpen: () => boolean;
  onFile: AddFile;
}

/**
 * The composer's "Attach a file" action: the browser's file chooser, offering the current model's
 * accepted types. Several files may be picked; each is checked and uploaded on its own, and each
 * refusal is told.
 */
export const AttachFileButton = memo(function AttachFileButton({ accepted, unavailable, canOpen, onFile }: AttachFileButtonProps) {
  const { t, i18n } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const label = t('chat.content.attachFile');
  const hint = unavailable ?? t('chat.content.attachFileHint', { types: fileKindsInWords(accepted, t, i18n.language), max: MAX_MB });

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.currentTarget.files ?? []);
    // Picking the same file again must fire a change again.
    event.currentTarget.value = '';
    for (const file of files) {
      const refused = onFile(file);
      if (refused) notifyError(refused);
    }
  };

  return (
    <>
      <ToolButton
        label={label}
        unavailable={unavailable}
        hint={hint}
        onClick={() => {
          if (canOpen()) input.current?.click();
        }}
      >
        <IconPaperclip size={16} />
      </ToolButton>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        data-testid="attach-file-input"
        accept={accepted.map((extension) => `.${extension}`).join(',')}
        onChange={onChange}
      />
    </>
  );
});

/**
 * Side panel only, for models that read images: attaches a screenshot of the visible part of the
 * active tab (named screenshot-<time>.<type>). A very large screen's PNG may pass the upload limit; a
 * JPEG of it, a fraction of the size, is taken instead.
 */
export const ScreenshotButton = memo(function ScreenshotButton({ tabs, canCapture, onFile }: { tabs: TabAccess; canCapture: () => boolean; onFile: AddFile }) {
  const { t } = useTranslation();
  const tab = useCurrentTab(tabs);
  const [capturing, setCapturing] = useState(false);
  if (!tab) return null;
  const reason = unreadableReason(tab.url);
  const why = reason ? t(`chat.content.unreadable.${reason}`) : null;
  const label = t('chat.content.screenshot');

  const capture = async () => {
    if (!canCapture()) return;
    setCapturing(true);
    try {
      let file = screenshotFile(await tabs.captureVisibleTab(tab.windowId));
      if (file.size >= MEDIA_LIMITS.chat.maxBytes) file = screenshotFile(await tabs.captureVisibleTab(tab.windowId, 'jpeg'));
      const refused = onFile(file);
      if (refused) notifyError(refused);
    } catch (error) {
      console.warn('capturing the tab failed', error);
      notifyError(t('chat.content.screenshotFailed'));
    } finally {
      setCapturing(false);
    }
  };

  return (
    <ToolButton label={label} unavailable={why} loading={capturing} onClick={() => void capture()}>
      <IconCamera size={16} />
    </ToolButton>
  );
});
