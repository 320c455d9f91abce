import { ActionIcon, Anchor, Box, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconArrowLeft } from './icons.tsx';

export interface PageHeaderProps {
  title: string;
  backLabel: string;
  onBack: () => void;
}

/** A page's title with a back link beside it: the top of a full page on a wide screen. */
export function PageHeader({ title, backLabel, onBack }: PageHeaderProps) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Title order={3}>{title}</Title>
      <Anchor component="button" type="button" size="sm" onClick={onBack}>
        {backLabel}
      </Anchor>
    </Group>
  );
}

export interface PageFrameProps extends PageHeaderProps {
  /** A narrow screen (mobile web at 390 px, the side panel: `usePlatform().isH5`). */
  narrow: boolean;
  /** The content's width on a wide screen. */
  width?: number;
  /** The narrow screen's back bar, for tests to find (components/plans/plans-frame.tsx names its own). */
  backBarTestId?: string;
  children: ReactNode;
}

/**
 * The frame of a full page reached from the chat (the invite page, the plan pages): on a narrow
 * screen a sticky bar on top with the back button and the title; on a wide one the title with a back
 * link. The bar stays above inputs' sections (Mantine gives them z-index 1) as they scroll under it.
 */
export function PageFrame({ title, backLabel, onBack, narrow, width = 720, backBarTestId, children }: PageFrameProps) {
  return (
    <Box mih="100dvh">
      {narrow && (
        <Group
          gap={4}
          px={8}
          py={6}
          wrap="nowrap"
          data-testid={backBarTestId}
          style={{ borderBottom: '1px solid var(--mantine-color-default-border)', position: 'sticky', top: 0, background: 'var(--mantine-color-body)', zIndex: 2 }}
        >
          <ActionIcon variant="subtle" color="gray" aria-label={backLabel} onClick={onBack}>
            <IconArrowLeft />
          </ActionIcon>
          <Text fw={600} size="sm" truncate>
            {title}
          </Text>
        </Group>
      )}
      <Stack maw={width} mx="auto" p="md" gap="md">
        {!narrow && <PageHeader title={title} backLabel={backLabel} onBack={onBack} />}
        {children}
      </Stack>
    </Box>
  );
}
