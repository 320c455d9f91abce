import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { chatMessages } from '../../server/db/schema/chat.ts';
import { api, http } from '../helpers/api.ts';
import { onPostgres } from '../helpers/app.ts';
import { buses, useTwoInstances } from '../helpers/chat-apps.ts';
import { readStream, textOf } from '../helpers/chat.ts';
import { createUser } from '../helpers/users.ts';

// Two instances need a shared database: PGlite lives inside one process.
(onPostgres ? describe : describe.skip).each(buses)('two instances on one database, bus over $name', ({ env }) => {
  const two = useTwoInstances(env, 'slow-model');

  it('stops, from instance B, a stream running in instance A', async () => {
    two.fake.script('slow-model', { chunks: Array.from({ length: 200 }, (_, i) => `p${i} `), delayMs: 25 });
    const user = await createUser(two.a.app);
    const res = await http(two.urlA, user).post('/api/Chat/AddMessage', { aiModelId: 'slow-model', inputMessage: 'long answer please' });
    let stopSent = false;
    const { events, done } = await readStream(res, async (e) => {
      if (stopSent || !e.Data.OutputMessage) return;
      stopSent = true;
      const stop = await http(two.urlB, user).post('/api/Chat/StopMessage', { chatMessageId: e.Data.ChatMessageId });
      expect(await stop.json()).toMatchObject({ Code: 10000 });
    });
    expect(done).toBe(true);
    const last = events.at(-1)!;
    expect(last.Data.FinishReason).toBe('user-stopped');
    const shown = textOf(events);
    expect(shown.split(' ').length).toBeLessThan(200);
    const [row] = await two.b.database.db.select().from(chatMessages).where(eq(chatMessages.id, last.Data.ChatMessageId));
    expect(row).toMatchObject({ finishReason: 'user-stopped', outputMessage: shown });
  });

  it('refuses, in instance A, a token logged out in instance B, although A had just verified it', async () => {
    two.fake.script('slow-model', { chunks: ['ok'] });
    const user = await createUser(two.a.app);
    const send = () => api(two.a.app, user).post('/api/Chat/AddMessage', { aiModelId: 'slow-model', inputMessage: 'hi' });
    expect((await send()).headers['content-type']).toContain('text/event-stream');
    const logout = await api(two.b.app, user).post('/api/User/Logout');
    expect(logout.json().Code).toBe(10000);
    // The revocation travels over the bus; A must refuse the token well before its cache would expire.
    // Until the revocation lands, A still answers with a stream; then with the 10402 envelope.
    const refusedBy = async () => {
      const res = await send();
      return String(res.headers['content-type']).startsWith('application/json') && res.json().Code === 10402;
    };
    expect(await vi.waitUntil(refusedBy, { timeout: 2000, interval: 20 })).toBe(true);
  });
});
