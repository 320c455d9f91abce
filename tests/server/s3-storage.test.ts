import { randomBytes } from 'node:crypto';
import { AwsClient } from 'aws4fetch';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileStoreError, s3FileStore, type S3Options } from '../../server/providers/file-store.ts';
import { sweepUnsentMedia, UNSENT_MEDIA_TTL_MS } from '../../server/services/media/cleanup.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { startS3rver, type RealS3 } from '../fixtures/s3rver.ts';
import { http } from '../helpers/api.ts';
import { createTestApp, fakeOpenAIEnv, type TestApp } from '../helpers/app.ts';
import { listening, readStream } from '../helpers/chat.ts';
import { auth, createUser, type TestUser } from '../helpers/users.ts';
import { s3Env } from '../helpers/s3-env.ts';

/**
 * Uploads kept in a real S3-compatible server (s3rver on loopback, which checks SigV4 signatures and
 * stores objects as S3 does), through the real routes over HTTP: upload, serve by signed link, give
 * to the model, delete with the chat, sweep when never sent. What is in the bucket is checked with a
 * client of the test's own, not through the store under test.
 */

const SECRET_KEY = 's3-storage-test-secret-key-0123456789abcdef';

describe('media in a real S3-compatible server (s3rver)', () => {
  let s3: RealS3;
  let fake: FakeOpenAI;
  let t: TestApp;
  let origin: string;
  let alice: TestUser;
  let inspector: AwsClient;

  /** The object as the bucket has it: status, bytes, type. */
  const objectOf = async (key: string) => {
    const res = await inspector.fetch(`${s3.endpoint}/${s3.bucket}/${key}`);
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') };
  };
  const keyOf = (id: string) => `media/${id.slice(0, 2)}/${id}`;

  const upload = async (mediaType: 'image' | 'file', name: string, bytes: Buffer, type: string) => {
    const form = new FormData();
    form.append('mediaType', mediaType);
    form.append(mediaType === 'image' ? 'imageFile' : 'pageFile', new Blob([new Uint8Array(bytes)], { type }), name);
    const res = await fetch(`${origin}/api/Chat/AddChatMedia`, { method: 'POST', headers: auth(alice.token), body: form });
    const body = await res.json();
    expect(body.Code).toBe(10000);
    return body.Data as { chatMediaId: string; image: { imgSrcAll: string } };
  };
  const post = (url: string, body: unknown) => http(origin, alice).post(url, body);
  const send = async (body: Record<string, unknown>) => {
    const { events, done } = await readStream(await post('/api/Chat/AddMessage', { aiModelId: 'gpt-4o-mini', ...body }), () => undefined);
    expect(done).toBe(true);
    return events[0].Data;
  };

  beforeAll(async () => {
    s3 = await startS3rver();
    fake = await startFakeOpenAI();
    inspector = new AwsClient({ accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, region: s3.region, service: 's3' });
    t = await createTestApp({
      ...fakeOpenAIEnv(fake, 'gpt-4o-mini'),
      DATA_DIR: 'memory://',
      SECRET_KEY,
      ...s3Env(s3, s3.region),
    });
    origin = await listening(t.app);
    alice = await createUser(t.app);
  });
  afterAll(async () => {
    t?.app.server.closeAllConnections();
    await t?.close();
    await fake?.close();
    await s3?.close();
  });

  it('stores an upload in the bucket, serves it by its signed link only, and gives it to the model', async () => {
    expect(t.app.ctx.files.kind).toBe('s3');
    const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#2468ac' } }).png().toBuffer();
    const media = await upload('image', 'photo.png', bytes, 'image/png');
    const stored = await objectOf(keyOf(media.chatMediaId));
    expect(stored.status).toBe(200);
    expect(stored.bytes.equals(bytes)).toBe(true);
    expect(stored.type).toBe('image/png');

    // The signed link works without a token; a changed signature or another id does not.
    const served = await fetch(`${origin}${media.image.imgSrcAll}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    const forged = media.image.imgSrcAll.replace(/sig=[^&]+/, 'sig=AAAA');
    expect((await fetch(`${origin}${forged}`)).status).toBe(404);

    await send({ inputMessage: 'What is it?', chatMediaIds: [media.chatMediaId] });
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain(`data:image/png;base64,${bytes.toString('base64')}`);
  });

  it('deletes the bytes with the chat that carried them, and sweeps uploads never sent', async () => {
    const sent = await upload('file', 'notes.txt', Buffer.from('notes for the model'), 'text/plain');
    const message = await send({ inputMessage: 'Read this', chatMediaIds: [sent.chatMediaId] });
    expect((await objectOf(keyOf(sent.chatMediaId))).status).toBe(200);
    expect(await (await post('/api/Chat/DeleteSessions', { ids: [message.ChatSessionId] })).json()).toMatchObject({ Code: 10000, Data: { deleted: 1 } });
    expect((await objectOf(keyOf(sent.chatMediaId))).status).toBe(404);

    const draft = await upload('file', 'draft.txt', Buffer.from('never sent'), 'text/plain');
    expect(await sweepUnsentMedia(t.app.ctx)).toBe(0);
    expect((await objectOf(keyOf(draft.chatMediaId))).status).toBe(200);
    expect(await sweepUnsentMedia(t.app.ctx, Date.now() + UNSENT_MEDIA_TTL_MS + 60_000)).toBeGreaterThanOrEqual(1);
    expect((await objectOf(keyOf(draft.chatMediaId))).status).toBe(404);
  });

  describe('the store on its own', () => {
    const options = (over: Partial<S3Options> = {}): S3Options => ({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: s3.region,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
      prefix: 'unit/',
      ...over,
    });

    it('round-trips the largest upload byte for byte, and deletes idempotently', async () => {
      const store = s3FileStore(options());
      const bytes = randomBytes(10 * 1024 * 1024);
      await store.put('ab/large', bytes, 'application/pdf');
      expect((await objectOf('unit/ab/large')).type).toBe('application/pdf');
      expect((await store.get('ab/large'))!.equals(bytes)).toBe(true);
      await store.delete('ab/large');
      await store.delete('ab/large');
      expect(await store.get('ab/large')).toBeNull();
    });

    it('accepts an endpoint written with a trailing slash', async () => {
      // A trailing slash must not double the path's slashes (which S3 would read as another key).
      const store = s3FileStore(options({ endpoint: `${s3.endpoint}/` }));
      await store.put('ab/slash', Buffer.from('x'), 'text/plain');
      expect((await objectOf('unit/ab/slash')).status).toBe(200);
    });

    it('fails loudly on refused credentials and on a missing bucket, rather than reading "no such file"', async () => {
      const foreign = s3FileStore(options({ accessKeyId: 'AKIAFOREIGN', secretAccessKey: 'wrong' }));
      await expect(foreign.put('ab/x', Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(FileStoreError);
      await expect(foreign.get('ab/x')).rejects.toBeInstanceOf(FileStoreError);
      const noBucket = s3FileStore(options({ bucket: 'not-created' }));
      await expect(noBucket.put('ab/x', Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(FileStoreError);
      // A missing bucket is a configuration error, not a missing object: the operator must hear of it.
      await expect(noBucket.get('ab/x')).rejects.toThrow(/NoSuchBucket/);
      await expect(noBucket.delete('ab/x')).rejects.toThrow(/NoSuchBucket/);
    });
  });
});
