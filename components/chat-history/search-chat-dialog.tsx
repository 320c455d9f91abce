import { ActionIcon, Center, Loader, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { chatSessionSearchQuery } from '../../shared/api/chat-history.ts';
import type { ChatSessionItem } from '../../shared/contracts/chat.ts';
import { MAX_SESSION_TITLE_CHARS } from '../../shared/contracts/chat.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { IconSearch } from '../ui/icons.tsx';
import { Drawer, Modal } from '../ui/overlays.tsx';

export interface SearchChatDialogProps {
  opened: boolean;
  onClose: () => void;
  onSelect: (session: ChatSessionItem) => void;
}

/** Finds chats by title (first 10 matches) on Enter or the search icon; a modal on desktop, a full-height drawer on mobile. */
export function SearchChatDialog({ opened, onClose, onSelect }: SearchChatDialogProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  const [input, setInput] = useState('');
  // null until the first search: typing alone sends nothing.
  const [term, setTerm] = useState<string | null>(null);
  const results = useQuery({ ...chatSessionSearchQuery(term ?? ''), enabled: opened && term !== null });

  const search = () => setTerm(input.trim());
  const close = () => {
    setInput('');
    setTerm(null);
    onClose();
  };

  const body = (
    <Stack gap="sm">
      <TextInput
        data-autofocus
        aria-label={t('chat.sider.searchPlaceholder')}
        placeholder={t('chat.sider.searchPlaceholder')}
        value={input}
        maxLength={MAX_SESSION_TITLE_CHARS}
        onChange={(event) => setInput(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.nativeEvent.isComposing) search();
        }}
        rightSection={
          <ActionIcon variant="subtle" aria-label={t('chat.sider.searchButton')} onClick={search}>
            <IconSearch size={16} />
          </ActionIcon>
        }
      />
      <SearchResults
        searched={term !== null}
        loading={results.isFetching}
        error={results.isError ? t('chat.sider.loadFailed') : null}
        sessions={results.data?.list ?? []}
        emptyLabel={t('chat.sider.noSearchResult')}
        loadingLabel={t('chat.sider.loading')}
        onSelect={(session) => {
          close();
          onSelect(session);
        }}
      />
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

function SearchResults(props: {
  searched: boolean;
  loading: boolean;
  error: string | null;
  sessions: ChatSessionItem[];
  emptyLabel: string;
  loadingLabel: string;
  onSelect: (session: ChatSessionItem) => void;
}): ReactNode {
  if (!props.searched) return null;
  if (props.loading) {
    return (
      <Center py="md">
        <Loader size="sm" aria-label={props.loadingLabel} />
      </Center>
    );
  }
  if (props.error) return <Text size="sm" c="red">{props.error}</Text>;
  if (props.sessions.length === 0) return <Text size="sm" c="dimmed">{props.emptyLabel}</Text>;
  return (
    <Stack gap={2} role="list">
      {props.sessions.map((session) => (
        <UnstyledButton
          role="listitem"
          key={session.chatSessionId}
          onClick={() => props.onSelect(session)}
          p={8}
          style={{ borderRadius: 6, display: 'flex', justifyContent: 'space-between', gap: 8 }}
        >
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
