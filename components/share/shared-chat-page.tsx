import { Alert, Anchor, Box, Button, Center, Container, Group, Image, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { getApiBase, ApiError } from '../../shared/api/request.ts';
import { getSharedChat } from './api.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import type { SharedMessage } from '../../shared/contracts/share.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import en from '../../locales/features/share.en.json';

addEnglishStrings(en);

const MarkdownView = lazy(() => import('../ui/markdown-view.tsx').then((module) => ({ default: module.MarkdownView })));

function Exchange({ message }: { message: SharedMessage }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" component="article">
      <Paper p="sm" radius="md" bg="var(--mantine-color-gray-light)">
        <Text size="xs" c="dimmed" mb={4}>
          {t('share.pageYou')}
        </Text>
        <Text style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{message.inputMessage}</Text>
      </Paper>
      {message.images.length > 0 && (
        <Group gap="xs">
          {message.images.map((src) => (
            <Image key={src} src={`${getApiBase()}${src}`} alt="" w={160} radius="sm" />
          ))}
        </Group>
      )}
      <Box>
        <Text size="xs" c="dimmed" mb={4}>
          {message.modelName ?? 'AI'}
        </Text>
        <Suspense fallback={<Text style={{ whiteSpace: 'pre-wrap' }}>{message.outputMessage}</Text>}>
          <MarkdownView text={message.outputMessage} citations={message.citations} />
        </Suspense>
      </Box>
    </Stack>
  );
}

/** /share/{id}: a chat someone shared, read only, for anyone (no sign-in); gone when revoked. */
export function SharedChatPage({ shareId, onStart }: { shareId: string; onStart: () => void }) {
  const { t } = useTranslation();
  const shared = useQuery({ queryKey: ['shared-chat', shareId], queryFn: ({ signal }) => getSharedChat(shareId, signal), retry: false });
  const gone = shared.error instanceof ApiError && (shared.error.code === Codes.NotFound || shared.error.code === Codes.BadRequest);
  return (
    <Container size="md" py="lg">
      <Stack gap="lg">
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('share.pageBanner')}
          </Text>
          <Button variant="light" size="xs" onClick={onStart}>
            {t('share.pageStart')}
          </Button>
        </Group>
        {shared.isPending && (
          <Center py="xl">
            <Loader size="sm" />
          </Center>
        )}
        {shared.isError && (
          <Alert color={gone ? 'gray' : 'red'} role="alert">
            {gone ? t('share.pageGone') : t('share.pageLoadFailed')}{' '}
            <Anchor component="button" onClick={onStart}>
              {t('share.pageStart')}
            </Anchor>
          </Alert>
        )}
        {shared.data && (
          <>
            <Stack gap={2}>
              <Title order={2} style={{ wordBreak: 'break-word' }}>
                {shared.data.title}
              </Title>
              <Text size="xs" c="dimmed">
                {t('share.pageSharedOn', { date: dayjs(shared.data.createTime).format('YYYY-MM-DD') })}
              </Text>
            </Stack>
            {shared.data.messages.map((message, i) => (
              <Exchange key={i} message={message} />
            ))}
          </>
        )}
      </Stack>
    </Container>
  );
}
