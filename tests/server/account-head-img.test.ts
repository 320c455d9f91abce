import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Codes } from '../../shared/contracts/envelope.ts';
import { users } from '../../server/db/schema/users.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { auth, createAdmin, createUser, type TestUser } from '../helpers/users.ts';

/**
 * The user's picture (POST /api/Account/AddUserForHeadImg, DeleteUserHeadImg, GET GetHeadImg): judged
 * by its content, cropped to a centred 256×256 WebP without metadata, kept in the file store under a
 * new id, the replaced one deleted, and named by UserInfo.headImg.
 */

const MB = 1024 * 1024;
const ADD = '/api/Account/AddUserForHeadImg';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
});
afterAll(() => t?.close());

type Part = { name: string; bytes: Buffer; field?: string };

/** A real multipart/form-data upload, as the browser's FormData sends it. */
async function upload(who: TestUser | null, file: Part | null, opts: { lang?: string; fields?: Record<string, string> } = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(opts.fields ?? {})) form.append(name, value);
  if (file) form.append(file.field ?? 'headImg', new Blob([new Uint8Array(file.bytes)]), file.name);
  const encoded = new Response(form);
  const res = await t.app.inject({
    method: 'POST',
    url: ADD,
    headers: { ...(who ? auth(who.token) : {}), 'content-type': encoded.headers.get('content-type')!, 'accept-language': opts.lang ?? 'en' },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
  return res.json() as { Code: number; Msg: string; Data: { headImg: string | null; userId: string } | null };
}

/** Three bands side by side: red | green | blue, the green one a centred square. */
const bands = (format: 'png' | 'jpeg' | 'webp' = 'png') =>
  sharp({ create: { width: 400, height: 200, channels: 3, background: '#00ff00' } })
    .composite([
      { input: { create: { width: 100, height: 200, channels: 3, background: '#ff0000' } }, left: 0, top: 0 },
      { input: { create: { width: 100, height: 200, channels: 3, background: '#0000ff' } }, left: 300, top: 0 },
    ])
    .toFormat(format)
    .toBuffer();

const idOf = (path: string) => new URL(path, 'http://x').searchParams.get('headImgId')!;
const stored = (path: string) => t.app.ctx.files.get(`avatars/${idOf(path)}`);
const fetchPicture = (path: string) => api(t.app).get(path);
const headImgOfRow = async (userId: string) => (await t.database.db.select({ h: users.headImg }).from(users).where(eq(users.id, userId)))[0]!.h;

describe('uploading a picture', () => {
  it('crops it to a centred 256×256 WebP, names it in the user info and serves it to any <img>', async () => {
    const user = await createUser(t.app);
    const res = await upload(user, { name: 'bands.png', bytes: await bands() });
    expect(res.Code, res.Msg).toBe(Codes.Success);
    expect(res.Data!.userId).toBe(user.userId);
    const path = res.Data!.headImg!;
    expect(path).toMatch(/^\/api\/Account\/GetHeadImg\?headImgId=[0-9a-f-]{36}$/);

    const bytes = (await stored(path))!;
    const meta = await sharp(bytes).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', width: 256, height: 256 });
    // Only the green middle is left: the red and blue sides were cropped away.
    const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    for (const [x, y] of [[2, 2], [253, 2], [128, 128], [2, 253], [253, 253]]) {
      const i = (y * info.width + x) * 3;
      expect([data[i]! < 40, data[i + 1]! > 210, data[i + 2]! < 40], `pixel ${x},${y}`).toEqual([true, true, true]);
    }

    expect((await api(t.app, user).getBody('/api/User/GetUserByLogin')).Data.headImg).toBe(path);
    const served = await fetchPicture(path);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(bytes)).toBe(true);
  });

  it('keeps no metadata of the original: no EXIF, GPS, XMP or colour profile', async () => {
    const user = await createUser(t.app);
    const photo = await sharp({ create: { width: 120, height: 90, channels: 3, background: '#cc6633' } })
      .withExif({ IFD0: { Copyright: 'Secret Owner', Artist: 'Jane Q' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 3230/100' } })
      .jpeg()
      .toBuffer();
    const before = await sharp(photo).metadata();
    expect(before.exif?.includes('Secret Owner')).toBe(true);
    const res = await upload(user, { name: 'photo.jpg', bytes: photo });
    expect(res.Code, res.Msg).toBe(Codes.Success);
    const bytes = (await stored(res.Data!.headImg!))!;
    const after = await sharp(bytes).metadata();
    expect({ exif: after.exif, xmp: after.xmp, icc: after.icc, iptc: after.iptc }).toEqual({ exif: undefined, xmp: undefined, icc: undefined, iptc: undefined });
    expect(bytes.includes('Secret Owner')).toBe(false);
    expect(bytes.includes('Jane Q')).toBe(false);
    expect(after.width).toBe(256);
  });

  it('takes PNG, JPEG and WebP by content, whatever the field or name, a small picture scaled up', async () => {
    const user = await createUser(t.app);
    const tiny = await sharp({ create: { width: 10, height: 30, channels: 4, background: '#336699' } }).webp().toBuffer();
    for (const file of [
      { name: 'a.jpeg', bytes: await bands('jpeg') },
      { name: 'a.webp', bytes: await bands('webp'), field: 'file' },
      { name: 'no-extension', bytes: tiny },
    ]) {
      const res = await upload(user, file);
      expect(res.Code, `${file.name}: ${res.Msg}`).toBe(Codes.Success);
      const meta = await sharp((await stored(res.Data!.headImg!))!).metadata();
      expect([meta.width, meta.height]).toEqual([256, 256]);
    }
  });
});

describe('refusing what is not a picture', () => {
  const refused = async (user: TestUser, file: Part | null, code: number, en: RegExp, zh: RegExp) => {
    const res = await upload(user, file);
    expect(res.Code, res.Msg).toBe(code);
    expect(res.Msg).toMatch(en);
    expect((await upload(user, file, { lang: 'zh-CN' })).Msg).toMatch(zh);
  };

  it('refuses a wrong type, a renamed non-image, a damaged image, a missing file and one too large, keeping nothing', async () => {
    const user = await createUser(t.app);
    const before = await upload(user, { name: 'me.png', bytes: await bands() });
    const keep = before.Data!.headImg!;

    await refused(user, { name: 'notes.png', bytes: Buffer.from('just some text, not an image at all') }, Codes.UploadRefused, /^The content of notes\.png is not a valid PNG file/, /notes\.png 的内容不是有效的 PNG 文件/);
    await refused(user, { name: 'anim.gif', bytes: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1') }, Codes.UploadRefused, /^The picture anim\.gif cannot be used: choose a PNG, JPEG or WebP image\.$/, /无法使用图片 anim\.gif：请选择 PNG、JPEG 或 WebP 格式的图片。/);
    await refused(user, { name: 'doc.pdf', bytes: Buffer.from('%PDF-1.4\n%%EOF') }, Codes.UploadRefused, /choose a PNG, JPEG or WebP image/, /PNG、JPEG 或 WebP/);
    // PNG by its first bytes, broken after them.
    const broken = Buffer.concat([(await bands()).subarray(0, 60), Buffer.alloc(200, 7)]);
    await refused(user, { name: 'broken.png', bytes: broken }, Codes.UploadRefused, /could not be read|not a valid PNG/, /无法读取|不是有效的 PNG/);
    // Uploads are limited to 10 a minute per account: the rest with another one.
    const other = await createUser(t.app);
    await refused(other, null, Codes.BadRequest, /.+/, /.+/);
    const huge = Buffer.concat([await bands(), Buffer.alloc(10 * MB)]);
    await refused(other, { name: 'huge.png', bytes: huge }, Codes.PayloadTooLarge, /^The file is larger than 10 MB/, /文件超过 10 MB/);
    expect(await headImgOfRow(other.userId)).toBeNull();

    // The picture from before is still the one, and the only one kept.
    expect((await api(t.app, user).getBody('/api/User/GetUserByLogin')).Data.headImg).toBe(keep);
    expect(await headImgOfRow(user.userId)).toBe(idOf(keep));
    expect((await fetchPicture(keep)).statusCode).toBe(200);
  });

  it('refuses signed-out callers, and answers 404 for an address no account names', async () => {
    expect((await upload(null, { name: 'me.png', bytes: await bands() })).Code).toBe(Codes.NotLoggedIn);
    const unknown = await fetchPicture('/api/Account/GetHeadImg?headImgId=00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ Code: Codes.NotFound, Data: null });
    expect((await api(t.app).getBody('/api/Account/GetHeadImg?headImgId=..%2F..%2Fetc')).Code).toBe(Codes.BadRequest);
  });
});

describe('replacing and removing a picture', () => {
  it('deletes the replaced file, and removing leaves none', async () => {
    const user = await createUser(t.app);
    const first = (await upload(user, { name: 'one.png', bytes: await bands() })).Data!.headImg!;
    const second = (await upload(user, { name: 'two.jpg', bytes: await bands('jpeg') })).Data!.headImg!;
    expect(second).not.toBe(first);
    expect(await stored(first)).toBeNull();
    expect((await fetchPicture(first)).statusCode).toBe(404);
    expect((await fetchPicture(second)).statusCode).toBe(200);

    const removed = await api(t.app, user).postBody('/api/Account/DeleteUserHeadImg');
    expect(removed, removed.Msg).toMatchObject({ Code: Codes.Success, Data: { userId: user.userId, headImg: null } });
    expect(await stored(second)).toBeNull();
    expect((await fetchPicture(second)).statusCode).toBe(404);
    expect((await api(t.app, user).getBody('/api/User/GetUserByLogin')).Data.headImg).toBeNull();
    // Removing again is no error.
    expect((await api(t.app, user).postBody('/api/Account/DeleteUserHeadImg')).Code).toBe(Codes.Success);
  });

  it('changes only the caller’s own picture', async () => {
    const alice = await createUser(t.app);
    const bob = await createUser(t.app);
    const bobs = (await upload(bob, { name: 'bob.png', bytes: await bands() })).Data!.headImg!;
    const alices = await upload(alice, { name: 'alice.png', bytes: await bands('webp') }, { fields: { userId: bob.userId } });
    expect(alices.Data!.userId).toBe(alice.userId);
    expect((await api(t.app, alice).postBody('/api/Account/DeleteUserHeadImg', { userId: bob.userId })).Code).toBe(Codes.Success);
    expect((await api(t.app, bob).getBody('/api/User/GetUserByLogin')).Data.headImg).toBe(bobs);
    expect((await fetchPicture(bobs)).statusCode).toBe(200);
  });

  it('shows in the console’s user list and page, and goes with a deleted account', async () => {
    const admin = await createAdmin(t.app);
    const user = await createUser(t.app);
    const path = (await upload(user, { name: 'me.png', bytes: await bands() })).Data!.headImg!;
    const list = await api(t.app, admin).getBody(`/api/admin/User/GetList?keyword=${encodeURIComponent(user.email)}`);
    expect(list.Data.list).toEqual([expect.objectContaining({ userId: user.userId, headImg: path })]);
    expect((await api(t.app, admin).getBody(`/api/admin/User/GetById?userId=${user.userId}`)).Data.headImg).toBe(path);
    expect((await api(t.app, admin).postBody('/api/admin/User/Delete', { userId: user.userId, confirmEmail: user.email })).Code).toBe(Codes.Success);
    expect(await stored(path)).toBeNull();
    expect((await fetchPicture(path)).statusCode).toBe(404);
  });
});
