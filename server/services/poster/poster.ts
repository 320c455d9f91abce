import { createHash, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { Language } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { POSTER, type AdminPosterPreviewQuery, type AdminPosterSettings, type AdminSavePosterBody } from '../../../shared/contracts/poster.ts';
import type { AppContext } from '../../context.ts';
import { posterRenders, posterSettings } from '../../db/schema/posters.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';
import { t } from '../../core/i18n.ts';
import { ownerQueue } from '../../core/owner-queue.ts';
import { headImgKey } from '../accounts/head-img.ts';
import type { UploadedFile } from '../media/upload.ts';
import { canonicalInviteCode, inviteUrlOf } from '../points/invites.ts';
import { settingValues } from '../system/settings.ts';
import { workerPool } from '../workers/worker-pool.ts';
import type { PosterInput } from './poster-render.ts';
import type { PosterWorkerResult } from './poster-worker.ts';

/**
 * The invite poster (docs/api.md#invite-poster): what it shows, where it is kept, what operators set.
 * A poster is made once per account, language and version and kept in the file store
 * (posters/cache/<id>), one per account and language (poster_renders): the version hashes everything
 * the picture shows (the account's name, picture and code, the product's name, the server's address,
 * the operator's settings' revision), so any change makes a new one, which replaces the old file.
 * Making one takes 0.1 to 0.5 s of CPU, spent in worker threads (poster-worker.ts, from the pool of
 * services/workers/worker-pool.ts, as the PDF export does) so the event loop, and every chat stream
 * on it, goes on meanwhile: at most POSTER_LIMITS.maxRendering admitted at once on an instance
 * (beyond: 10429 posterBusy), drawn by at most POSTER_LIMITS.maxWorkers threads, an account's one
 * after another, and two requests for the same poster share one making.
 */

/** The bounds, read at each use (tests change them). */
export const POSTER_LIMITS = {
  /** Posters admitted at once (being drawn or waiting for a worker) before a new one is refused as busy. */
  maxRendering: 4,
  /** Worker threads drawing at once (each holds the fonts, about 20 MB read and parsed once). */
  maxWorkers: 2,
  /** A poster taking longer than this is ended with its worker (one takes well under a second). */
  jobTimeoutMs: 30_000,
  /** A worker's V8 heap. */
  workerHeapMb: 512,
  /** An idle worker ends after this long (its fonts go with it). */
  idleMs: 120_000,
};

const pool = workerPool<PosterInput, PosterWorkerResult>(new URL('./poster-worker.boot.mjs', import.meta.url), POSTER_LIMITS);

/** Changes when the layout does (poster-render.ts), so every kept poster is made again. */
const LAYOUT_VERSION = 1;
const SETTINGS_ID = 'poster';

/** How many posters this process has made (not served from the file store): logs and tests read it. */
export const posterStats = { renders: 0 };

const pictureKey = (id: string) => `posters/picture/${id}`;
const cacheKey = (id: string) => `posters/cache/${id}`;

const queued = ownerQueue(() => POSTER_LIMITS.maxRendering, 'posterBusy');
/** Makings under way, by account, language and version: a second request waits for the first's. */
const making = new Map<string, Promise<Buffer>>();

type Settings = {
  headlineEn: string;
  headlineZh: string;
  subtextEn: string;
  subtextZh: string;
  accentColor: string;
  pictureId: string | null;
  revision: number;
  updatedAt: Date | null;
};

const DEFAULT_SETTINGS: Settings = {
  headlineEn: '',
  headlineZh: '',
  subtextEn: '',
  subtextZh: '',
  accentColor: POSTER.defaultAccentColor,
  pictureId: null,
  revision: 0,
  updatedAt: null,
};

async function loadSettings(ctx: AppContext): Promise<Settings> {
  const [row] = await ctx.db.select().from(posterSettings).where(eq(posterSettings.id, SETTINGS_ID));
  return row ?? DEFAULT_SETTINGS;
}

async function productName(ctx: AppContext): Promise<string> {
  const { product_name: name } = await settingValues(ctx, ['product_name'] as const);
  return name.trim() || 'Tandem';
}

/** The built-in words of a language, where the operator left a field empty. */
const defaultWords = (lang: Language, product: string) => ({ headline: t(lang, 'posterHeadline'), subtext: t(lang, 'posterSubtext', { product }) });

function wordsOf(settings: Settings, lang: Language, product: string) {
  const fallback = defaultWords(lang, product);
  const headline = lang === 'zh' ? settings.headlineZh : settings.headlineEn;
  const subtext = lang === 'zh' ? settings.subtextZh : settings.subtextEn;
  return { headline: headline || fallback.headline, subtext: subtext || fallback.subtext };
}

/** A stored picture as PNG of `side` pixels for the poster; null (the initial instead) when it cannot be read. */
async function avatarPng(ctx: AppContext, headImgId: string | null): Promise<Uint8Array | null> {
  if (!headImgId) return null;
  try {
    const bytes = await ctx.files.get(headImgKey(headImgId));
    return bytes ? await sharp(bytes).resize(150, 150).png().toBuffer() : null;
  } catch (err) {
    ctx.log.warn({ err, headImgId }, 'a picture for a poster could not be read');
    return null;
  }
}

async function operatorPicture(ctx: AppContext, pictureId: string | null): Promise<Uint8Array | null> {
  if (!pictureId) return null;
  const bytes = await ctx.files.get(pictureKey(pictureId)).catch((err: unknown) => {
    ctx.log.warn({ err, pictureId }, 'the poster picture could not be read');
    return null;
  });
  return bytes;
}

type Inviter = { id: string; userName: string; headImg: string | null; code: string };

/** Everything one account's poster shows, in `lang`. */
export async function posterInput(ctx: AppContext, inviter: Inviter, lang: Language, settings?: Settings): Promise<PosterInput> {
  const current = settings ?? (await loadSettings(ctx));
  const product = await productName(ctx);
  const [picture, avatar] = await Promise.all([operatorPicture(ctx, current.pictureId), avatarPng(ctx, inviter.headImg)]);
  return {
    lang,
    productName: product,
    picture,
    ...wordsOf(current, lang, product),
    accentColor: current.accentColor,
    userName: inviter.userName,
    avatar,
    invitesLine: t(lang, 'posterInvites', { product }),
    scanLine: t(lang, 'posterScan'),
    codeLine: t(lang, 'posterCode', { code: inviter.code }),
    inviteUrl: inviteUrlOf(ctx, inviter.code),
  };
}

/** Draws one poster on a worker thread; a failure there (or the worker ended) fails the request as any server error would. */
async function draw(ctx: AppContext, input: PosterInput): Promise<Buffer> {
  const { png: bytes, missing } = await pool.run(input);
  const png = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  posterStats.renders++;
  // A name with an emoji or a script Noto Sans SC lacks: those characters are left out of the picture.
  if (missing.length) ctx.log.info({ missing: missing.slice(0, 5) }, 'poster text has characters no font here draws');
  return png;
}

/** The active account whose own invite code `code` is, with what its poster shows; null for none. */
export async function findPosterOwner(ctx: AppContext, code: string): Promise<Inviter | null> {
  const canonical = canonicalInviteCode(code);
  if (!canonical) return null;
  const [row] = await ctx.db
    .select({ id: users.id, userName: users.userName, headImg: users.headImg, code: users.ownInviteCode })
    .from(users)
    .where(and(eq(users.ownInviteCode, canonical), eq(users.status, 'active')));
  return row?.code ? { ...row, code: row.code } : null;
}

/** GetPosterByCode: the PNG, from the file store when this version was made before. */
export async function posterByCode(ctx: AppContext, code: string, lang: Language): Promise<{ png: Buffer; cached: boolean }> {
  const inviter = await findPosterOwner(ctx, code);
  if (!inviter) throw new AppError(Codes.NotFound, 'posterCodeUnknown');
  const [settings, product] = await Promise.all([loadSettings(ctx), productName(ctx)]);
  const version = createHash('sha256')
    .update(
      JSON.stringify([LAYOUT_VERSION, lang, inviter.userName, inviter.headImg, inviter.code, product, ctx.config.publicUrl, settings.revision, settings.pictureId]),
    )
    .digest('base64url')
    .slice(0, 32);
  const [kept] = await ctx.db
    .select({ version: posterRenders.version, fileId: posterRenders.fileId })
    .from(posterRenders)
    .where(and(eq(posterRenders.userId, inviter.id), eq(posterRenders.language, lang)));
  if (kept?.version === version) {
    const bytes = await ctx.files.get(cacheKey(kept.fileId)).catch((err: unknown) => {
      ctx.log.warn({ err }, 'a kept poster could not be read');
      return null;
    });
    if (bytes) return { png: bytes, cached: true };
  }
  const key = `${inviter.id}:${lang}:${version}`;
  let job = making.get(key);
  if (!job) {
    job = queued(inviter.id, async () => {
      const png = await draw(ctx, await posterInput(ctx, inviter, lang, settings));
      await keep(ctx, inviter.id, lang, version, png, kept?.fileId ?? null);
      return png;
    }).finally(() => making.delete(key));
    making.set(key, job);
  }
  return { png: await job, cached: false };
}

/** Stores a made poster as the account's one for `lang`, and removes the file it replaces. A failure to store only costs a making next time. */
async function keep(ctx: AppContext, userId: string, lang: Language, version: string, png: Buffer, previous: string | null): Promise<void> {
  const fileId = randomUUID();
  try {
    await ctx.files.put(cacheKey(fileId), png, 'image/png');
    const [old] = await ctx.db
      .select({ fileId: posterRenders.fileId })
      .from(posterRenders)
      .where(and(eq(posterRenders.userId, userId), eq(posterRenders.language, lang)));
    await ctx.db
      .insert(posterRenders)
      .values({ userId, language: lang, version, fileId })
      .onConflictDoUpdate({ target: [posterRenders.userId, posterRenders.language], set: { version, fileId, createdAt: sql`now()` } });
    for (const gone of new Set([previous, old?.fileId].filter((id): id is string => !!id && id !== fileId))) {
      await ctx.files.delete(cacheKey(gone));
    }
  } catch (err) {
    ctx.log.warn({ err, storage: ctx.files.kind }, 'keeping a poster failed');
  }
}

// ---- operators ----

function adminView(settings: Settings, product: string): AdminPosterSettings {
  return {
    headlineEn: settings.headlineEn,
    headlineZh: settings.headlineZh,
    subtextEn: settings.subtextEn,
    subtextZh: settings.subtextZh,
    accentColor: settings.accentColor,
    hasPicture: settings.pictureId !== null,
    defaults: { en: defaultWords('en', product), zh: defaultWords('zh', product) },
    updateTime: settings.updatedAt?.toISOString() ?? null,
  };
}

export async function adminGetPoster(ctx: AppContext): Promise<AdminPosterSettings> {
  const [settings, product] = await Promise.all([loadSettings(ctx), productName(ctx)]);
  return adminView(settings, product);
}

/** Writes the settings row (made on the first save) with a new revision; answers the picture it replaced, if any. */
async function writeSettings(ctx: AppContext, change: Partial<Settings>): Promise<string | null> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(posterSettings).where(eq(posterSettings.id, SETTINGS_ID)).for('update');
    const next = { ...DEFAULT_SETTINGS, ...row, ...change };
    const values = {
      headlineEn: next.headlineEn,
      headlineZh: next.headlineZh,
      subtextEn: next.subtextEn,
      subtextZh: next.subtextZh,
      accentColor: next.accentColor,
      pictureId: next.pictureId,
      updatedAt: sql`now()`,
    };
    if (row) await tx.update(posterSettings).set({ ...values, revision: sql`${posterSettings.revision} + 1` }).where(eq(posterSettings.id, SETTINGS_ID));
    else await tx.insert(posterSettings).values({ id: SETTINGS_ID, ...values, revision: 1 });
    return row?.pictureId && row.pictureId !== next.pictureId ? row.pictureId : null;
  });
}

async function deletePicture(ctx: AppContext, id: string | null): Promise<void> {
  if (!id) return;
  await ctx.files.delete(pictureKey(id)).catch((err: unknown) => ctx.log.warn({ err }, 'removing a replaced poster picture failed'));
}

export async function adminSavePoster(ctx: AppContext, body: AdminSavePosterBody): Promise<AdminPosterSettings> {
  const { removePicture, ...words } = body;
  const replaced = await writeSettings(ctx, { ...words, ...(removePicture ? { pictureId: null } : {}) });
  await deletePicture(ctx, replaced);
  return adminGetPoster(ctx);
}

/** The operator's picture: PNG, JPEG or WebP by its content, cropped to the poster's 960×600 and kept as PNG without metadata. */
export async function adminSavePosterPicture(ctx: AppContext, file: UploadedFile | null): Promise<AdminPosterSettings> {
  if (!file || file.bytes.length === 0) throw new AppError(Codes.BadRequest, 'uploadFileMissing');
  let png: Buffer;
  try {
    const image = sharp(file.bytes, { limitInputPixels: 50_000_000, failOn: 'error' });
    const { format } = await image.metadata();
    if (format !== 'png' && format !== 'jpeg' && format !== 'webp') throw new Error(`format ${format}`);
    png = await image.rotate().resize(960, 600, { fit: 'cover', position: 'centre' }).png().toBuffer();
  } catch {
    throw new AppError(Codes.UploadRefused, 'posterPictureRefused');
  }
  const id = randomUUID();
  await ctx.files.put(pictureKey(id), png, 'image/png');
  let replaced: string | null;
  try {
    replaced = await writeSettings(ctx, { pictureId: id });
  } catch (err) {
    await deletePicture(ctx, id);
    throw err;
  }
  await deletePicture(ctx, replaced);
  return adminGetPoster(ctx);
}

/** Preview: the poster of a sample account (never kept), with the console's draft words and colour over the saved ones. */
export async function adminPreviewPoster(ctx: AppContext, adminId: string, query: AdminPosterPreviewQuery): Promise<Buffer> {
  const settings = await loadSettings(ctx);
  const draft: Settings = { ...settings, accentColor: query.accentColor ?? settings.accentColor };
  if (query.headline !== undefined) draft[query.lang === 'zh' ? 'headlineZh' : 'headlineEn'] = query.headline;
  if (query.subtext !== undefined) draft[query.lang === 'zh' ? 'subtextZh' : 'subtextEn'] = query.subtext;
  const sample: Inviter = { id: 'sample', userName: t(query.lang, 'posterSampleName'), headImg: null, code: 'ABCD2345' };
  return queued(adminId, async () => draw(ctx, await posterInput(ctx, sample, query.lang, draft)));
}
