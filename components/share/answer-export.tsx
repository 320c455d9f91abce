import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChatExchange } from '../../shared/contracts/chat.ts';
import { IconDownload, IconFileText } from '../ui/icons.tsx';
import { notifyError } from '../ui/notify.ts';
import { downloadMarkdown, downloadPdf, exportFailure } from './session-share-actions.tsx';

export interface AnswerExportProps {
  exchange: ChatExchange;
}

/** An exported answer's title (and file name): the first line of its question, else "Answer". */
function answerTitle(exchange: ChatExchange, fallback: string): string {
  const line = exchange.inputMessage.split('\n').find((l) => l.trim())?.trim() ?? '';
  return Array.from(line).slice(0, 60).join('') || fallback;
}

/** Among an answer's actions: download this one answer, with its question, as Markdown or as a PDF. */
export function AnswerExport({ exchange }: AnswerExportProps) {
  const { t } = useTranslation();
  const title = answerTitle(exchange, t('share.answerTitle'));
  const failed = () => notifyError(t('share.answerExportFailed'));
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Tooltip label={t('share.answerExport')}>
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('share.answerExport')}>
            <IconDownload size={14} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          leftSection={<IconDownload size={14} />}
          onClick={() => {
            try {
              downloadMarkdown(title, [exchange], t);
            } catch {
              failed();
            }
          }}
        >
          {t('share.menuExportMarkdown')}
        </Menu.Item>
        <Menu.Item
          leftSection={<IconFileText size={14} />}
          onClick={() => void downloadPdf(title, async () => [exchange], t).catch((error: unknown) => notifyError(exportFailure(error, t('share.answerExportFailed'))))}
        >
          {t('share.menuExportPdf')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
