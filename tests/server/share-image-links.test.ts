import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../server/core/log-safety.ts';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { chatMedia } from '../../server/db/schema/media.ts';
import { sharedMediaPath, signedMediaPath } from '../../server/services/media/links.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { createAdmin, createUser, type TestUser } from '../helpers/users.ts';

/**
 * The images of a shared chat are served through links tied to the share: revoking it, or closing the
 * owner's account, ends them too (docs/security.md#share-links).
 */
describe('image links handed out through a share', () => {
  let t: TestApp;
  let admin: TestUser;
  let minute = 0;

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
    admin = await createAdmin(t.app);
  });
  afterAll(async () => t?.close());

  const view = (shareId: string) => api(t.app).getBody(`/api/Share/GetShare?shareId=${shareId}`);
  const fetchMedia = (url: string) => api(t.app).get(url);

  /** A stored image (real bytes in the file store), as an upload or a drawing keeps it. */
  async function storedImage(userId: string, purpose: 'chat' | 'draw') {
    const id = randomUUID();
    const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366cc' } }).png().toBuffer();
    await t.app.ctx.files.put(`${id.slice(0, 2)}/${id}`, bytes, 'image/png');
    await t.database.db.insert(chatMedia).values({
      id, userId, mediaType: 'image', fileName: `${id}.png`, mimeType: 'image/png', byteSize: bytes.length, storageKey: `${id.slice(0, 2)}/${id}`, purpose,
    });
    return { id, bytes };
  }

  /** A chat of one finished exchange with an attached image and a drawn one, shared with its images. */
  async function sharedChat(user: TestUser) {
    const attached = await storedImage(user.userId, 'chat');
    const drawn = await storedImage(user.userId, 'draw');
    const sessionId = randomUUID();
    await t.database.db.insert(chatSessions).values({ id: sessionId, userId: user.userId, title: 'pictures' });
    await t.database.db.insert(chatMessages).values({
      id: randomUUID(), sessionId, userId: user.userId, inputMessage: 'draw a cat', outputMessage: 'here', requestedModelId: 'm', modelName: 'M',
      finishReason: 'stop', mediaIds: [attached.id], createdAt: new Date(Date.UTC(2026, 5, 1) + ++minute * 60_000),
      toolCalls: [{ toolCallId: 'c1', toolName: 'generate_image', input: '{}', status: 'completed', output: '', images: [signedMediaPath(t.app.ctx, drawn.id)] }],
    });
    const made = await api(t.app, user).postBody('/api/Chat/ShareSession', { chatSessionId: sessionId, includeImages: true });
    expect(made.Code).toBe(10000);
    const shareId = made.Data.shareId as string;
    const seen = await view(shareId);
    expect(seen.Code).toBe(10000);
    const links = seen.Data.messages[0].images as string[];
    expect(links).toHaveLength(2);
    for (const [i, image] of [attached, drawn].entries()) {
      const res = await fetchMedia(links[i]!);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(image.bytes)).toBe(true);
    }
    return { shareId, links };
  }

  const expectGone = async (links: string[]) => {
    for (const link of links) {
      const res = await fetchMedia(link);
      expect(res.statusCode, link).toBe(404);
      expect(res.json().Code).toBe(10404);
    }
  };

  it('ends the images’ links when the share is revoked', async () => {
    const user = await createUser(t.app);
    const { shareId, links } = await sharedChat(user);
    expect((await api(t.app, user).postBody('/api/Chat/RevokeShare', { shareId })).Code).toBe(10000);
    await expectGone(links);
  });

  it('ends them when the owner’s account is closed, and Reopen does not bring them back', async () => {
    const user = await createUser(t.app);
    const { links } = await sharedChat(user);
    expect((await api(t.app, admin).postBody('/api/admin/User/Close', { userId: user.userId })).Code).toBe(10000);
    await expectGone(links);
    expect((await api(t.app, admin).postBody('/api/admin/User/Reopen', { userId: user.userId })).Code).toBe(10000);
    await expectGone(links);
  });

  it('opens only the media of the shared chat, and keeps the share id out of the log', async () => {
    const user = await createUser(t.app);
    const { shareId, links } = await sharedChat(user);
    const other = await storedImage(user.userId, 'chat');
    // Another of the owner's images under this share's id, and a share link with its share taken off.
    const link = new URL(links[0]!, 'http://x');
    const forged = new URL(link);
    forged.searchParams.set('chatMediaId', other.id);
    const unscoped = new URL(link);
    unscoped.searchParams.delete('share');
    expect(link.searchParams.get('share')).toBe(shareId);
    await expectGone([forged.pathname + forged.search, unscoped.pathname + unscoped.search]);
    // Even signed by the server, a share's link opens nothing outside that chat's snapshot.
    await expectGone([sharedMediaPath(t.app.ctx, shareId, other.id)]);
    expect(redactUrl(links[0]!)).not.toContain(shareId);
    // The owner's own links (not through a share) work as before.
    expect((await fetchMedia(signedMediaPath(t.app.ctx, other.id))).statusCode).toBe(200);
  });
});
