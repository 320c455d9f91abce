import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminAuditLog } from '../../server/db/schema/audit.ts';
import { users } from '../../server/db/schema/users.ts';
import { creditInviter } from '../../server/services/points/invites.ts';
import { api } from '../helpers/api.ts';
import { useTestAppWithAdmin } from '../helpers/app.ts';
import { createUser, loginUser, type TestUser } from '../helpers/users.ts';

/**
 * Invite codes for operators (docs/economy.md#invites): the codes with their owners and uses, found
 * by code, e-mail or name; a disabled code links no new sign-up to its owner and so credits nothing,
 * and its owner is told; the uses, with the reward the ledger paid for each.
 */

const PASSWORD = 'correct horse battery';

describe('invite codes in the console', () => {
  const { t, admin } = useTestAppWithAdmin({ AUTH_RATE_LIMIT: '1000' });

  const myInvite = async (user: TestUser) => (await api(t.app, user).getBody('/api/InviteCode/GetMyInviteCode')).Data;
  const signUp = async (inviteCode: string) => {
    const email = `invitee-${randomUUID()}@example.test`;
    const res = await api(t.app).postBody('/api/Account/AddUser', { email, password: PASSWORD, inviteCode });
    expect(res.Code, res.Msg).toBe(10000);
    return { userId: res.Data.userId as string, email, password: PASSWORD, token: await loginUser(t.app, email, PASSWORD) };
  };
  const codes = async (query: string) => {
    const res = await api(t.app, admin).getBody(`/api/admin/InviteCode/GetList?${query}`);
    expect(res.Code, res.Msg).toBe(10000);
    return res.Data;
  };
  const uses = async (query: string) => {
    const res = await api(t.app, admin).getBody(`/api/admin/InviteCodeUsed/GetList?${query}`);
    expect(res.Code, res.Msg).toBe(10000);
    return res.Data;
  };

  it('lists codes with their owner and uses, finds them, and shows each use with the reward paid', async () => {
    await api(t.app, admin).postBody('/api/admin/System/SaveSetting', { settingKey: 'invite_min_spend', settingValue: '0' });
    await api(t.app, admin).postBody('/api/admin/System/SaveSetting', { settingKey: 'invite_points', settingValue: '40' });
    const owner = await createUser(t.app, { userName: `Owner ${randomUUID().slice(0, 6)}` });
    const { inviteCode } = await myInvite(owner);
    const [first, second] = [await signUp(inviteCode), await signUp(inviteCode.toLowerCase())];
    expect(await creditInviter(t.app.ctx, first.userId)).toBe('credited');

    const byCode = await codes(`keyword=${inviteCode.toLowerCase()}`);
    expect(byCode).toEqual({
      total: 1,
      list: [{ inviteCode, ownerId: owner.userId, ownerEmail: owner.email, ownerName: expect.any(String), disabled: false, disabledTime: null, usedCount: 2, creditedCount: 1, pointsPaid: 40 }],
    });
    expect((await codes(`keyword=${encodeURIComponent(owner.email.toUpperCase())}`)).list.map((c: { ownerId: string }) => c.ownerId)).toEqual([owner.userId]);

    const used = await uses(`ownerId=${owner.userId}`);
    expect(used.total).toBe(2);
    const byInvitee = Object.fromEntries(used.list.map((u: { inviteeId: string }) => [u.inviteeId, u]));
    expect(byInvitee[first.userId]).toMatchObject({ inviteCode, ownerEmail: owner.email, inviteeEmail: first.email, pointsPaid: 40, paidTime: expect.any(String) });
    expect(byInvitee[second.userId]).toMatchObject({ pointsPaid: null, paidTime: null });
    expect((await uses(`keyword=${encodeURIComponent(second.email)}`)).list.map((u: { inviteeId: string }) => u.inviteeId)).toEqual([second.userId]);
  });

  it('disables a code: new sign-ups with it credit nothing, and its owner sees it is disabled', async () => {
    const owner = await createUser(t.app);
    const { inviteCode } = await myInvite(owner);
    const res = await api(t.app, admin).postBody('/api/admin/InviteCode/Disable', { ownerId: owner.userId, disabled: true });
    expect(res.Data).toMatchObject({ inviteCode, disabled: true, disabledTime: expect.any(String) });
    expect(await myInvite(owner)).toMatchObject({ inviteCode, disabled: true });
    expect((await codes('status=disabled&count=100')).list.map((c: { ownerId: string }) => c.ownerId)).toContain(owner.userId);

    const late = await signUp(inviteCode);
    const [row] = await t.database.db.select({ invitedBy: users.invitedBy }).from(users).where(eq(users.id, late.userId));
    expect(row!.invitedBy).toBeNull();
    expect(await creditInviter(t.app.ctx, late.userId)).toBe('none');

    // Enabled again, it links sign-ups again.
    await api(t.app, admin).postBody('/api/admin/InviteCode/Disable', { ownerId: owner.userId, disabled: false });
    expect(await myInvite(owner)).toMatchObject({ disabled: false });
    const again = await signUp(inviteCode);
    const [linked] = await t.database.db.select({ invitedBy: users.invitedBy }).from(users).where(eq(users.id, again.userId));
    expect(linked!.invitedBy).toBe(owner.userId);
    const audited = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, owner.userId));
    expect(audited.filter((a) => a.targetType === 'inviteCode')).toHaveLength(2);
  });

  it('is for administrators only, and says when an account has no code', async () => {
    const user = await createUser(t.app);
    expect((await api(t.app, user).getBody('/api/admin/InviteCode/GetList')).Code).toBe(10403);
    expect((await api(t.app, user).getBody('/api/admin/InviteCodeUsed/GetList')).Code).toBe(10403);
    expect((await api(t.app, user).postBody('/api/admin/InviteCode/Disable', { ownerId: user.userId, disabled: true })).Code).toBe(10403);
    expect((await api(t.app, admin).postBody('/api/admin/InviteCode/Disable', { ownerId: user.userId, disabled: true })).Code).toBe(10404);
  });
});
