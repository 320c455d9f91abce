import { ActionIcon, Center, Divider, Group, Loader, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { chatSessionSearchQuery, messageSearchQuery } from '../../shared/api/chat-history.ts';
import type { ChatSessionItem } from '../../shared/contracts/chat.ts';
import { MAX_SEARCH_CHARS, SEARCH_TOTAL_CAP, type MessageSearchHit } from '../../shared/contracts/chat-search.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import en from '../../locales/features/chat-search.en.json';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { IconSearch } from '../ui/icons.tsx';
import { Drawer, Modal } from '../ui/overlays.tsx';
import { plainSnippet } from './plain-snippet.ts';

addEnglishStrings(en);

export interface SearchChatDialogProps {
  opened: boolean;
  onClose: () => void;
  onSelect: (session: ChatSessionItem) => void;
  /** A match inside a message: open its chat at that message. */
  onSelectMessage: (hit: MessageSearchHit) => void;
}

/** How long typing pauses before the search runs by itself. */
export const SEARCH_TYPING_PAUSE_MS = 300;

/**
 * Finds chats by title (first 10 matches, as before) and messages by their text (first 10, newest
 * first, with the match highlighted in a plain-text snippet) as the user types, once typing pauses,
 * and at once on Enter or the search icon; a modal on desktop, a full-height drawer on mobile.
 */
export function SearchChatDialog({ opened, onClose, onSelect, onSelectMessage }: SearchChatDialogProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  const [input, setInput] = useState('');
  const [paused] = useDebouncedValue(input.trim(), SEARCH_TYPING_PAUSE_MS);
  // Enter and the icon search what is typed without waiting for the pause.
  const [now, setNow] = useState<string | null>(null);
  const term = now ?? paused;
  const searched = term !== '';
  const enabled = opened && searched;
  const titles = useQuery({ ...chatSessionSearchQuery(term), enabled });
  const messages = useQuery({ ...messageSearchQuery(term), enabled });

  const search = () => setNow(input.trim());
  const close = () => {
    setInput('');
    setNow(null);
    onClose();
  };

  const body = (
    <Stack gap="sm">
      <TextInput
        data-autofocus
        aria-label={t('chatSearch.placeholder')}
        placeholder={t('chatSearch.placeholder')}
        value={input}
        maxLength={MAX_SEARCH_CHARS}
        onChange={(event) => {
          setInput(event.currentTarget.value);
          setNow(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.nativeEvent.isComposing) search();
        }}
        rightSection={
          <ActionIcon variant="subtle" aria-label={t('chat.sider.searchButton')} onClick={search}>
            <IconSearch size={16} />
          </ActionIcon>
        }
      />
      {searched && (
        <>
          <Section label={t('chatSearch.titles')} loading={titles.isFetching} error={titles.isError} empty={titles.data?.list.length === 0} emptyLabel={t('chat.sider.noSearchResult')}>
            <SessionResults sessions={titles.data?.list ?? []} onSelect={(session) => (close(), onSelect(session))} />
          </Section>
          <Divider />
          <Section label={t('chatSearch.messages')} loading={messages.isFetching} error={messages.isError} empty={messages.data?.list.length === 0} emptyLabel={t('chatSearch.noMessages')}>
            <MessageResults hits={messages.data?.list ?? []} total={messages.data?.total ?? 0} onSelect={(hit) => (close(), onSelectMessage(hit))} />
          </Section>
        </>
      )}
    </Stack>
  );

  return isH5 ? (
    <Drawer opened={opened} onClose={close} position="bottom" size="100%" title={t('chat.sider.searchChat')}>
      {body}
    </Drawer>
  ) : (
    <Modal opened={opened} onClose={close} title={t('chat.sider.searchChat')} size="lg">
      {body}
    </Modal>
  );
}

function Section(props: { label: string; loading: boolean; error: boolean; empty: boolean; emptyLabel: string; children: ReactNode }): ReactNode {
  const { t } = useTranslation();
  let content = props.children;
  if (props.loading) {
    content = (
      <Center py="md">
        <Loader size="sm" aria-label={t('chat.sider.loading')} />
      </Center>
    );
  } else if (props.error) {
    content = <Text size="sm" c="red">{t('chat.sider.loadFailed')}</Text>;
  } else if (props.empty) {
    content = <Text size="sm" c="dimmed">{props.emptyLabel}</Text>;
  }
  return (
    <Stack gap={4} role="group" aria-label={props.label}>
      <Text size="xs" fw={600} c="dimmed" tt="uppercase">
        {props.label}
      </Text>
      {content}
    </Stack>
  );
}

const rowStyle = { borderRadius: 6, display: 'flex', justifyContent: 'space-between', gap: 8 } as const;

function SessionResults(props: { sessions: ChatSessionItem[]; onSelect: (session: ChatSessionItem) => void }): ReactNode {
  return (
    <Stack gap={2} role="list">
      {props.sessions.map((session) => (
        <UnstyledButton role="listitem" key={session.chatSessionId} onClick={() => props.onSelect(session)} p={8} style={rowStyle}>
          <Text size="sm" truncate>
            {session.sessionTitle}
          </Text>
          <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
            {dayjs(session.createTime).format('YYYY-MM-DD')}
          </Text>
        </UnstyledButton>
      ))}
    </Stack>
  );
}

function MessageResults(props: { hits: MessageSearchHit[]; total: number; onSelect: (hit: MessageSearchHit) => void }): ReactNode {
  const { t } = useTranslation();
  return (
    <Stack gap={2} role="list">
      {props.hits.map((hit) => {
        const [before, match, after] = plainSnippet(hit);
        return (
          <UnstyledButton role="listitem" key={hit.chatMessageId} onClick={() => props.onSelect(hit)} p={8} style={{ borderRadius: 6 }}>
            <Text size="sm" lineClamp={3} style={{ wordBreak: 'break-word' }}>
              <Text span size="xs" c="dimmed" mr={6}>
                {hit.field === 'input' ? t('chatSearch.question') : t('chatSearch.answer')}
              </Text>
              {before}
              <mark>{match}</mark>
              {after}
            </Text>
            {/* The title gives way; the date is always whole. */}
            <Group gap={6} wrap="nowrap">
              <Text size="xs" c="dimmed" truncate style={{ minWidth: 0 }}>
                {t('chatSearch.from', { title: hit.sessionTitle })}
              </Text>
              <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                · {dayjs(hit.createTime).format('YYYY-MM-DD')}
              </Text>
            </Group>
          </UnstyledButton>
        );
      })}
      {props.total > props.hits.length && (
        <Text size="xs" c="dimmed">
          {props.total >= SEARCH_TOTAL_CAP
            ? t('chatSearch.moreCapped', { count: SEARCH_TOTAL_CAP, shown: props.hits.length })
            : t('chatSearch.more', { count: props.total, shown: props.hits.length })}
        </Text>
      )}
    </Stack>
  );
}
