import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import './strings.ts';

export interface NotFoundPageProps {
  /** `chat`: an address that names no chat of this account (deleted, another's, mistyped). */
  kind?: 'page' | 'chat';
  onHome: () => void;
  onHelp?: () => void;
  /** Fills the screen (the `*` route); false inside the chat layout's main area. */
  fullHeight?: boolean;
}

/** The not-found page (`*`), and "chat not found" in the chat layout: what happened and a way back. */
export function NotFoundPage({ kind = 'page', onHome, onHelp, fullHeight = true }: NotFoundPageProps) {
  const { t } = useTranslation();
  const chat = kind === 'chat';
  return (
    <Stack align="center" justify="center" h={fullHeight ? '100dvh' : '100%'} gap="sm" p="md" ta="center" data-testid={chat ? 'chat-not-found' : 'page-not-found'}>
      <Text fz={48} fw={700} c="primary.4" lh={1}>
        404
      </Text>
      <Title order={3}>{t(chat ? 'newcomers.notFound.chatTitle' : 'newcomers.notFound.title')}</Title>
      <Text c="dimmed" maw={420}>
        {t(chat ? 'newcomers.notFound.chatMessage' : 'newcomers.notFound.message')}
      </Text>
      <Group gap="sm">
        <Button onClick={onHome}>{t('newcomers.notFound.home')}</Button>
        {onHelp && (
          <Button variant="default" onClick={onHelp}>
            {t('newcomers.notFound.help')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
