import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { POSTER } from '../../shared/contracts/poster.ts';
import { posterQrSvg, posterTree, renderPoster, type PosterInput } from '../../server/services/poster/poster-render.ts';
import { findPosterOwner, POSTER_LIMITS, posterInput, posterStats } from '../../server/services/poster/poster.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { auth, createAdmin, createUser, type TestUser } from '../helpers/users.ts';

/**
 * The invite poster (docs/api.md#invite-poster): a PNG per account and language with a QR code of the
 * invite link, Chinese drawn with real glyphs, kept until something it shows changes; operators set
 * its words, colour and picture (audited, admins only) and preview it.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let code: string;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT: '1000', PUBLIC_URL: 'https://chat.example.com/' });
  admin = await createAdmin(t.app);
  owner = await createUser(t.app, { userName: '张伟 Zhang' });
  code = (await api(t.app, owner).getBody('/api/InviteCode/GetMyInviteCode')).Data.inviteCode;
});
afterAll(() => t?.close());

const posterUrl = (c: string, lang?: string) => `/api/Poster/GetPosterByCode?code=${encodeURIComponent(c)}${lang ? `&lang=${lang}` : ''}`;
const getPoster = (c: string, lang?: string, acceptLanguage?: string) => api(t.app).get(posterUrl(c, lang), { lang: acceptLanguage });

/** Answers the PNG after checking it is one, of the poster's size. */
async function expectPng(res: LightMyRequestResponse): Promise<Buffer> {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('image/png');
  const bytes = res.rawPayload;
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  const meta = await sharp(bytes).metadata();
  expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'png', width: POSTER.width, height: POSTER.height });
  return bytes;
}

const pixels = async (png: Buffer) => sharp(png).raw().toBuffer();
/** Pixels that differ between two same-sized pictures. */
async function changedPixels(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([pixels(a), pixels(b)]);
  let n = 0;
  for (let i = 0; i < x.length; i += 4) if (x[i] !== y[i] || x[i + 1] !== y[i + 1] || x[i + 2] !== y[i + 2]) n++;
  return n;
}

describe('GetPosterByCode', () => {
  it('answers a portrait PNG, made once and then served from the file store', async () => {
    const before = posterStats.renders;
    const first = await getPoster(code, 'en');
    const png = await expectPng(first);
    expect(first.headers['x-poster-cache']).toBe('miss');
    const second = await getPoster(code, 'en');
    expect(second.headers['x-poster-cache']).toBe('hit');
    expect(second.rawPayload.equals(png)).toBe(true);
    // A code as typed: lower case, spaces around.
    const typed = await getPoster(`  ${code.toLowerCase()} `, 'en');
    expect(typed.headers['x-poster-cache']).toBe('hit');
    expect(posterStats.renders - before).toBe(1);
  });

  it('is made per language: lang, else the caller’s language', async () => {
    const en = await expectPng(await getPoster(code, 'en'));
    const zhRes = await getPoster(code, undefined, 'zh-CN');
    const zh = await expectPng(zhRes);
    expect(await changedPixels(en, zh)).toBeGreaterThan(10_000);
    expect((await getPoster(code, 'zh')).headers['x-poster-cache']).toBe('hit');
  });

  it('answers 10404 with a message for a code no active account has, and 10400 for a bad language', async () => {
    const unknown = await getPoster('NOSUCH99', 'en');
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ Code: 10404, Msg: expect.stringContaining('invite code'), Data: null });
    const zh = await api(t.app).getBody(posterUrl('NOSUCH99'), { lang: 'zh' });
    expect(zh.Msg).toContain('邀请码');
    expect((await api(t.app).getBody(posterUrl(code, 'fr'))).Code).toBe(10400);
    // A closed account's code shows no poster.
    const closed = await createUser(t.app);
    const closedCode = (await api(t.app, closed).getBody('/api/InviteCode/GetMyInviteCode')).Data.inviteCode;
    expect((await api(t.app, admin).postBody('/api/admin/User/Close', { userId: closed.userId })).Code).toBe(10000);
    expect((await getPoster(closedCode, 'en')).json().Code).toBe(10404);
  });

  it('is made again when the account’s name or picture changes', async () => {
    const user = await createUser(t.app, { userName: 'Before' });
    const c = (await api(t.app, user).getBody('/api/InviteCode/GetMyInviteCode')).Data.inviteCode;
    const first = await expectPng(await getPoster(c, 'en'));
    expect((await api(t.app, user).postBody('/api/User/UpdateNickName', { userName: 'After' })).Code).toBe(10000);
    const renamed = await getPoster(c, 'en');
    expect(renamed.headers['x-poster-cache']).toBe('miss');
    expect(await changedPixels(first, await expectPng(renamed))).toBeGreaterThan(100);
    // A picture in place of the initial.
    const red = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#ff0000' } }).png().toBuffer();
    const form = new FormData();
    form.append('headImg', new Blob([new Uint8Array(red)]), 'me.png');
    const encoded = new Response(form);
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/Account/AddUserForHeadImg',
      headers: { ...auth(user.token), 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(up.json().Code).toBe(10000);
    const pictured = await getPoster(c, 'en');
    expect(pictured.headers['x-poster-cache']).toBe('miss');
    const png = await expectPng(pictured);
    // Somewhere on the poster there is now red (the picture: no other part of the poster is red).
    const raw = await pixels(png);
    let red255 = 0;
    for (let i = 0; i < raw.length; i += 4) if (raw[i]! > 230 && raw[i + 1]! < 30 && raw[i + 2]! < 30) red255++;
    expect(red255).toBeGreaterThan(5_000);
  });

  it('holds a QR code of the account’s invite link', async () => {
    const info = (await api(t.app, owner).getBody('/api/InviteCode/GetMyInviteCode')).Data;
    const found = await findPosterOwner(t.app.ctx, code);
    expect(found).not.toBeNull();
    const input = await posterInput(t.app.ctx, found!, 'en');
    expect(input.inviteUrl).toBe(info.inviteUrl);
    expect(input.inviteUrl).toBe(`https://chat.example.com/?inviteCode=${code}`);
    const expected = `data:image/svg+xml;base64,${Buffer.from(await posterQrSvg(info.inviteUrl)).toString('base64')}`;
    const images: string[] = [];
    const walk = (node: unknown) => {
      if (!node || typeof node !== 'object') return;
      const { type, props } = node as { type: string; props: { src?: string; children?: unknown } };
      if (type === 'img' && props.src) images.push(props.src);
      for (const child of [props?.children].flat()) walk(child);
    };
    walk(await posterTree(input));
    expect(images).toContain(expected);
    // The QR code's SVG carries the link's modules: another link draws another code.
    expect(await posterQrSvg('https://chat.example.com/?inviteCode=OTHER234')).not.toBe(await posterQrSvg(info.inviteUrl));
  });

  it('refuses to make more posters at once than it takes (10429)', async () => {
    const user = await createUser(t.app);
    const c = (await api(t.app, user).getBody('/api/InviteCode/GetMyInviteCode')).Data.inviteCode;
    const saved = POSTER_LIMITS.maxRendering;
    POSTER_LIMITS.maxRendering = 0;
    try {
      const busy = await api(t.app).getBody(posterUrl(c, 'en'));
      expect(busy.Code).toBe(10429);
      expect(busy.Msg).toMatch(/poster/i);
    } finally {
      POSTER_LIMITS.maxRendering = saved;
    }
    await expectPng(await getPoster(c, 'en'));
  });

  it('is drawn off the event loop: timers keep firing while a poster is made', async () => {
    // Two fresh posters (not kept yet), one after another: the first may start the worker.
    for (const userName of ['Ticks One 一', 'Ticks Two 二']) {
      const user = await createUser(t.app, { userName });
      const c = (await api(t.app, user).getBody('/api/InviteCode/GetMyInviteCode')).Data.inviteCode;
      const before = posterStats.renders;
      let ticks = 0;
      let last = performance.now();
      let longestGap = 0;
      const timer = setInterval(() => {
        const now = performance.now();
        longestGap = Math.max(longestGap, now - last);
        last = now;
        ticks++;
      }, 2);
      const started = performance.now();
      let res: LightMyRequestResponse;
      try {
        res = await getPoster(c, 'en');
      } finally {
        clearInterval(timer);
      }
      const elapsed = performance.now() - started;
      expect(res.headers['x-poster-cache']).toBe('miss');
      await expectPng(res);
      expect(posterStats.renders - before).toBe(1);
      // On the server's own thread, satori and resvg would hold every timer for the whole drawing
      // (0.1 to 0.5 s, the fonts' first reading longer): a handful of ticks, one gap most of the time.
      expect(ticks).toBeGreaterThan(elapsed / 10);
      expect(longestGap).toBeLessThan(Math.max(50, elapsed / 2));
    }
  });
});

describe('Chinese text on the poster', () => {
  const input = async (userName: string): Promise<PosterInput> => ({
    ...(await posterInput(t.app.ctx, { id: 'x', userName, headImg: null, code: 'ABCD2345' }, 'zh')),
    headline: '邀请好友，一起用 AI',
    subtext: '在浏览器侧边栏里提问、写作、翻译和总结。',
  });

  it('draws every character with a font of its own: no text falls to the missing-glyph path', async () => {
    const drawn = await renderPoster(await input('张伟'));
    expect(drawn.missing).toEqual([]);
    // The check can fail: a character Noto Sans SC lacks (Runic) goes down that path.
    const runic = await renderPoster(await input('ᚠᚢᚦ'));
    expect(runic.missing.join('')).toContain('ᚠ');
  });

  it('draws the glyphs: two Chinese names give two different pictures', async () => {
    const [a, b] = await Promise.all([renderPoster(await input('张伟')), renderPoster(await input('李娜'))]);
    // Were the glyphs missing (drawn as nothing), the two would be the same pixels.
    expect(await changedPixels(a.png, b.png)).toBeGreaterThan(200);
  });
});

describe('the console’s poster settings', () => {
  const settings = () => api(t.app, admin).getBody('/api/admin/Poster/Get');
  const save = (body: Record<string, unknown>, who: TestUser = admin, lang?: string) =>
    api(t.app, who).postBody('/api/admin/Poster/Save', { headlineEn: '', headlineZh: '', subtextEn: '', subtextZh: '', accentColor: '#7b7ddb', ...body }, { lang });
  const uploadPicture = async (bytes: Buffer, name = 'p.png') => {
    const form = new FormData();
    form.append('picture', new Blob([new Uint8Array(bytes)]), name);
    const encoded = new Response(form);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/Poster/SavePicture',
      headers: { ...auth(admin.token), 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    return res.json();
  };

  it('is for admins only', async () => {
    const user = await createUser(t.app);
    expect((await api(t.app, user).getBody('/api/admin/Poster/Get')).Code).toBe(10403);
    expect((await save({ headlineEn: 'Mine' }, user)).Code).toBe(10403);
    expect((await api(t.app, user).getBody('/api/admin/Poster/Preview?lang=en')).Code).toBe(10403);
    expect((await api(t.app).getBody('/api/admin/Poster/Get')).Code).toBe(10402);
  });

  it('starts with the built-in words, and refuses bad input with a message', async () => {
    const start = await settings();
    expect(start.Data).toMatchObject({ headlineEn: '', accentColor: '#7b7ddb', hasPicture: false, updateTime: null });
    expect(start.Data.defaults.zh.headline).toMatch(/[\u4e00-\u9fff]/);
    const colour = await save({ accentColor: 'red' });
    expect(colour.Code).toBe(10400);
    expect(colour.Msg).toContain('#rrggbb');
    const long = await save({ headlineZh: '长'.repeat(POSTER.headlineMaxChars + 1) }, admin, 'zh');
    expect(long.Code).toBe(10400);
    expect(long.Msg).toContain('过长');
  });

  it('saves words and colour, audited, and every kept poster is made again', async () => {
    const before = await expectPng(await getPoster(code, 'en'));
    expect((await getPoster(code, 'en')).headers['x-poster-cache']).toBe('hit');
    const saved = await save({ headlineEn: 'Come build with me', headlineZh: '和我一起用', accentColor: '#D9480F' });
    expect(saved.Code).toBe(10000);
    expect(saved.Data).toMatchObject({ headlineEn: 'Come build with me', headlineZh: '和我一起用', accentColor: '#d9480f' });
    expect(saved.Data.updateTime).not.toBeNull();
    const renders = posterStats.renders;
    const after = await getPoster(code, 'en');
    expect(after.headers['x-poster-cache']).toBe('miss');
    expect(posterStats.renders).toBe(renders + 1);
    expect(await changedPixels(before, await expectPng(after))).toBeGreaterThan(10_000);
    const audit = await api(t.app, admin).getBody('/api/admin/AuditLog/GetList?targetType=poster&from=2020-01-01&to=2100-01-01');
    expect(audit.Code).toBe(10000);
    expect(audit.Data.list[0]).toMatchObject({ targetType: 'poster', targetId: 'poster' });
    expect(audit.Data.list[0].after).toMatchObject({ headlineEn: 'Come build with me' });
  });

  it('takes a picture (PNG, JPEG or WebP) and removes it', async () => {
    const before = await expectPng(await getPoster(code, 'en'));
    const green = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#00ff00' } }).jpeg().toBuffer();
    const up = await uploadPicture(green, 'p.jpg');
    expect(up.Code).toBe(10000);
    expect(up.Data.hasPicture).toBe(true);
    const withPicture = await getPoster(code, 'en');
    expect(withPicture.headers['x-poster-cache']).toBe('miss');
    expect(await changedPixels(before, await expectPng(withPicture))).toBeGreaterThan(100_000);
    const refused = await uploadPicture(Buffer.from('not a picture at all'), 'p.png');
    expect(refused.Code).toBe(10422);
    const removed = await save({ headlineEn: 'Come build with me', headlineZh: '和我一起用', accentColor: '#d9480f', removePicture: true });
    expect(removed.Data.hasPicture).toBe(false);
    expect(await changedPixels(before, await expectPng(await getPoster(code, 'en')))).toBe(0);
  });

  it('previews with a sample account and the draft words, keeping nothing', async () => {
    const renders = posterStats.renders;
    const saved = await expectPng(await api(t.app, admin).get('/api/admin/Poster/Preview?lang=zh'));
    const draft = await expectPng(await api(t.app, admin).get(`/api/admin/Poster/Preview?lang=zh&headline=${encodeURIComponent('草稿标题')}&accentColor=%23228be6`));
    expect(await changedPixels(saved, draft)).toBeGreaterThan(10_000);
    expect(posterStats.renders).toBe(renders + 2);
    expect((await settings()).Data.headlineZh).toBe('和我一起用');
    expect((await api(t.app, admin).getBody('/api/admin/Poster/Preview?lang=zh&accentColor=blue')).Code).toBe(10400);
  });
});
