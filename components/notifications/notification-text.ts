import type { i18n as I18n } from 'i18next';
import en from '../../locales/features/notifications.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import type { UserNotification } from '../../shared/contracts/notifications.ts';
import { planNameAlone } from '../../shared/utils/plan-level.ts';

addEnglishStrings(en);

/**
 * What a notification says, in the reader's language (docs/economy.md#notifications). The server
 * sends message keys with parameters; the parameters are text (React renders them as text, never as
 * HTML). A key this build has no text for (a newer server's) shows a generic title and body rather
 * than the raw key; a broadcast shows the operator's own title and body as they are.
 */
export interface NotificationText {
  title: string;
  body: string;
}

type Translator = Pick<I18n, 't' | 'exists'>;

const BROADCAST_TITLE_KEY = 'notifications.broadcast.title';

/** Only keys of the notifications section are ours to render; anything else counts as unknown. */
const isOurs = (i18n: Translator, key: string) => key.startsWith('notifications.') && i18n.exists(key);

const asText = (value: string | number | undefined) => (value === undefined ? '' : String(value));

/** A variant of a key for what the parameters say (a redeem of points, plan days, or both). */
function contextOf(notification: UserNotification): string | undefined {
  if (!notification.titleKey.startsWith('notifications.redeem.')) return undefined;
  const points = Number(notification.params.points ?? 0);
  const planDays = Number(notification.params.planDays ?? 0);
  if (points > 0 && planDays > 0) return 'both';
  return planDays > 0 ? 'plan' : 'points';
}

export function notificationText(notification: UserNotification, i18n: Translator): NotificationText {
  const { params } = notification;
  if (notification.kind === 'broadcast' || notification.titleKey === BROADCAST_TITLE_KEY) {
    return { title: asText(params.title) || i18n.t('notifications.unknown.title'), body: asText(params.body) };
  }
  // Parameters go in `replace`, so none of them (a `lng`, a `defaultValue`) is read as an option. A
  // plan the server names by its level's default (English) name is named in the reader's language.
  const plan = typeof params.plan === 'string' ? { plan: planNameAlone(params.plan, (key) => i18n.t(key)) } : {};
  const options = { replace: { ...params, ...plan }, context: contextOf(notification) };
  return {
    title: isOurs(i18n, notification.titleKey) ? i18n.t(notification.titleKey, options) : i18n.t('notifications.unknown.title'),
    body: isOurs(i18n, notification.bodyKey) ? i18n.t(notification.bodyKey, options) : i18n.t('notifications.unknown.body'),
  };
}

/** A notification's link is followed only when it is a path inside the app (not '//host' or '/\host'). */
export function appPathOf(link: string): string | null {
  return /^\/(?![/\\])[^\s\\]*$/.test(link) ? link : null;
}

/** The time a notification was made, in the reader's language. */
export function formatNotificationTime(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
