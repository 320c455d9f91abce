import { ActionIcon, Anchor, Box, Group, Stack, Text, Title } from '@mantine/core';
import { createContext, useContext, type ReactNode } from 'react';
import { IconArrowLeft } from './icons.tsx';

/**
 * A page shown inside a shell that frames several pages alike (the settings layout,
 * components/layout/settings-layout.tsx). On a wide screen (`inset`) the shell shows the title bar,
 * its way back (`backLabel`) and its navigation: the page shows its title as a heading, with its own
 * way back beside it unless that says the same as the shell's, then its content. On a narrow one the
 * page keeps its back bar, with the shell's `nav` under it.
 */
export interface PageShell {
  inset: boolean;
  backLabel?: string;
  nav?: ReactNode;
}

/** A page's heading inside a shell: its title, and its back link unless the shell's is the same. */
function InsetHeader({ title, backLabel, onBack, shell }: PageHeaderProps & { shell: PageShell }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Title order={4}>{title}</Title>
      {backLabel !== shell.backLabel && (
        <Anchor component="button" type="button" size="sm" onClick={onBack}>
          {backLabel}
        </Anchor>
      )}
    </Group>
  );
}
export const PageShellContext = createContext<PageShell | null>(null);

export interface PageHeaderProps {
  title: string;
  backLabel: string;
  onBack: () => void;
}

/** A page's title with a back link beside it: the top of a full page on a wide screen. */
export function PageHeader({ title, backLabel, onBack }: PageHeaderProps) {
  const shell = useContext(PageShellContext);
  if (shell?.inset) return <InsetHeader title={title} backLabel={backLabel} onBack={onBack} shell={shell} />;
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
  const shell = useContext(PageShellContext);
  if (shell?.inset && !narrow) {
    return (
      <Stack gap="md" data-testid="page-in-shell">
        <InsetHeader title={title} backLabel={backLabel} onBack={onBack} shell={shell} />
        {children}
      </Stack>
    );
  }
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
      {narrow && shell?.nav}
      <Stack maw={width} mx="auto" p="md" gap="md">
        {!narrow && <PageHeader title={title} backLabel={backLabel} onBack={onBack} />}
        {children}
      </Stack>
    </Box>
  );
}
