import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { userNotifications } from '../../server/db/schema/notifications.ts';
import { pointBalances, pointLedger, userCheckins } from '../../server/db/schema/points.ts';
import { dayIn, shiftDay } from '../../server/services/points/check-in.ts';
import { api } from '../helpers/api.ts';
import { onPostgres, useTestAppWithAdmin } from '../helpers/app.ts';
import { addressesUnder, createUser, type TestUser } from '../helpers/users.ts';

/**
 * Daily check-in (docs/economy.md#check-in): once per calendar day of the user's time zone, with a
 * streak of consecutive days, credited on the ledger in the same transaction as the day's row.
 */

/** Zones 25 hours apart: at any moment their calendar days differ, and one of them differs from UTC's. */
const EAST = 'Pacific/Kiritimati';
const WEST = 'Pacific/Pago_Pago';

// UserSignin is rate limited per address: each call comes from an address of its own.
const nextAddress = addressesUnder('10.1');

describe('daily check-in', () => {
  const { t, admin } = useTestAppWithAdmin({ AUTH_RATE_LIMIT: '1000' });

  const signIn = (user: TestUser, timeZone: unknown, lang = 'en') =>
    api(t.app, user).postBody('/api/User/UserSignin', { timeZone }, { lang, remoteAddress: nextAddress() });
  const status = (user: TestUser, query: string, lang = 'en') => api(t.app, user).getBody(`/api/User/IsUserSignin${query}`, { lang });
  const setSetting = async (settingKey: string, settingValue: string | null) => {
    const res = settingValue === null
      ? await api(t.app, admin).postBody('/api/admin/System/DeleteSetting', { settingKey })
      : await api(t.app, admin).postBody('/api/admin/System/SaveSetting', { settingKey, settingValue });
    expect(res.Code).toBe(10000);
  };
  const ledgerOf = (userId: string) => t.database.db.select().from(pointLedger).where(eq(pointLedger.userId, userId));
  const balanceOf = async (userId: string) => (await t.database.db.select().from(pointBalances).where(eq(pointBalances.userId, userId)))[0]?.balance;
  /** Earlier check-ins, as if made on those days: the last of `streaks` `daysAgo` days before today (UTC). */
  const history = async (userId: string, streaks: number[], daysAgo = 1) => {
    const today = dayIn('UTC', new Date());
    const rows = streaks.map((streak, i) => ({ userId, day: shiftDay(today, i - streaks.length + 1 - daysAgo), streak, points: 10 }));
    await t.database.db.insert(userCheckins).values(rows);
  };

  it('checks in once a day: a second check-in answers 10409, explains itself and changes nothing', async () => {
    const user = await createUser(t.app);
    const today = dayIn('UTC', new Date());
    expect(await status(user, '?timeZone=UTC')).toEqual({ Code: 10000, Msg: '', Data: { signedIn: false, streak: 0, points: 10, today } });
    expect(await signIn(user, 'UTC')).toEqual({ Code: 10000, Msg: '', Data: { signedIn: true, streak: 1, points: 10, today } });
    expect(await signIn(user, 'UTC')).toEqual({ Code: 10409, Msg: 'You have already checked in today. Come back tomorrow.', Data: null });
    expect((await signIn(user, 'Etc/UTC', 'zh-CN')).Msg).toBe('你今天已经签到过了，明天再来吧。');
    expect((await status(user, '?timeZone=UTC')).Data).toEqual({ signedIn: true, streak: 1, points: 10, today });
    const entries = await ledgerOf(user.userId);
    expect(entries.map((e) => [e.reason, e.delta, e.refId, e.idempotencyKey])).toEqual([['checkin', 10, today, `checkin:${user.userId}:${today}`]]);
    expect(await balanceOf(user.userId)).toBe(10);
    const history = await api(t.app, user).getBody('/api/User/GetUserIntegralLogList?kind=checkin');
    expect(history.Data.total).toBe(1);
  });

  it("counts the user's calendar day in the time zone sent", async () => {
    const user = await createUser(t.app);
    const now = new Date();
    const utc = dayIn('UTC', now);
    const east = dayIn(EAST, now);
    const west = dayIn(WEST, now);
    expect(east).not.toBe(west);
    expect((await status(user, `?timeZone=${EAST}`)).Data.today).toBe(east);
    expect((await status(user, `?timeZone=${encodeURIComponent(WEST)}`)).Data.today).toBe(west);

    // A zone whose day is not UTC's right now: its check-in is of another day, so both count.
    const other = east !== utc ? EAST : WEST;
    const otherDay = dayIn(other, now);
    expect(otherDay).not.toBe(utc);
    expect((await signIn(user, 'UTC')).Data).toMatchObject({ signedIn: true, today: utc });
    const second = (await signIn(user, other)).Data;
    expect(second).toMatchObject({ signedIn: true, today: otherDay, points: 10 });
    // Ahead of UTC the day continues today's streak; behind it, the day before has no check-in.
    expect(second.streak).toBe(otherDay > utc ? 2 : 1);
    expect((await signIn(user, other)).Code).toBe(10409);
    expect((await status(user, `?timeZone=${other}`)).Data.signedIn).toBe(true);
    const days = (await t.database.db.select().from(userCheckins).where(eq(userCheckins.userId, user.userId))).map((r) => r.day).sort();
    expect(days).toEqual([utc, otherDay].sort());
    expect(await balanceOf(user.userId)).toBe(20);
  });

  it('counts consecutive days: the streak goes on from yesterday and starts again after a gap', async () => {
    const steady = await createUser(t.app);
    await history(steady.userId, [1, 2, 3]);
    expect((await status(steady, '?timeZone=UTC')).Data).toMatchObject({ signedIn: false, streak: 3, points: 10 });
    expect((await signIn(steady, 'UTC')).Data).toMatchObject({ signedIn: true, streak: 4, points: 10 });
    expect((await status(steady, '?timeZone=UTC')).Data).toMatchObject({ signedIn: true, streak: 4 });

    const lapsed = await createUser(t.app);
    await history(lapsed.userId, [4, 5], 2);
    // Two days ago was the last check-in: yesterday broke the streak.
    expect((await status(lapsed, '?timeZone=UTC')).Data).toMatchObject({ signedIn: false, streak: 0 });
    expect((await signIn(lapsed, 'UTC')).Data).toMatchObject({ streak: 1 });
  });

  it('gives the streak bonus on every 7th consecutive day, with a notification, and follows the settings', async () => {
    await setSetting('checkin_streak_bonus', '5');
    await setSetting('checkin_points', '12');
    try {
      const user = await createUser(t.app);
      await history(user.userId, [1, 2, 3, 4, 5, 6]);
      expect((await status(user, '?timeZone=UTC')).Data).toMatchObject({ signedIn: false, streak: 6, points: 17 });
      expect((await signIn(user, 'UTC')).Data).toMatchObject({ signedIn: true, streak: 7, points: 17 });
      expect((await ledgerOf(user.userId)).map((e) => e.delta)).toEqual([17]);
      const [note] = await t.database.db.select().from(userNotifications).where(eq(userNotifications.userId, user.userId));
      const today = dayIn('UTC', new Date());
      expect(note).toMatchObject({
        kind: 'checkin',
        titleKey: 'notifications.checkinStreak.title',
        bodyKey: 'notifications.checkinStreak.body',
        dedupeKey: `checkin-streak:${user.userId}:${today}`,
      });
      expect(JSON.parse(note!.params)).toEqual({ days: 7, points: 5 });

      // The 8th day has no bonus, and no notification.
      const plain = await createUser(t.app);
      await history(plain.userId, [1, 2, 3, 4, 5, 6, 7]);
      expect((await signIn(plain, 'UTC')).Data).toMatchObject({ streak: 8, points: 12 });
      expect(await t.database.db.select().from(userNotifications).where(eq(userNotifications.userId, plain.userId))).toEqual([]);

      // A stored value that is not a positive whole number counts as the default. SaveSetting refuses
      // such values now, so they are stored as an older version may have left them.
      for (const bad of ['0', '-3', 'ten', '2.5', '99999999']) {
        const refused = await api(t.app, admin).postBody('/api/admin/System/SaveSetting', { settingKey: 'checkin_points', settingValue: bad });
        expect(refused.Code, bad).toBe(10400);
        await t.database.db.execute(sql`insert into system_settings (setting_key, setting_value) values ('checkin_points', ${bad}) on conflict (setting_key) do update set setting_value = excluded.setting_value`);
        const someone = await createUser(t.app);
        expect((await status(someone, '?timeZone=UTC')).Data.points, bad).toBe(10);
      }
    } finally {
      await setSetting('checkin_streak_bonus', null);
      await setSetting('checkin_points', null);
    }
    const listed = (await api(t.app).getBody('/api/System/GetSettingListAll')).Data;
    expect(listed).toEqual(expect.arrayContaining([{ settingKey: 'checkin_points', settingValue: '10' }, { settingKey: 'checkin_streak_bonus', settingValue: '0' }]));
  });

  it('answers unknown or missing time zones as bad input, in the caller language', async () => {
    const user = await createUser(t.app);
    for (const zone of ['Mars/Olympus_Mons', '', 'x'.repeat(100), 42, null]) {
      const en = await signIn(user, zone);
      expect(en.Code, String(zone)).toBe(10400);
      expect(en.Data).toBeNull();
      const zh = await signIn(user, zone, 'zh-CN');
      expect(zh.Code).toBe(10400);
      expect(zh.Msg).toMatch(/^请求无效：timeZone: /);
    }
    expect((await signIn(user, 'Mars/Olympus_Mons')).Msg).toBe('Invalid request: timeZone: Unknown time zone. Send an IANA time zone name such as Asia/Shanghai or Europe/Berlin.');
    expect((await signIn(user, 'Mars/Olympus_Mons', 'zh-CN')).Msg).toContain('未知的时区');
    expect((await status(user, '')).Code).toBe(10400);
    expect((await status(user, '?timeZone=Nowhere/Town', 'zh-CN')).Msg).toContain('未知的时区');
    expect(await t.database.db.select().from(userCheckins).where(eq(userCheckins.userId, user.userId))).toEqual([]);
    expect(await ledgerOf(user.userId)).toEqual([]);
  });

  it('needs a login', async () => {
    const res = await api(t.app).postBody('/api/User/UserSignin', { timeZone: 'UTC' });
    expect(res.Code).toBe(10402);
  });

  // PGlite has one connection: parallel work there is serial and proves nothing.
  // As many as one person's rate limit lets through in a minute (UserSignin: 20), so each reaches the database.
  (onPostgres ? it : it.skip)('credits exactly one of 20 concurrent check-ins of one user', async () => {
    const user = await createUser(t.app);
    const answers = await Promise.all(Array.from({ length: 20 }, () => signIn(user, 'Asia/Shanghai')));
    const codes = answers.map((a) => a.Code);
    expect(codes.filter((c) => c === 10000)).toHaveLength(1);
    expect(codes.filter((c) => c === 10409)).toHaveLength(19);
    const entries = await ledgerOf(user.userId);
    expect(entries).toHaveLength(1);
    expect(await balanceOf(user.userId)).toBe(entries.reduce((n, e) => n + e.delta, 0));
    const [{ n }] = (await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n from user_checkins where user_id = ${user.userId}`)).rows;
    expect(n).toBe(1);
  });
});
