import dayjs from 'dayjs';
import type { ChatSessionItem } from '../../shared/contracts/chat.ts';
import en from '../../locales/features/chat-history.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';

addEnglishStrings(en);

/** The history's sections that are not a month, in the order they show; the months follow, newest first. */
const FIXED_GROUPS = ['pinned', 'today', 'yesterday', 'previous7Days', 'previous30Days'] as const;
type FixedGroup = (typeof FIXED_GROUPS)[number];

/** A section of the history: `key` is one of FIXED_GROUPS, or a month as 'YYYY-MM'. */
export interface HistoryGroup {
  key: string;
  sessions: ChatSessionItem[];
}

/**
 * The section of a chat: Pinned, or by when it was last active, in the user's time zone (dayjs
 * reads times in the browser's): today, yesterday, the 7 days before today (yesterday excluded), the
 * 30 days before today, then its month. A time after `today` (a clock behind the server's) is today.
 */
function groupOf(session: ChatSessionItem, today: dayjs.Dayjs): string {
  if (session.pinned) return 'pinned';
  const at = dayjs(session.lastActiveTime);
  const since = (days: number) => !at.isBefore(today.subtract(days, 'day'));
  if (since(0)) return 'today';
  if (since(1)) return 'yesterday';
  if (since(7)) return 'previous7Days';
  if (since(30)) return 'previous30Days';
  return at.format('YYYY-MM');
}

const rank = (key: string) => {
  const fixed = FIXED_GROUPS.indexOf(key as FixedGroup);
  return fixed < 0 ? FIXED_GROUPS.length : fixed;
};

/**
 * The loaded history in its sections, each keeping the list's order. The sections are ordered by
 * themselves rather than by where their first chat is, so a chat the cache moved (a new one on top,
 * one found by search) never splits a section in two.
 */
export function groupSessions(sessions: ChatSessionItem[], now: Date = new Date()): HistoryGroup[] {
  const today = dayjs(now).startOf('day');
  const groups = new Map<string, ChatSessionItem[]>();
  for (const session of sessions) {
    const key = groupOf(session, today);
    const group = groups.get(key);
    if (group) group.push(session);
    else groups.set(key, [session]);
  }
  return [...groups]
    .map(([key, list]) => ({ key, sessions: list }))
    .sort((a, b) => rank(a.key) - rank(b.key) || b.key.localeCompare(a.key));
}

/** What a section's header says: its name, or its month in full ('November 2026', '2026年11月'). */
export function groupTitle(key: string, t: (key: string) => string): string {
  if (rank(key) < FIXED_GROUPS.length) return t(`chatHistory.groups.${key}`);
  return dayjs(`${key}-01`).format(t('chatHistory.monthFormat'));
}
