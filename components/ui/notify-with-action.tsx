import { Anchor, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';

/**
 * A toast with one way on from what happened ("Saved to favourites · View", "… cannot be attached ·
 * Use Vision"); taking it closes the toast. A refusal with a way on stays longer than a plain one (10 s), to be read and taken.
 */
export function notifyWithAction(kind: 'success' | 'error', message: string, action: { label: string; onClick: () => void }): void {
  const id: string = notifications.show({
    color: kind === 'success' ? 'teal' : 'red',
    autoClose: kind === 'error' ? 10_000 : undefined,
    message: (
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <span>{message}</span>
        <Anchor
          component="button"
          type="button"
          size="sm"
          fw={600}
          style={{ flexShrink: 0 }}
          onClick={() => {
            notifications.hide(id);
            action.onClick();
          }}
        >
          {action.label}
        </Anchor>
      </Group>
    ),
  });
}
