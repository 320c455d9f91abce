import { notifications } from '@mantine/notifications';

/** The app's two kinds of toast, so every feature reports outcomes alike. */
export function notifySuccess(message: string): void {
  notifications.show({ message, color: 'teal' });
}

export function notifyError(message: string): void {
  notifications.show({ message, color: 'red' });
}
