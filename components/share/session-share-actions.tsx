import { Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { getAllMessages } from './api.ts';
import type { ChatExchange, ChatSessionItem } from '../../shared/contracts/chat.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import en from '../../locales/features/share.en.json';
import { IconDownload, IconFileText, IconLink } from '../ui/icons.tsx';
import { notifyError } from '../ui/notify.ts';
import { downloadBlob, downloadText } from '../ui/download.ts';
import { chatToMarkdown, fileNameFor } from './chat-markdown.ts';

addEnglishStrings(en);

const markdownLabels = (t: (key: string) => string) => ({
  you: t('share.markdownYou'),
  attachments: t('share.markdownAttachments'),
  sources: t('share.markdownSources'),
  exported: t('share.markdownExported'),
});
const exportedAt = () => new Date().toISOString().slice(0, 16).replace('T', ' ');

/** Downloads exchanges (a whole chat, or one answer) as Markdown under `title`. */
export function downloadMarkdown(title: string, exchanges: readonly ChatExchange[], t: (key: string) => string): void {
  downloadText(chatToMarkdown(title, exchanges, markdownLabels(t), exportedAt()), fileNameFor(title, 'md'), 'text/markdown;charset=utf-8');
}

/** Downloads one of the caller's chats as Markdown. */
export async function exportChatMarkdown(session: Pick<ChatSessionItem, 'chatSessionId' | 'sessionTitle'>, t: (key: string) => string): Promise<void> {
  downloadMarkdown(session.sessionTitle, await getAllMessages(session.chatSessionId), t);
}

let exportingPdf = false;

/**
 * Downloads exchanges (a whole chat, or one answer) as a PDF under `title`, with a toast showing how
 * far it got: the PDF code (chat-pdf.ts) is fetched only now. A second click while one is being made
 * is ignored.
 */
export async function downloadPdf(title: string, load: () => Promise<readonly ChatExchange[]>, t: TFunction): Promise<void> {
  if (exportingPdf) return;
  exportingPdf = true;
  const id = 'share-pdf';
  let shown = 0;
  const show = (percent: number) => ({ id, loading: true, autoClose: false, withCloseButton: false, message: t('share.pdfProgress', { percent }) });
  notifications.show(show(0));
  try {
    const [exchanges, { chatToPdf }] = await Promise.all([load(), import('./chat-pdf.ts')]);
    // The renderer puts each image's host in place of {host}.
    const labels = { ...markdownLabels(t), image: t('share.pdfImage', { host: '{host}' }) };
    const blob = await chatToPdf(title, exchanges, labels, exportedAt(), (done) => {
      const percent = Math.min(99, Math.floor(done * 100));
      if (percent !== shown) notifications.update(show((shown = percent)));
    });
    downloadBlob(blob, fileNameFor(title, 'pdf'));
  } finally {
    exportingPdf = false;
    notifications.hide(id);
  }
}

const exportChatPdf = (session: Pick<ChatSessionItem, 'chatSessionId' | 'sessionTitle'>, t: TFunction) => downloadPdf(session.sessionTitle, () => getAllMessages(session.chatSessionId), t);

/**
 * A chat's Share and Export items in the history's session menu (and the open chat's header). Share
 * asks the caller to open the share dialog, which lives outside the menu (the menu closes on a
 * click); without `onShare` (a header with its own Share button) only the export items show.
 */
export function ShareMenuItems({ session, onShare }: { session: Pick<ChatSessionItem, 'chatSessionId' | 'sessionTitle'>; onShare?: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      {onShare && (
        <Menu.Item leftSection={<IconLink size={14} />} onClick={onShare}>
          {t('share.menuShare')}
        </Menu.Item>
      )}
      <Menu.Item leftSection={<IconDownload size={14} />} onClick={() => void exportChatMarkdown(session, t).catch(() => notifyError(t('share.exportFailed')))}>
        {t('share.menuExportMarkdown')}
      </Menu.Item>
      <Menu.Item leftSection={<IconFileText size={14} />} onClick={() => void exportChatPdf(session, t).catch(() => notifyError(t('share.exportFailed')))}>
        {t('share.menuExportPdf')}
      </Menu.Item>
    </>
  );
}
