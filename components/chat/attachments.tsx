import { ActionIcon, Button, Group, Loader, Modal, Popover, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { memo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageMedia } from '../../shared/contracts/chat.ts';
import { MAX_PAGE_URL_CHARS } from '../../shared/contracts/media.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { IconAlert, IconFileText, IconLink, IconPaperclip, IconRefresh, IconX } from '../ui/icons.tsx';
import { notifyError } from '../ui/notify.ts';
import { useCurrentTab } from './current-tab.ts';
import { parsePageUrl, type MediaItem } from './use-attachments.ts';

/** Adds a page: answers the validation message when it is refused, null when it was added. */
export type AddPage = (url: string) => string | null;

/** Only icons a page can point at without running anything: web addresses and inline images. */
function safeIconSrc(icon: string): string | null {
  return /^(https?:\/\/|data:image\/)/i.test(icon) ? icon : null;
}

/** The page's favicon when it has one that loads, else a link icon. */
function PageIcon({ icon }: { icon: string }) {
  const [broken, setBroken] = useState(false);
  const src = safeIconSrc(icon);
  if (!src || broken) return <IconLink size={14} className="attachment-icon" />;
  return (
    <img src={src} alt="" width={14} height={14} className="attachment-icon" referrerPolicy="no-referrer" onError={() => setBroken(true)} />
  );
}

function AttachmentChip({ item, onRetry, onRemove }: { item: MediaItem; onRetry: (uid: string) => void; onRemove: (uid: string) => void }) {
  const { t } = useTranslation();
  const name = item.title || item.link;
  return (
    <div className="attachment-chip" role="listitem" data-status={item.status} aria-busy={item.status === 'loading'}>
      <Tooltip label={item.status === 'error' ? item.error : item.link} withArrow multiline maw={320} openDelay={300}>
        <Group gap={6} wrap="nowrap" className="attachment-main">
          {item.status === 'loading' ? (
            <Loader size={12} aria-label={t('chat.content.readingPage')} />
          ) : item.status === 'error' ? (
            <IconAlert size={14} className="attachment-icon" color="var(--mantine-color-red-6)" />
          ) : (
            <PageIcon icon={item.icon} />
          )}
          <div className="attachment-text">
            <Text size="xs" truncate="end" c={item.status === 'loading' ? 'dimmed' : undefined}>
              {name}
            </Text>
            {item.status === 'error' && (
              <Text size="xs" c="red" truncate="end">
                {item.error}
              </Text>
            )}
          </div>
        </Group>
      </Tooltip>
      {item.status === 'error' && (
        <ActionIcon variant="subtle" size={20} color="gray" aria-label={t('chat.content.retryAttachment', { name })} onClick={() => onRetry(item.uid)}>
          <IconRefresh size={12} />
        </ActionIcon>
      )}
      <ActionIcon variant="subtle" size={20} color="gray" aria-label={t('chat.content.removeAttachment', { name })} onClick={() => onRemove(item.uid)}>
        <IconX size={12} />
      </ActionIcon>
    </div>
  );
}

/** The pages a sent message carried, in its bubble: each opens its page in a new tab. */
export function SentMedia({ media }: { media: readonly MessageMedia[] }) {
  const { t } = useTranslation();
  if (media.length === 0) return null;
  return (
    <div className="attachment-list attachment-list-sent" role="list" aria-label={t('chat.content.sentAttachments')}>
      {media.map((item) => (
        <div key={item.chatMediaId} className="attachment-sent-item" role="listitem">
          <a className="attachment-link" href={safeLink(item.url)} target="_blank" rel="noopener noreferrer nofollow" title={item.url}>
            <PageIcon icon={item.icon} />
            <Text size="xs" truncate="end">
              {item.title || item.url}
            </Text>
          </a>
        </div>
      ))}
    </div>
  );
}

/** Only web addresses become links. */
const safeLink = (url: string) => (/^https?:\/\//i.test(url) ? url : undefined);

interface AttachmentChipsProps {
  items: readonly MediaItem[];
  onRetry: (uid: string) => void;
  onRemove: (uid: string) => void;
}

/** The pages attached to the message being written, above its text. */
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
      <IconPaperclip size={16} />
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

/**
 * Side panel only: offers the page open beside the panel. The server reads its public address (it
 * never sees the user's cookies), so a page behind a login reads as a signed-out visitor sees it;
 * the tooltip says so.
 */
export const ReadThisPageButton = memo(function ReadThisPageButton({ has, onAdd }: { has: (url: string) => boolean; onAdd: AddPage }) {
  const { t } = useTranslation();
  const tab = useCurrentTab();
  // Only an http(s) page that is not attached yet (the composer's own duplicate rule).
  const url = tab && parsePageUrl(tab.url);
  if (!tab || !url || has(url)) return null;

  return (
    <Tooltip label={t('chat.content.readThisPageHint')} withArrow multiline maw={280}>
      <Button
        variant="light"
        size="compact-sm"
        radius="xl"
        mb={6}
        className="read-this-page"
        aria-label={t('chat.content.readThisPageLabel', { title: tab.title })}
        leftSection={tab.favIconUrl ? <PageIcon icon={tab.favIconUrl} /> : <IconFileText size={14} />}
        onClick={() => {
          const refused = onAdd(url);
          if (refused) notifyError(refused);
        }}
      >
        <span className="read-this-page-label">{t('chat.content.readThisPage')}</span>
        <span className="read-this-page-title">{tab.title}</span>
      </Button>
    </Tooltip>
  );
});
