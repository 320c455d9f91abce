import { Button, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A settings section that leads to a page of its own: a title, a line on what is there, and the way in. */
export function SettingsLinkSection(props: { title: string; hint: string; label: string; icon: ReactNode; onOpen: () => void; testId?: string }) {
  return (
    <Paper withBorder p="md" radius={6}>
      <Stack gap="xs" align="flex-start">
        <Text fw={600}>{props.title}</Text>
        <Text size="sm" c="dimmed">
          {props.hint}
        </Text>
        <Button variant="light" leftSection={props.icon} onClick={props.onOpen} data-testid={props.testId}>
          {props.label}
        </Button>
      </Stack>
    </Paper>
  );
}
