import { Paper, Text } from '@mantine/core';

/**
 * One figure with its label (and a detail line when given), as the dashboard and the user page show
 * them; `compact` is the user page's smaller card. `testId` names the card, and `<testId>-value` its figure.
 */
export function StatCard({ label, value, detail, testId, compact = false }: { label: string; value: string; detail?: string; testId?: string; compact?: boolean }) {
  return (
    <Paper withBorder radius="md" p={compact ? 'sm' : 'md'} role="group" aria-label={label} data-testid={testId}>
      <Text size="xs" c="dimmed" tt={compact ? undefined : 'uppercase'} fw={compact ? undefined : 600}>
        {label}
      </Text>
      <Text size={compact ? undefined : 'xl'} fw={compact ? 600 : 700} data-testid={testId ? `${testId}-value` : undefined}>
        {value}
      </Text>
      {detail && (
        <Text size="xs" c="dimmed">
          {detail}
        </Text>
      )}
    </Paper>
  );
}
