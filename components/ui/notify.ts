import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import { errorMessage } from './error-message.ts';

/**
 * A failure in the spec's words for its situation (product spec §8: 'Upload failed', 'Delete Failed',
 * 'cancel failed': locales errors.*), followed by the reason the failure gives, if any:
 * "Delete Failed: Not found."
 */
export function failedWith(what: string, error: unknown): string {
  const reason = error === undefined || error === null ? '' : errorMessage(error).trim();
  return reason && reason !== what ? i18next.t('errors.withReason', { what, reason }) : what;
}

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

/**
 * The one way a failed mutation is reported (`useMutation({ onError: onMutationError(...) })`): a red
 * toast with the failure's message (an ApiError carries the server's, in the reader's language),
 * or a text of the feature's own: fixed, or built from that message. `then` does what else the
 * failure undoes (a confirmation closed, an order put back).
 */
export function onMutationError(text?: string | ((message: string) => string), then?: (error: unknown) => void): (error: unknown) => void {
  return (error) => {
    const message = errorMessage(error);
    notifyError(text === undefined ? message : typeof text === 'string' ? text : text(message));
    then?.(error);
  };
}
