import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userNotifications } from '../../server/db/schema/notifications.ts';
import { stripeSubscriptions, vipPackages } from '../../server/db/schema/plans.ts';
import { notifyRenewalsDue, RENEWAL_NOTICE_DAYS } from '../../server/services/plans/plans.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';

/** Subscribers are told a few days before their plan renews, once per period, and nobody else is. */
describe('renewal reminders', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
  });
  afterAll(() => t?.close());

  const DAY = 86_400_000;
  async function subscriber(endsInDays: number, state: { status?: string; cancelAtPeriodEnd?: boolean } = {}) {
    const user = await createUser(t.app);
    const [pkg] = await t.database.db.select().from(vipPackages).where(eq(vipPackages.level, 2)).limit(1);
    const end = new Date(Date.now() + endsInDays * DAY);
    await t.database.db.insert(stripeSubscriptions).values({
      id: `sub_${user.userId}`,
      userId: user.userId,
      packageId: pkg.id,
      status: state.status ?? 'active',
      currentPeriodEnd: end,
      cancelAtPeriodEnd: state.cancelAtPeriodEnd ?? false,
    });
    return { user, end, plan: pkg.name, subscriptionId: `sub_${user.userId}` };
  }
  const toldTo = (userId: string) => t.database.db.select().from(userNotifications).where(eq(userNotifications.userId, userId));

  it(`tells a subscriber ${RENEWAL_NOTICE_DAYS} days ahead which plan renews when, once per period`, async () => {
    const due = await subscriber(2);
    const later = await subscriber(RENEWAL_NOTICE_DAYS + 5);
    const cancelled = await subscriber(1, { cancelAtPeriodEnd: true });
    const pastDue = await subscriber(1, { status: 'past_due' });

    await notifyRenewalsDue(t.app.ctx);
    await notifyRenewalsDue(t.app.ctx);
    const [told] = await toldTo(due.user.userId);
    expect(await toldTo(due.user.userId)).toHaveLength(1);
    expect(told).toMatchObject({ kind: 'plan', titleKey: 'notifications.planRenewing.title', bodyKey: 'notifications.planRenewing.body', link: '/subscription' });
    expect(JSON.parse(told.params)).toEqual({ plan: due.plan, endDate: due.end.toISOString().slice(0, 10) });
    for (const other of [later, cancelled, pastDue]) expect(await toldTo(other.user.userId)).toEqual([]);

    // The next period is a new reminder.
    const next = new Date(due.end.getTime() + 30 * DAY);
    await t.database.db.update(stripeSubscriptions).set({ currentPeriodEnd: next }).where(eq(stripeSubscriptions.id, due.subscriptionId));
    await notifyRenewalsDue(t.app.ctx, new Date(next.getTime() - DAY));
    expect(await toldTo(due.user.userId)).toHaveLength(2);
  });
});
