import { randomUUID } from 'node:crypto';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserRecords, requestTimes } from '../../server/db/schema/system.ts';
import { sweepTrackingRecords } from '../../server/services/system/tracking.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const DAY_MS = 86_400_000;

/** Old request times and browser records are deleted after TRACKING_RETENTION_DAYS (tracking.ts). */
describe('tracking records: retention', () => {
  let t: TestApp;
  const now = new Date('2026-06-01T12:00:00Z');
  const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);

  beforeAll(async () => {
    t = await createTestApp({ TRACKING_RETENTION_DAYS: '30' });
  });
  afterAll(() => t.close());

  async function addRecords(requestTimesAt: Date[], browserRecordsAt: Date[]) {
    const db = t.app.ctx.db;
    await db.delete(requestTimes);
    await db.delete(browserRecords);
    const times = requestTimesAt.map((createdAt, i) => ({ id: randomUUID(), requestId: `r${i}`, clientRequestTime: '0', clientResponseTime: '1', createdAt }));
    // Inserted in slices: one statement takes at most 65,535 parameters.
    for (let i = 0; i < times.length; i += 2000) await db.insert(requestTimes).values(times.slice(i, i + 2000));
    if (browserRecordsAt.length) await db.insert(browserRecords).values(browserRecordsAt.map((createdAt) => ({ id: randomUUID(), eventType: 'pageView', payload: {}, createdAt })));
  }
  const counts = async () => ({
    requestTimes: (await t.app.ctx.db.select({ n: count() }).from(requestTimes))[0].n,
    browserRecords: (await t.app.ctx.db.select({ n: count() }).from(browserRecords))[0].n,
  });

  it('deletes what is older than the retention and keeps the rest, past one batch of deletes', async () => {
    // 5,003 old request times: more than the sweep deletes in one statement.
    await addRecords([...Array.from({ length: 5003 }, () => daysAgo(31)), daysAgo(29), daysAgo(0)], [daysAgo(400), daysAgo(30.01), daysAgo(29.99), daysAgo(1)]);
    expect(await sweepTrackingRecords(t.app.ctx, now)).toEqual({ requestTimes: 5003, browserRecords: 2 });
    expect(await counts()).toEqual({ requestTimes: 2, browserRecords: 2 });
    // Nothing more to delete: a second sweep (or another instance's) changes nothing.
    expect(await sweepTrackingRecords(t.app.ctx, now)).toEqual({ requestTimes: 0, browserRecords: 0 });
  });

  it('keeps everything when the retention is 0', async () => {
    const keepAll = await createTestApp({ TRACKING_RETENTION_DAYS: '0' });
    try {
      await keepAll.app.ctx.db.insert(requestTimes).values({ id: randomUUID(), requestId: 'old', clientRequestTime: '0', clientResponseTime: '1', createdAt: daysAgo(5000) });
      expect(await sweepTrackingRecords(keepAll.app.ctx, now)).toEqual({ requestTimes: 0, browserRecords: 0 });
      expect((await keepAll.app.ctx.db.select({ n: count() }).from(requestTimes))[0].n).toBe(1);
    } finally {
      await keepAll.close();
    }
  });

  it('refuses a retention that is not a whole number of days at start-up', async () => {
    await expect(createTestApp({ TRACKING_RETENTION_DAYS: 'forever' })).rejects.toThrow(/TRACKING_RETENTION_DAYS/);
  });
});
