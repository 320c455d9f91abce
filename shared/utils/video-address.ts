/**
 * Video watch-page addresses (YouTube, Bilibili): a module of its own, small, for the side panel's
 * entry (which shows "Summarise this video" and seeks timestamps); the reading itself is in
 * video-transcript.ts, loaded by the tab reader.
 */

export type VideoPlatform = 'youtube' | 'bilibili';

/**
 * The heading of the transcript in the Markdown a video is attached as (videoMarkdown): one
 * `[mm:ss] text` line per segment follows it. The server finds a video's transcript by it
 * (server/services/media/video-parts.ts).
 */
export const TRANSCRIPT_HEADING = '## Transcript';

const YOUTUBE_HOSTS = /^(?:www\.|m\.|music\.)?youtube\.com$/i;
const BILIBILI_HOSTS = /^(?:www\.|m\.)?bilibili\.com$/i;
/** The test pages are served on loopback; the page's own player data must be there too (readVideoPage). */
const LOOPBACK_HOSTS = /^(?:127\.0\.0\.1|localhost|\[::1\])$/i;

/**
 * Which video site's watch page `url` is, by its host and path: youtube.com/watch?v=, youtu.be/ID,
 * m.youtube.com, youtube.com/live/ID, bilibili.com/video/BV…. A loopback address with such a path
 * counts too (saved copies served for tests); other hosts never.
 */
export function videoPlatformOf(url: string): VideoPlatform | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const host = parsed.hostname;
  const loopback = LOOPBACK_HOSTS.test(host);
  const youtubePath = (parsed.pathname === '/watch' && !!parsed.searchParams.get('v')) || /^\/(?:live|shorts)\/[\w-]+/.test(parsed.pathname);
  if ((YOUTUBE_HOSTS.test(host) || loopback) && youtubePath) return 'youtube';
  if (/^youtu\.be$/i.test(host) && /^\/[\w-]{6,}/.test(parsed.pathname)) return 'youtube';
  if ((BILIBILI_HOSTS.test(host) || loopback) && /^\/video\/(?:BV[\w]+|av\d+)/i.test(parsed.pathname)) return 'bilibili';
  return null;
}

/** The video's address at `seconds` (YouTube's t=Ns; Bilibili's t=N). */
export function videoUrlAt(url: string, seconds: number): string {
  try {
    const parsed = new URL(url);
    parsed.searchParams.set('t', videoPlatformOf(url) === 'bilibili' ? String(Math.floor(seconds)) : `${Math.floor(seconds)}s`);
    return parsed.href;
  } catch {
    return url;
  }
}

/** Whether two addresses show the same video (same site and id; the time and other parameters aside). */
export function sameVideo(a: string, b: string): boolean {
  const id = (url: string) => {
    try {
      const parsed = new URL(url);
      const platform = videoPlatformOf(url);
      if (!platform) return null;
      const path = parsed.pathname.replace(/\/+$/, '');
      const key = platform === 'youtube' && parsed.pathname === '/watch' ? parsed.searchParams.get('v') : path.split('/').filter(Boolean).at(-1);
      return `${parsed.host}|${platform}|${key}`;
    } catch {
      return null;
    }
  };
  const left = id(a);
  return left !== null && left === id(b);
}
