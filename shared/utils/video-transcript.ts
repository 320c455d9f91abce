/**
 * Reading a video's transcript in the user's tab (the tab reader, entrypoints/tab-reader.ts), in
 * layers, each a small pure function over the page's document or data so it can be tested on saved
 * pages: (a) the page's open transcript panel, (b) the caption track the player was given (fetched
 * from inside the tab), (c) the player's own data (description, chapters) when there is no
 * transcript. YouTube and Bilibili watch pages; every other page is read as before.
 */

import { TRANSCRIPT_HEADING, videoPlatformOf, type VideoPlatform } from './video-address.ts';

export { sameVideo, videoPlatformOf, videoUrlAt, type VideoPlatform } from './video-address.ts';

export interface VideoSegment {
  /** Seconds from the start. */
  start: number;
  text: string;
}

export interface VideoChapter {
  start: number;
  title: string;
}

/** Where the transcript came from: the page's transcript panel, a caption track, or none (the description). */
export type TranscriptSource = 'panel' | 'captions' | 'description';

export interface VideoReading {
  kind: 'video';
  platform: VideoPlatform;
  title: string;
  url: string;
  /** 0 when unknown (and for a live stream). */
  durationSeconds: number;
  /** The transcript's language code ('' when there is none). */
  language: string;
  source: TranscriptSource;
  segments: VideoSegment[];
  chapters: VideoChapter[];
  description: string;
  live: boolean;
  /** Why there is no transcript, or what kind it is (auto-generated); '' when there is nothing to say. */
  note: string;
}

/** A caption track as the player response lists it. */
export interface CaptionTrack {
  baseUrl: string;
  languageCode: string;
  /** 'asr' for automatic speech recognition (auto-generated). */
  kind?: string;
  name: string;
}

// --- Timestamps ---

/** "1:02:03" / "02:03" / "2:03" → seconds; NaN for anything else. */
export function parseTimestamp(text: string): number {
  const match = /^\s*(?:(\d{1,2}):)?(\d{1,2}):(\d{2})\s*$/.exec(text);
  if (!match) return NaN;
  const [, h, m, s] = match;
  if (Number(s) > 59 || (h !== undefined && Number(m) > 59)) return NaN;
  return Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s);
}

/** Seconds → "mm:ss" (under an hour) or "h:mm:ss". */
export function formatTimestamp(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

// --- The page's embedded data ---

/**
 * The JSON value that starts at the first `{` after `marker` in `text` (a script's
 * `var ytInitialPlayerResponse = {...};`), read by matching braces outside strings; null when absent
 * or not JSON.
 */
export function jsonAfter(text: string, marker: string): unknown {
  const at = text.indexOf(marker);
  if (at < 0) return null;
  const start = text.indexOf('{', at + marker.length);
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      try {
        return JSON.parse(text.slice(start, i + 1));
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The first script of `doc` that holds `marker`, parsed (see jsonAfter). */
function scriptJson(doc: Document, marker: string): unknown {
  for (const script of Array.from(doc.querySelectorAll('script'))) {
    const text = script.textContent ?? '';
    if (!text.includes(marker)) continue;
    const value = jsonAfter(text, marker);
    if (value) return value;
  }
  return null;
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** YouTube's `ytInitialPlayerResponse` as the page's script carries it, or null. */
export function youtubePlayerResponse(doc: Document): Json | null {
  const value = scriptJson(doc, 'ytInitialPlayerResponse');
  return value ? obj(value) : null;
}

/** YouTube's `ytInitialData` (chapters' markers), or null. */
export function youtubeInitialData(doc: Document): Json | null {
  const value = scriptJson(doc, 'ytInitialData');
  return value ? obj(value) : null;
}

/** Bilibili's `window.__INITIAL_STATE__`, or null. */
export function bilibiliState(doc: Document): Json | null {
  const value = scriptJson(doc, '__INITIAL_STATE__');
  return value ? obj(value) : null;
}

/** The caption tracks the player was given (captions.playerCaptionsTracklistRenderer.captionTracks). */
export function captionTracksOf(player: Json): CaptionTrack[] {
  const list = obj(obj(player.captions).playerCaptionsTracklistRenderer).captionTracks;
  return arr(list).flatMap((raw) => {
    const t = obj(raw);
    const baseUrl = str(t.baseUrl);
    const languageCode = str(t.languageCode);
    if (!baseUrl || !languageCode) return [];
    const name = obj(t.name);
    const label = str(name.simpleText) || arr(name.runs).map((r) => str(obj(r).text)).join('');
    return [{ baseUrl, languageCode, kind: str(t.kind) || undefined, name: label || languageCode }];
  });
}

// --- Language choice ---

const SIMPLIFIED = /^zh(?:-(?:hans|cn|sg|my))?(?:-|$)/i;
const TRADITIONAL = /^zh-(?:hant|tw|hk|mo)(?:-|$)/i;
const isAuto = (t: { kind?: string; languageCode: string }) => t.kind === 'asr' || /^ai-/i.test(t.languageCode);
/** A code without Bilibili's "ai-" prefix. */
const bare = (code: string) => code.replace(/^ai-/i, '');

/** How well a track's language fits the app's: 2 exactly the user's script, 1 the same language, 0 not at all. */
function languageFit(code: string, appLanguage: string): number {
  const c = bare(code);
  if (appLanguage.toLowerCase().startsWith('zh')) {
    const wantsTraditional = TRADITIONAL.test(appLanguage);
    if (TRADITIONAL.test(c)) return wantsTraditional ? 2 : 1;
    if (SIMPLIFIED.test(c)) return wantsTraditional ? 1 : 2;
    return 0;
  }
  const base = appLanguage.toLowerCase().split('-')[0];
  return c.toLowerCase().split('-')[0] === base ? 2 : 0;
}

/**
 * The track to read: the app's language when offered (for Chinese, Simplified before Traditional
 * unless the app is in Traditional; a manual track before an auto-generated one), else the video's
 * original language (a manual track in the language its auto-generated track has), else any manual
 * track, else the first.
 */
export function chooseTrack<T extends { languageCode: string; kind?: string }>(tracks: readonly T[], appLanguage: string): T | null {
  if (tracks.length === 0) return null;
  const scored = tracks
    .map((track, index) => ({ track, index, fit: languageFit(track.languageCode, appLanguage) }))
    .filter((s) => s.fit > 0)
    .sort((a, b) => b.fit - a.fit || Number(isAuto(a.track)) - Number(isAuto(b.track)) || a.index - b.index);
  if (scored.length) return scored[0].track;
  const spoken = tracks.find(isAuto);
  const original = spoken && tracks.find((t) => !isAuto(t) && bare(t.languageCode).split('-')[0] === bare(spoken.languageCode).split('-')[0]);
  return original ?? tracks.find((t) => !isAuto(t)) ?? tracks[0];
}

// --- Layer a: the page's transcript panel ---

/**
 * The segments of YouTube's transcript panel when it is open (or rendered) in the page:
 * ytd-transcript-segment-renderer elements, each a timestamp and its text. [] when there is none.
 */
export function readTranscriptPanel(doc: Document): VideoSegment[] {
  const segments: VideoSegment[] = [];
  for (const el of Array.from(doc.querySelectorAll('ytd-transcript-segment-renderer, transcript-segment-view-model'))) {
    const stamp = el.querySelector('.segment-timestamp, [class*="timestamp"]')?.textContent ?? '';
    const text = (el.querySelector('.segment-text, yt-formatted-string, [class*="segment-text"]')?.textContent ?? '').replace(/\s+/g, ' ').trim();
    const start = parseTimestamp(stamp);
    if (Number.isFinite(start) && text) segments.push({ start, text });
  }
  return segments;
}

// --- Layer b: caption tracks ---

/** YouTube's json3 captions: events with tStartMs and segs[].utf8. */
export function json3Segments(json: unknown): VideoSegment[] {
  return arr(obj(json).events).flatMap((raw) => {
    const e = obj(raw);
    const text = arr(e.segs)
      .map((s) => str(obj(s).utf8))
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
    const start = Number(e.tStartMs);
    return text && Number.isFinite(start) ? [{ start: start / 1000, text }] : [];
  });
}

/** Bilibili's subtitle JSON: body[] of { from, to, content }. */
export function bilibiliSubtitleSegments(json: unknown): VideoSegment[] {
  return arr(obj(json).body).flatMap((raw) => {
    const line = obj(raw);
    const text = str(line.content).replace(/\s+/g, ' ').trim();
    const start = Number(line.from);
    return text && Number.isFinite(start) ? [{ start, text }] : [];
  });
}

/** The caption track's address asking for json3, resolved against the page. */
export function json3Url(baseUrl: string, pageUrl: string): string {
  const url = new URL(baseUrl, pageUrl);
  url.searchParams.set('fmt', 'json3');
  return url.href;
}

// --- Layer c: chapters from the description or the player's markers ---

/** "0:00 Intro" lines of a description (at least two, the first at 0:00, in order, as YouTube requires). */
export function chaptersFromDescription(description: string): VideoChapter[] {
  const chapters: VideoChapter[] = [];
  for (const line of description.split(/\r?\n/)) {
    const match = /^\s*(?:[-•*]\s*)?\(?((?:\d{1,2}:)?\d{1,2}:\d{2})\)?\s*[-–—:|]?\s*(.+?)\s*$/.exec(line);
    if (!match) continue;
    const start = parseTimestamp(match[1]);
    if (!Number.isFinite(start)) continue;
    if (chapters.length && start <= chapters[chapters.length - 1].start) continue;
    chapters.push({ start, title: match[2] });
  }
  return chapters.length >= 2 && chapters[0].start === 0 ? chapters : [];
}

/** Chapters among ytInitialData's player markers (chapterRenderer: title, timeRangeStartMillis). */
export function chaptersFromInitialData(data: Json | null): VideoChapter[] {
  if (!data) return [];
  const found: VideoChapter[] = [];
  const seen = new Set<unknown>();
  const walk = (value: unknown, depth: number) => {
    if (!value || typeof value !== 'object' || depth > 40 || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) return value.forEach((v) => walk(v, depth + 1));
    const o = value as Json;
    if (o.chapterRenderer) {
      const c = obj(o.chapterRenderer);
      const title = str(obj(c.title).simpleText);
      const start = Number(c.timeRangeStartMillis);
      if (title && Number.isFinite(start)) found.push({ start: start / 1000, title });
      return;
    }
    for (const v of Object.values(o)) walk(v, depth + 1);
  };
  walk(data, 0);
  return found.sort((a, b) => a.start - b.start);
}

// --- The whole reading ---

export interface VideoReadOptions {
  /** The app's language ('en', 'zh', 'zh-Hant'…): the caption track is chosen for it. */
  language: string;
  /** The tab's fetch (the page's own origin, in the tab). */
  fetch: (url: string) => Promise<{ ok: boolean; text(): Promise<string> }>;
}

async function fetchJson(options: VideoReadOptions, url: string): Promise<unknown> {
  try {
    const answer = await options.fetch(url);
    if (!answer.ok) return null;
    const text = await answer.text();
    return text.trim() ? JSON.parse(text) : null;
  } catch {
    // No proof-of-origin token, a blocked address, not JSON: the next layer reads instead.
    return null;
  }
}

const MAX_DESCRIPTION = 5000;

/** A YouTube watch page (the player's data must be in it), or null. */
async function readYoutube(doc: Document, options: VideoReadOptions): Promise<VideoReading | null> {
  const player = youtubePlayerResponse(doc);
  const details = obj(player?.videoDetails);
  if (!player || !str(details.videoId)) return null;
  const description = str(details.shortDescription).slice(0, MAX_DESCRIPTION);
  const live = details.isLive === true || (details.isLiveContent === true && Number(details.lengthSeconds || 0) === 0);
  const fromMarkers = chaptersFromInitialData(youtubeInitialData(doc));
  const base = {
    kind: 'video' as const,
    platform: 'youtube' as const,
    title: str(details.title) || doc.title.replace(/\s*-\s*YouTube\s*$/, ''),
    url: doc.URL,
    durationSeconds: Number(details.lengthSeconds) || 0,
    chapters: fromMarkers.length ? fromMarkers : chaptersFromDescription(description),
    description,
    live,
  };
  if (live) return { ...base, language: '', source: 'description', segments: [], note: 'live' };
  const panel = readTranscriptPanel(doc);
  if (panel.length) return { ...base, language: '', source: 'panel', segments: panel, note: '' };
  const track = chooseTrack(captionTracksOf(player), options.language);
  if (track) {
    const segments = json3Segments(await fetchJson(options, json3Url(track.baseUrl, doc.URL)));
    if (segments.length) return { ...base, language: track.languageCode, source: 'captions', segments, note: isAuto(track) ? 'auto' : '' };
  }
  return { ...base, language: '', source: 'description', segments: [], note: track ? 'captionsUnavailable' : 'noCaptions' };
}

/** A Bilibili video page (its __INITIAL_STATE__ must carry videoData), or null. */
async function readBilibili(doc: Document, options: VideoReadOptions): Promise<VideoReading | null> {
  const state = bilibiliState(doc);
  const video = obj(state?.videoData);
  if (!state || !(str(video.bvid) || str(video.cid))) return null;
  const description = str(video.desc).slice(0, MAX_DESCRIPTION);
  const base = {
    kind: 'video' as const,
    platform: 'bilibili' as const,
    title: str(video.title) || doc.title.replace(/_哔哩哔哩_bilibili\s*$/, ''),
    url: doc.URL,
    durationSeconds: Number(video.duration) || 0,
    chapters: chaptersFromDescription(description),
    description,
    live: false,
  };
  const subtitles = arr(obj(video.subtitle).list).flatMap((raw) => {
    const s = obj(raw);
    const url = str(s.subtitle_url);
    return url ? [{ languageCode: str(s.lan), url, kind: /^ai-/i.test(str(s.lan)) ? 'asr' : undefined }] : [];
  });
  const track = chooseTrack(subtitles, options.language);
  if (track) {
    const address = new URL(track.url, doc.URL);
    // Bilibili gives protocol-relative addresses on an http CDN; the page is https.
    if (address.protocol === 'http:' && new URL(doc.URL).protocol === 'https:') address.protocol = 'https:';
    const segments = bilibiliSubtitleSegments(await fetchJson(options, address.href));
    if (segments.length) return { ...base, language: track.languageCode, source: 'captions', segments, note: isAuto(track) ? 'auto' : '' };
  }
  return { ...base, language: '', source: 'description', segments: [], note: track ? 'captionsUnavailable' : 'noCaptions' };
}

/**
 * Reads the video of a watch page in the tab: its transcript (the open panel, else the chosen
 * caption track), else its description and chapters with a note. Null for any page that is not a
 * YouTube or Bilibili watch page by its address AND by the player data in it.
 */
export async function readVideoPage(doc: Document, options: VideoReadOptions): Promise<VideoReading | null> {
  const platform = videoPlatformOf(doc.URL);
  if (platform === 'youtube') return readYoutube(doc, options);
  if (platform === 'bilibili') return readBilibili(doc, options);
  return null;
}

// --- For the model ---

const PLATFORM_NAMES: Record<VideoPlatform, string> = { youtube: 'YouTube', bilibili: 'Bilibili' };

/** What the model is told when there is no transcript (in English: the model's instructions are). */
const NOTES: Record<string, string> = {
  live: 'This is a live stream: there is no transcript while it is live. Only the description is available; say so to the user.',
  noCaptions: 'No transcript available: the video has no captions. Only the description and chapters are available; say so to the user and do not invent what is said in the video.',
  captionsUnavailable:
    'No transcript available: the captions could not be read in the tab. Only the description and chapters are available; say so to the user and do not invent what is said in the video.',
  auto: 'The transcript is auto-generated (speech recognition) and may contain mistakes.',
};

/** Most transcript characters kept in the tab's answer (the server cuts to the model's budget). */
const MAX_TRANSCRIPT_CHARS = 900_000;

/**
 * The reading as Markdown for the model: a header, the instruction to cite `[mm:ss]`, chapters,
 * the description, and one `[mm:ss] text` line per segment.
 */
export function videoMarkdown(video: VideoReading): string {
  const lines: string[] = [`# Video: ${video.title}`, ''];
  const facts = [`Platform: ${PLATFORM_NAMES[video.platform]}`, `Address: ${video.url}`];
  if (video.durationSeconds) facts.push(`Duration: ${formatTimestamp(video.durationSeconds)}`);
  if (video.live) facts.push('Live stream');
  const source = { panel: "the page's transcript panel", captions: `captions (${video.language})`, description: 'none' }[video.source];
  facts.push(`Transcript: ${source}`);
  lines.push(facts.join(' · '), '');
  if (video.note && NOTES[video.note]) lines.push(`Note: ${NOTES[video.note]}`, '');
  if (video.segments.length) {
    lines.push(
      'When you refer to a moment of this video, cite its timestamp exactly as the transcript lines below give it, in square brackets: [mm:ss] (or [h:mm:ss] past an hour).',
      '',
    );
  }
  if (video.chapters.length) {
    lines.push('## Chapters', '', ...video.chapters.map((c) => `- [${formatTimestamp(c.start)}] ${c.title}`), '');
  }
  if (video.description.trim()) lines.push('## Description', '', video.description.trim(), '');
  if (video.segments.length) {
    lines.push(TRANSCRIPT_HEADING, '');
    let size = 0;
    for (const s of video.segments) {
      const line = `[${formatTimestamp(s.start)}] ${s.text}`;
      size += line.length + 1;
      if (size > MAX_TRANSCRIPT_CHARS) break;
      lines.push(line);
    }
  }
  return lines.join('\n').trim();
}
