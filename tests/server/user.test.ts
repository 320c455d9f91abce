import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { users } from '../../server/db/schema/users.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { createUser, grantVip } from '../helpers/users.ts';

describe('the logged-in user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '1000', FREE_DAILY_POINTS: '25' });
  });
  afterAll(() => t.close());

  it('answers the user with vipOrder null for free users, and the plan in force otherwise', async () => {
    const u = await createUser(t.app, { userName: 'Grace' });
    const free = await api(t.app, u).getBody('/api/User/GetUserByLogin');
    expect(free.Data).toEqual({ userId: u.userId, userName: 'Grace', email: u.email, role: 'user', vipOrder: null, headImg: null, phone: null });
    const orderId = await grantVip(t.app, u.userId, 2);
    const vip = await api(t.app, u).getBody('/api/User/GetUserByLogin');
    expect(vip.Data.vipOrder).toMatchObject({ vipOrderId: orderId, vipPackageLevel: 2, vipPackageName: 'Advanced' });
    expect(vip.Data.vipOrder.endTime).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('answers the points entries with the daily allowance, and their parts: free today, of how many, when it is refilled, and kept', async () => {
    const u = await createUser(t.app);
    const res = await api(t.app, u).getBody('/api/User/GetUserIntegralByLogin');
    expect(res.Data).toEqual([
      { integralType: 1, integralValue: 25, useIntegral: 0, freeLeft: 25, freeDaily: 25, freeResetsAt: expect.any(String), kept: 0 },
    ]);
    // The allowance is refilled when the database's day (current_date, which the charges go by) turns:
    // the instant answered is the first of the next day there, and is to come.
    const resetsAt = res.Data[0].freeResetsAt as string;
    expect(Date.parse(resetsAt)).toBeGreaterThan(Date.now());
    const [day] = (
      await t.database.db.execute<{ next_day: boolean; ends_today: boolean }>(sql`
        select (${resetsAt}::timestamptz)::date = current_date + 1 as next_day,
          (${resetsAt}::timestamptz - interval '1 millisecond')::date = current_date as ends_today`)
    ).rows;
    expect(day).toEqual({ next_day: true, ends_today: true });
  });

  it('changes the nickname, refusing an empty one', async () => {
    const u = await createUser(t.app);
    expect((await api(t.app, u).postBody('/api/User/UpdateNickName', { userName: '  Hopper  ' })).Data.userName).toBe('Hopper');
    expect((await api(t.app, u).getBody('/api/User/GetUserByLogin')).Data.userName).toBe('Hopper');
    const empty = await api(t.app, u).postBody('/api/User/UpdateNickName', { userName: '   ' });
    expect(empty.Code).toBe(10400);
    expect(empty.Msg).toContain('Nickname cannot be empty');
    const zh = await api(t.app, u).postBody('/api/User/UpdateNickName', { userName: '' }, { lang: 'zh' });
    expect(zh.Msg).toContain('昵称不能为空');
  });

  it('saves settings by merging, validates them, and reads older documents leniently', async () => {
    const u = await createUser(t.app);
    expect((await api(t.app, u).getBody('/api/User/GetUserSetting')).Data).toEqual({});
    await api(t.app, u).postBody('/api/User/SaveUserSetting', { language: 'zh', personalization: { occupation: 'teacher' } });
    const saved = await api(t.app, u).postBody('/api/User/SaveUserSetting', { sendShortcut: 'ctrlEnter', personalization: { traits: 'brief' } });
    expect(saved.Data).toEqual({ language: 'zh', sendShortcut: 'ctrlEnter', personalization: { occupation: 'teacher', traits: 'brief' } });
    expect((await api(t.app, u).getBody('/api/User/GetUserSetting')).Data).toEqual(saved.Data);

    const unknown = await api(t.app, u).postBody('/api/User/SaveUserSetting', { favouriteColour: 'red' });
    expect(unknown.Code).toBe(10400);
    const wrongType = await api(t.app, u).postBody('/api/User/SaveUserSetting', { language: 'fr' });
    expect(wrongType.Code).toBe(10400);
    expect((await api(t.app, u).getBody('/api/User/GetUserSetting')).Data).toEqual(saved.Data);

    // A document written by an older version, with a field since removed and one now invalid.
    await t.app.ctx.db
      .update(users)
      .set({ settings: { language: 'en', theme: 'dark', sendShortcut: 42, personalization: { occupation: 'pilot', traits: 7, mood: 'x' } } })
      .where(eq(users.id, u.userId));
    expect((await api(t.app, u).getBody('/api/User/GetUserSetting')).Data).toEqual({ language: 'en', personalization: { occupation: 'pilot' } });
    // Saving over such a document answers only valid fields.
    const over = await api(t.app, u).postBody('/api/User/SaveUserSetting', { showFloatingIcon: false, personalization: { traits: 'kind' } });
    expect(over.Data).toEqual({ language: 'en', showFloatingIcon: false, personalization: { occupation: 'pilot', traits: 'kind' } });
  });

  it('keeps every field when several saves arrive at once', async () => {
    const u = await createUser(t.app);
    await Promise.all([
      api(t.app, u).postBody('/api/User/SaveUserSetting', { language: 'zh' }),
      api(t.app, u).postBody('/api/User/SaveUserSetting', { sendShortcut: 'enter' }),
      api(t.app, u).postBody('/api/User/SaveUserSetting', { defaultModelId: 'auto' }),
      api(t.app, u).postBody('/api/User/SaveUserSetting', { showFloatingIcon: true }),
      api(t.app, u).postBody('/api/User/SaveUserSetting', { personalization: { occupation: 'nurse' } }),
      api(t.app, u).postBody('/api/User/SaveUserSetting', { personalization: { otherInfo: 'night shifts' } }),
    ]);
    expect((await api(t.app, u).getBody('/api/User/GetUserSetting')).Data).toEqual({
      language: 'zh',
      sendShortcut: 'enter',
      defaultModelId: 'auto',
      showFloatingIcon: true,
      personalization: { occupation: 'nurse', otherInfo: 'night shifts' },
    });
  });
});
