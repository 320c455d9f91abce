import { ActionIcon, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/chat-versions.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { IconChevronLeft, IconChevronRight } from '../ui/icons.tsx';
import { versionIndexOf, versionsOf, type ChatTurn } from './use-chat.ts';

addEnglishStrings(en);

/**
 * "‹ 2/3 ›" under an answer whose turn has more than one version (Ask again, an edited question): the
 * arrows show the previous or next version and its branch below (docs/api.md#answer-versions).
 */
export function VersionSwitch({ turn, busy, onSwitch }: { turn: ChatTurn; busy: boolean; onSwitch: (turn: ChatTurn, chatMessageId: string) => void }) {
  const { t } = useTranslation();
  const ids = versionsOf(turn);
  const index = versionIndexOf(turn);
  if (ids.length < 2 || index < 1) return null;
  const go = (to: number) => {
    const id = ids[to - 1];
    if (id) onSwitch(turn, id);
  };
  return (
    <Group gap={0} wrap="nowrap" role="group" aria-label={t('chatVersions.position', { index, count: ids.length })} data-testid="answer-versions">
      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('chatVersions.previous')} disabled={busy || index <= 1} onClick={() => go(index - 1)}>
        <IconChevronLeft size={14} />
      </ActionIcon>
      <Text size="xs" c="dimmed" px={2} style={{ fontVariantNumeric: 'tabular-nums' }} aria-hidden>
        {index}/{ids.length}
      </Text>
      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('chatVersions.next')} disabled={busy || index >= ids.length} onClick={() => go(index + 1)}>
        <IconChevronRight size={14} />
      </ActionIcon>
    </Group>
  );
}
