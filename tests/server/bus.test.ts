import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postgresBus, type Bus } from '../../server/services/system/bus.ts';
import { createPostgresDatabase, onPostgres } from '../helpers/app.ts';

// LISTEN/NOTIFY needs PostgreSQL.
(onPostgres ? describe : describe.skip)('the PostgreSQL bus', () => {
  let bus: Bus;
  let drop: () => Promise<void>;
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);

  beforeAll(async () => {
    const database = await createPostgresDatabase();
    drop = database.drop;
    process.on('warning', onWarning);
    bus = await postgresBus(database.url, (err) => warnings.push(err));
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await bus?.close();
    await drop?.();
  });

  it('listens on channels subscribed together one after another, and delivers to each', async () => {
    const channels = ['one', 'two', 'three', 'four', 'five'];
    const received = new Map<string, string>();
    for (const channel of channels) bus.subscribe(channel, (message) => received.set(channel, message));
    // A notification sent before its LISTEN is in is not seen: sent again until each has arrived.
    await vi.waitUntil(
      async () => {
        for (const channel of channels) if (!received.has(channel)) await bus.publish(channel, `to ${channel}`);
        return received.size === channels.length;
      },
      { timeout: 5000, interval: 50 },
    );
    expect(Object.fromEntries(received)).toEqual(Object.fromEntries(channels.map((channel) => [channel, `to ${channel}`])));
    expect(warnings).toEqual([]);
  });
});
