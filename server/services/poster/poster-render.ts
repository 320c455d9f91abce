import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import QRCode from 'qrcode';
import satori, { type Font } from 'satori';
import { POSTER } from '../../../shared/contracts/poster.ts';

/**
 * Draws the invite poster (docs/api.md#invite-poster): a tree of boxes laid out by satori (flexbox,
 * text shaped with the fonts given, no browser) into SVG, rasterised by resvg into a PNG of
 * POSTER.width × POSTER.height. All text is set in Noto Sans SC (OFL, the PDF export's font, from
 * @expo-google-fonts/noto-sans-sc), which draws Chinese and Latin alike; characters it lacks (emoji,
 * other scripts) are reported in `missing`, and drawn as nothing rather than fetched from anywhere.
 * No database, no file store: the caller hands in every word and picture. The server runs it in a
 * worker thread (poster-worker.ts), never on its event loop.
 */

export type PosterInput = {
  lang: 'en' | 'zh';
  productName: string;
  /** The operator's picture as PNG bytes; null: a panel in the accent colour with the product's name. */
  picture: Uint8Array | null;
  headline: string;
  subtext: string;
  accentColor: string;
  userName: string;
  /** The account's picture as PNG bytes; null: its initial on the accent colour. */
  avatar: Uint8Array | null;
  /** Under the name: "invites you to try Tandem". */
  invitesLine: string;
  /** Under the QR code: "Scan to sign up" and "Invite code ABCD2345". */
  scanLine: string;
  codeLine: string;
  /** What the QR code holds: the account's invite link. */
  inviteUrl: string;
};

export type PosterRendering = { png: Buffer; missing: string[] };

type Node = { type: string; props: Record<string, unknown> & { style?: Record<string, unknown>; children?: unknown } };

const requireHere = createRequire(import.meta.url);
const FONT_FILES = {
  400: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  700: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
} as const;
export const POSTER_FONT_NAME = 'Noto Sans SC';

let fonts: Font[] | undefined;

/** Both weights, read on the first poster (20 MB, parsed by satori once and kept). */
export function posterFonts(): Font[] {
  fonts ??= ([400, 700] as const).map((weight) => ({
    name: POSTER_FONT_NAME,
    data: readFileSync(requireHere.resolve(FONT_FILES[weight])),
    weight,
    style: 'normal' as const,
  }));
  return fonts;
}

const el = (type: string, style: Record<string, unknown>, children?: unknown, props: Record<string, unknown> = {}): Node => ({
  type,
  props: { ...props, style, ...(children === undefined ? {} : { children }) },
});

const dataUrl = (mime: string, bytes: Uint8Array | string) => `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;

/** At most `max` characters (code points, so a Chinese or astral character is never cut in half). */
export const clip = (text: string, max: number) => {
  const chars = Array.from(text.trim());
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
};

/** The QR code of `text` as SVG: medium error correction, a quiet zone of two modules. */
export function posterQrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#111111', light: '#ffffff' } });
}

/** The layout: picture on top, the words, the inviter, the QR card, the link. */
export async function posterTree(input: PosterInput): Promise<Node> {
  const W = POSTER.width;
  const accent = input.accentColor;
  const qr = dataUrl('image/svg+xml', await posterQrSvg(input.inviteUrl));
  const picture = input.picture
    ? el('img', { width: 960, height: 600, borderRadius: 36, objectFit: 'cover' }, undefined, { src: dataUrl('image/png', input.picture), width: 960, height: 600 })
    : el(
        'div',
        { width: 960, height: 600, borderRadius: 36, backgroundColor: accent, display: 'flex', alignItems: 'center', justifyContent: 'center' },
        el('div', { width: 840, color: '#ffffff', fontSize: 120, fontWeight: 700, justifyContent: 'center', textAlign: 'center', display: 'flex' }, clip(input.productName, 16)),
      );
  const initial = Array.from(input.userName.trim())[0]?.toUpperCase() ?? '?';
  const avatar = input.avatar
    ? el(
        'div',
        // A ring of the accent colour around the round picture.
        { display: 'flex', padding: 6, borderRadius: 81, backgroundColor: accent },
        el('img', { width: 138, height: 138, borderRadius: 69 }, undefined, { src: dataUrl('image/png', input.avatar), width: 138, height: 138 }),
      )
    : el(
        'div',
        { width: 150, height: 150, borderRadius: 75, backgroundColor: accent, color: '#ffffff', fontSize: 72, fontWeight: 700, display: 'flex', alignItems: 'center', justifyContent: 'center' },
        initial,
      );
  return el(
    'div',
    {
      width: W,
      height: POSTER.height,
      display: 'flex',
      flexDirection: 'column',
      alignItems: 'center',
      backgroundColor: '#f7f7ff',
      fontFamily: POSTER_FONT_NAME,
      color: '#1f1f2e',
      paddingTop: 60,
    },
    [
      picture,
      el('div', { display: 'flex', marginTop: 44, fontSize: 44, fontWeight: 700, color: accent }, clip(input.productName, 30)),
      el('div', { display: 'flex', marginTop: 16, width: 920, justifyContent: 'center', textAlign: 'center', fontSize: 64, fontWeight: 700, lineHeight: 1.25 }, input.headline),
      el('div', { display: 'flex', marginTop: 20, width: 900, justifyContent: 'center', textAlign: 'center', fontSize: 36, color: '#5a5a6e', lineHeight: 1.4 }, input.subtext),
      el('div', { display: 'flex', flexDirection: 'row', alignItems: 'center', marginTop: 52, width: 920 }, [
        avatar,
        el('div', { display: 'flex', flexDirection: 'column', marginLeft: 32, width: 720 }, [
          el('div', { display: 'flex', fontSize: 48, fontWeight: 700 }, clip(input.userName, 20)),
          el('div', { display: 'flex', fontSize: 34, color: '#5a5a6e', marginTop: 6 }, input.invitesLine),
        ]),
      ]),
      el(
        'div',
        { display: 'flex', flexDirection: 'row', alignItems: 'center', marginTop: 48, width: 880, padding: 32, backgroundColor: '#ffffff', borderRadius: 32, border: `4px solid ${accent}` },
        [
          el('img', { width: 360, height: 360 }, undefined, { src: qr, width: 360, height: 360 }),
          el('div', { display: 'flex', flexDirection: 'column', marginLeft: 36, width: 440 }, [
            el('div', { display: 'flex', fontSize: 44, fontWeight: 700 }, input.scanLine),
            el('div', { display: 'flex', fontSize: 34, color: '#5a5a6e', marginTop: 16 }, input.codeLine),
          ]),
        ],
      ),
      el('div', { display: 'flex', marginTop: 36, width: 960, justifyContent: 'center', fontSize: 26, color: '#8a8a9e' }, clip(input.inviteUrl, 70)),
    ],
  );
}

/** The poster as PNG, and the characters no font here has (drawn as nothing). */
export async function renderPoster(input: PosterInput, fontSet: Font[] = posterFonts()): Promise<PosterRendering> {
  const missing: string[] = [];
  const svg = await satori((await posterTree(input)) as Parameters<typeof satori>[0], {
    width: POSTER.width,
    height: POSTER.height,
    fonts: fontSet,
    // Called for text no font covers; nothing is fetched: the characters are noted and left out.
    loadAdditionalAsset: (_code, segment) => {
      missing.push(segment);
      return Promise.resolve([]);
    },
  });
  const png = new Resvg(svg, { fitTo: { mode: 'width', value: POSTER.width }, font: { loadSystemFonts: false } }).render().asPng();
  return { png, missing };
}
