import { Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { getAllMessages, markdownToPdf } from './api.ts';
import { ApiError } from '../../shared/api/request.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import { currentLanguage } from '../../shared/i18n/i18n.ts';
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
 * Downloads exchanges (a whole chat, or one answer) as a PDF under `title`, with a toast while it is
 * made: the server lays the chat's Markdown (the Markdown export's, without its title line) out as
 * a PDF of text, with the title on its first page (POST /api/Image/MarkdownToPdf). A second click
 * while one is being made is ignored. A refusal rejects with the server's reason (too long, busy).
 */
export async function downloadPdf(title: string, load: () => Promise<readonly ChatExchange[]>, t: TFunction): Promise<void> {
  if (exportingPdf) return;
  exportingPdf = true;
  const id = 'share-pdf';
  notifications.show({ id, loading: true, autoClose: false, withCloseButton: false, message: t('share.pdfProgress') });
  try {
    const exchanges = await load();
    const markdown = chatToMarkdown(title, exchanges, markdownLabels(t), exportedAt(), { heading: false });
    const fileName = fileNameFor(title, 'pdf');
    // Within the contract's bound whatever the title (150 characters are at most 300 UTF-16 units).
    const pdfTitle = Array.from(title.replace(/\s+/g, ' ').trim()).slice(0, 150).join('');
    const pdf = await markdownToPdf({ markdown, title: pdfTitle, fileName, lang: currentLanguage() });
    downloadBlob(pdf, fileName);
  } finally {
    exportingPdf = false;
    notifications.hide(id);
  }
}

/** What a failed export says: the server's reason (too long, busy) when it gave one, else `fallback`. */
export function exportFailure(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.code !== Codes.ServerError && error.code !== Codes.Aborted ? error.message : fallback;
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
      <Menu.Item leftSection={<IconFileText size={14} />} onClick={() => void exportChatPdf(session, t).catch((error: unknown) => notifyError(exportFailure(error, t('share.exportFailed'))))}>
        {t('share.menuExportPdf')}
      </Menu.Item>
    </>
  );
}
