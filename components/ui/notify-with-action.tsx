import { Anchor, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';

/** A success toast with one way on from what was done ("Saved to favourites · View"); taking it closes the toast. */
export function notifySuccessWithAction(message: string, action: { label: string; onClick: () => void }): void {
  const id: string = notifications.show({
    color: 'teal',
    message: (
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <span>{message}</span>
        <Anchor
          component="button"
          type="button"
          size="sm"
          fw={600}
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
