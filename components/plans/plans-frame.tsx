import { ActionIcon, Anchor, Box, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useSetAtom } from 'jotai';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { openLoginDialogAtom } from '../../shared/atoms/login-dialog.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { IconArrowLeft } from '../ui/icons.tsx';

export interface PlansFrameProps {
  title: string;
  /** Where the back bar (narrow screens) and the back link (wide ones) lead. */
  onBack: () => void;
  backLabel?: string;
  /** The content's width on a wide screen. */
  width?: number;
  children: ReactNode;
}

/**
 * The frame of the plan pages (layout 1): on a narrow screen (mobile web at 390 px, the side panel)
 * a bar on top with the back button and the title; on a wide one the title with a back link.
 */
export function PlansFrame({ title, onBack, backLabel, width = 720, children }: PlansFrameProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  const back = backLabel ?? t('plans.back');
  return (
    <Box mih="100dvh">
      {isH5 && (
        <Group
          gap={4}
          px={8}
          py={6}
          wrap="nowrap"
          data-testid="plans-back-bar"
          style={{ borderBottom: '1px solid var(--mantine-color-gray-3)', position: 'sticky', top: 0, background: 'var(--mantine-color-body)', zIndex: 2 }}
        >
          <ActionIcon variant="subtle" color="gray" aria-label={back} onClick={onBack}>
            <IconArrowLeft />
          </ActionIcon>
          <Text fw={600} size="sm" truncate>
            {title}
          </Text>
        </Group>
      )}
      <Stack maw={width} mx="auto" p="md" gap="md">
        {!isH5 && (
          <Group justify="space-between" wrap="nowrap">
            <Title order={3}>{title}</Title>
            <Anchor component="button" type="button" size="sm" onClick={onBack}>
              {back}
            </Anchor>
          </Group>
        )}
        {children}
      </Stack>
    </Box>
  );
}

/** A visitor's way in: what signing in gives here, and the login dialog. */
export function SignInPrompt({ message }: { message: string }) {
  const { t } = useTranslation();
  const openLogin = useSetAtom(openLoginDialogAtom);
  return (
    <Paper withBorder p="lg" radius={6}>
      <Stack align="center" gap="sm">
        <Text ta="center">{message}</Text>
        <Button onClick={() => openLogin('plans.signInTip')}>{t('plans.signIn')}</Button>
      </Stack>
    </Paper>
  );
}
