import { and, eq, inArray, sql } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { CheckinStatus } from '../../../shared/contracts/points.ts';
import type { AppContext } from '../../context.ts';
import { userCheckins } from '../../db/schema/points.ts';
import { AppError } from '../../core/errors.ts';
import { creditPoints } from './ledger.ts';
import { notify } from '../notifications/notifications.ts';
import { announcingNotified } from '../notifications/unread-events.ts';
import { settingValues, wholeNumberSetting } from '../system/settings.ts';

/**
 * Daily check-in (docs/economy.md#check-in). A check-in counts for the user's calendar day in the
 * time zone the client sends; the primary key of user_checkins (user, day) makes a second check-in of
 * that day impossible, however many tabs click at once.
 */

const DAY_MS = 86_400_000;
/** The streak bonus comes on every this many consecutive days. */
export const STREAK_BONUS_EVERY = 7;

const DEFAULT_POINTS = 10;
/** Settings beyond this are typing mistakes, not intentions: the default applies. */
const MAX_SETTING = 1_000_000;

/** The calendar day (YYYY-MM-DD) that `now` falls on in `timeZone`. */
export function dayIn(timeZone: string, now: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The day `n` days after `day` (before, when negative). */
export function shiftDay(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The user's today. Every real zone is within a day of UTC (UTC-12 to UTC+14); a day further away
 * would let a client reach tomorrow's check-in early, so it is refused. Switching zones can at most
 * move the day by one, once: each day still checks in once.
 */
export function userToday(timeZone: string, now = new Date()): string {
  const day = dayIn(timeZone, now);
  const utcDay = now.toISOString().slice(0, 10);
  const apart = Math.abs(Date.parse(`${day}T00:00:00Z`) - Date.parse(`${utcDay}T00:00:00Z`));
  if (!Number.isFinite(apart) || apart > DAY_MS) throw new AppError(Codes.BadRequest, 'timeZoneInvalid');
  return day;
}


type CheckinRules = { points: number; streakBonus: number };

async function checkinRules(ctx: AppContext): Promise<CheckinRules> {
  const values = await settingValues(ctx, ['checkin_points', 'checkin_streak_bonus']);
  return {
    points: wholeNumberSetting(values.checkin_points, 1, MAX_SETTING, DEFAULT_POINTS),
    streakBonus: wholeNumberSetting(values.checkin_streak_bonus, 0, MAX_SETTING, 0),
  };
}

const bonusFor = (streak: number, rules: CheckinRules) => (streak % STREAK_BONUS_EVERY === 0 ? rules.streakBonus : 0);

/** Today's check-in: done or not, the streak, and the points it gives (or gave). */
export async function getCheckinStatus(ctx: AppContext, userId: string, timeZone: string): Promise<CheckinStatus> {
  const today = userToday(timeZone);
  const yesterday = shiftDay(today, -1);
  const rows = await ctx.db
    .select({ day: userCheckins.day, streak: userCheckins.streak, points: userCheckins.points })
    .from(userCheckins)
    .where(and(eq(userCheckins.userId, userId), inArray(userCheckins.day, [today, yesterday])));
  const done = rows.find((r) => r.day === today);
  if (done) return { signedIn: true, streak: done.streak, points: done.points, today };
  const streak = rows.find((r) => r.day === yesterday)?.streak ?? 0;
  const rules = await checkinRules(ctx);
  return { signedIn: false, streak, points: rules.points + bonusFor(streak + 1, rules), today };
}

/**
 * Checks the user in for today, in one transaction: the day's row (its streak continues yesterday's),
 * the ledger entry and, on a bonus day, the notification. A second check-in of the day answers 10409
 * and changes nothing.
 */
export async function checkIn(ctx: AppContext, userId: string, timeZone: string): Promise<CheckinStatus> {
  const today = userToday(timeZone);
  const rules = await checkinRules(ctx);
  return announcingNotified(ctx, () => ctx.db.transaction(async (tx) => {
    // One statement: concurrent check-ins of the day wait on the primary key, then insert nothing.
    const inserted = await tx.execute<{ streak: number; points: number }>(sql`
      with prev as (
        select coalesce((select streak from ${userCheckins} where user_id = ${userId} and day = ${today}::date - 1), 0) + 1 as streak
      )
      insert into ${userCheckins} (user_id, day, streak, points)
      select ${userId}, ${today}::date, streak,
        ${rules.points}::int + case when streak % ${STREAK_BONUS_EVERY} = 0 then ${rules.streakBonus}::int else 0 end
      from prev
      on conflict (user_id, day) do nothing
      returning streak, points`);
    const row = inserted.rows[0];
    if (!row) throw new AppError(Codes.Conflict, 'checkinAlreadyDone');
    const streak = Number(row.streak);
    const points = Number(row.points);
    const credited = await creditPoints(tx, { userId, delta: points, kind: 'checkin', key: `checkin:${userId}:${today}`, refId: today });
    // Only when the day's row was removed by hand after its credit: the day was checked in after all.
    if (credited.status !== 'applied') throw new AppError(Codes.Conflict, 'checkinAlreadyDone');
    const bonus = bonusFor(streak, rules);
    if (bonus > 0) {
      await notify(tx, {
        userId,
        kind: 'checkin',
        titleKey: 'notifications.checkinStreak.title',
        bodyKey: 'notifications.checkinStreak.body',
        params: { days: streak, points: bonus },
        dedupeKey: `checkin-streak:${userId}:${today}`,
      });
    }
    return { signedIn: true, streak, points, today };
  }));
}
