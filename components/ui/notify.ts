import { notifications } from '@mantine/notifications';

/** The app's kinds of toast, so every feature reports outcomes alike. */
export function notifySuccess(message: string): void {
  notifications.show({ message, color: 'teal' });
}

export function notifyError(message: string): void {
  notifications.show({ message, color: 'red' });
}

/** Done, but something is left for the person to do: it stays until closed. */
export function notifyWarning(message: string): void {
  notifications.show({ message, color: 'orange', autoClose: false });
}
