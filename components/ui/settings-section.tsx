import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A section of a settings page: a bordered card with its title, then what the section shows. A
 * `description` (the caller's own text, under the title) sits closer to the title than content does.
 */
export function SettingsSection({ title, description, testId, children }: { title: string; description?: ReactNode; testId?: string; children?: ReactNode }) {
  return (
    <Paper withBorder p="md" radius={6} data-testid={testId}>
      <Text fw={600} mb={description ? 4 : 'sm'}>
        {title}
      </Text>
      {description}
      {children}
    </Paper>
  );
}
