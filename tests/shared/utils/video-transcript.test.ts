import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTabDocument } from '../../../shared/utils/read-document.ts';
import { READER_LANGUAGE_KEY } from '../../../shared/utils/reader-language.ts';
import {
  captionTracksOf,
  chaptersFromDescription,
  chooseTrack,
  formatTimestamp,
  json3Segments,
  parseTimestamp,
  readTranscriptPanel,
  readVideoPage,
  sameVideo,
  videoMarkdown,
  videoPlatformOf,
  videoUrlAt,
  youtubePlayerResponse,
  type VideoReading,
} from '../../../shared/utils/video-transcript.ts';
import { startVideoSite, type VideoSite } from '../../fixtures/videos/serve.ts';

/**
 * The video layers of the tab reader on saved-copy-style watch pages served on loopback (the caption
 * tracks' addresses point at the same server, as YouTube's point at the page's own origin).
 */
let site: VideoSite;
beforeAll(async () => {
  site = await startVideoSite();
});
afterAll(() => site.close());

/** The page at `path` as the tab would have it: parsed, with its own address. */
async function load(path: string): Promise<Document> {
  const url = `${site.origin}${path}`;
  const html = await (await fetch(url)).text();
  const doc = new DOMParser().parseFromString(html, 'text/html');
  Object.defineProperty(doc, 'URL', { value: url });
  return doc;
}

const read = async (path: string, language = 'en') => (await readVideoPage(await load(path), { language, fetch: (url) => fetch(url) }))!;

describe('watch page detection', () => {
  it('knows YouTube and Bilibili watch addresses, and loopback copies, but no other site', () => {
    expect(videoPlatformOf('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toBe('youtube');
    expect(videoPlatformOf('https://m.youtube.com/watch?v=dQw4w9WgXcQ&t=3')).toBe('youtube');
    expect(videoPlatformOf('https://youtu.be/dQw4w9WgXcQ')).toBe('youtube');
    expect(videoPlatformOf('https://www.bilibili.com/video/BV1GJ411x7h7/')).toBe('bilibili');
    expect(videoPlatformOf('http://127.0.0.1:4000/watch?v=otter01')).toBe('youtube');
    expect(videoPlatformOf('https://www.youtube.com/')).toBeNull();
    expect(videoPlatformOf('https://www.youtube.com/results?search_query=otters')).toBeNull();
    expect(videoPlatformOf('https://example.com/watch?v=otter01')).toBeNull();
    expect(videoPlatformOf('https://evil-youtube.com/watch?v=otter01')).toBeNull();
    expect(videoPlatformOf('https://example.com/video/BV1GJ411x7h7')).toBeNull();
  });

  it('reads other pages as before, even on a loopback /watch address without player data', async () => {
    const doc = new DOMParser().parseFromString('<html><head><title>Watch list</title></head><body><article><h1>Watch list</h1><p>My films to watch this winter, one per week.</p></article></body></html>', 'text/html');
    Object.defineProperty(doc, 'URL', { value: `${site.origin}/watch?v=nothing` });
    expect(await readVideoPage(doc, { language: 'en', fetch })).toBeNull();
    const page = await readTabDocument(doc);
    expect(page.video).toBeUndefined();
    expect(page.markdown).toContain('My films to watch this winter');
  });

  it('compares videos by id and adds the time to the address', () => {
    expect(sameVideo('https://www.youtube.com/watch?v=abc123&t=5s', 'https://www.youtube.com/watch?v=abc123')).toBe(true);
    expect(sameVideo('https://www.youtube.com/watch?v=abc123', 'https://www.youtube.com/watch?v=zzz999')).toBe(false);
    expect(videoUrlAt('https://www.youtube.com/watch?v=abc123', 65)).toBe('https://www.youtube.com/watch?v=abc123&t=65s');
    expect(videoUrlAt('https://www.bilibili.com/video/BV1GJ411x7h7/', 65)).toBe('https://www.bilibili.com/video/BV1GJ411x7h7/?t=65');
  });
});

describe('timestamps', () => {
  it('parses and formats [mm:ss] and [h:mm:ss]', () => {
    expect(parseTimestamp('1:05')).toBe(65);
    expect(parseTimestamp(' 01:02:03 ')).toBe(3723);
    expect(parseTimestamp('1:75')).toBeNaN();
    expect(formatTimestamp(65)).toBe('01:05');
    expect(formatTimestamp(3723.4)).toBe('1:02:03');
  });

  it('finds chapters in a description only as YouTube does: from 0:00, at least two, in order', () => {
    expect(chaptersFromDescription('Intro text\n0:00 Intro\n1:05 - Choosing a stone\n2:30 Opening a clam')).toEqual([
      { start: 0, title: 'Intro' },
      { start: 65, title: 'Choosing a stone' },
      { start: 150, title: 'Opening a clam' },
    ]);
    expect(chaptersFromDescription('See 1:05 for the stone')).toEqual([]);
    expect(chaptersFromDescription('1:05 one\n2:00 two')).toEqual([]);
  });
});

describe('caption language choice', () => {
  const tracks = [
    { languageCode: 'en', kind: undefined },
    { languageCode: 'zh-Hant', kind: undefined },
    { languageCode: 'zh-Hans', kind: undefined },
    { languageCode: 'fr', kind: 'asr' },
  ];
  it("takes the app's language, Simplified for zh and Traditional for zh-Hant / zh-TW", () => {
    expect(chooseTrack(tracks, 'en')?.languageCode).toBe('en');
    expect(chooseTrack(tracks, 'en-GB')?.languageCode).toBe('en');
    expect(chooseTrack(tracks, 'zh')?.languageCode).toBe('zh-Hans');
    expect(chooseTrack(tracks, 'zh-CN')?.languageCode).toBe('zh-Hans');
    expect(chooseTrack(tracks, 'zh-TW')?.languageCode).toBe('zh-Hant');
    expect(chooseTrack([{ languageCode: 'zh-TW' }, { languageCode: 'zh-CN' }], 'zh')?.languageCode).toBe('zh-CN');
    // Traditional is still Chinese: better than another language for a Simplified reader.
    expect(chooseTrack([{ languageCode: 'en' }, { languageCode: 'zh-TW' }], 'zh')?.languageCode).toBe('zh-TW');
  });
  it('prefers a manual track to an auto-generated one in the same language', () => {
    expect(chooseTrack([{ languageCode: 'en', kind: 'asr' }, { languageCode: 'en' }], 'en')).toEqual({ languageCode: 'en' });
    expect(chooseTrack([{ languageCode: 'ai-zh' }, { languageCode: 'zh-CN' }], 'zh')?.languageCode).toBe('zh-CN');
  });
  it("else the video's original language (a manual track in its auto-generated track's language), else manual, else the first", () => {
    expect(chooseTrack([{ languageCode: 'de' }, { languageCode: 'fr' }, { languageCode: 'fr', kind: 'asr' }], 'en')?.languageCode).toBe('fr');
    expect(chooseTrack([{ languageCode: 'ja', kind: 'asr' }, { languageCode: 'de' }], 'en')?.languageCode).toBe('de');
    expect(chooseTrack([{ languageCode: 'ja', kind: 'asr' }], 'en')?.languageCode).toBe('ja');
    expect(chooseTrack([], 'en')).toBeNull();
  });
});

describe('layer a: the open transcript panel', () => {
  it('reads its segments (timestamp and text), before any caption track', async () => {
    const doc = await load('/watch?v=panel06');
    expect(readTranscriptPanel(doc)).toEqual([
      { start: 0, text: 'welcome back to Field Notes' },
      { start: 12, text: 'today the transcript panel is open' },
      { start: 65, text: 'this line comes from the panel' },
    ]);
    const video = await read('/watch?v=panel06');
    expect(video.source).toBe('panel');
    expect(video.segments.map((s) => s.text)).not.toContain('this line comes from the caption track not the panel');
  });
});

describe('layer b: the caption track the player was given', () => {
  it('lists the tracks of ytInitialPlayerResponse', async () => {
    const tracks = captionTracksOf(youtubePlayerResponse(await load('/watch?v=otter01'))!);
    expect(tracks.map((t) => `${t.languageCode}${t.kind ? `/${t.kind}` : ''}`)).toEqual(['en', 'zh-Hans', 'zh-Hant', 'en/asr']);
    expect(tracks[0].name).toBe('English');
    expect(tracks[0].baseUrl.startsWith(`${site.origin}/api/timedtext?`)).toBe(true);
  });

  it('fetches the chosen track as json3 from the page and keeps its timestamps', async () => {
    const before = site.requests.length;
    const video = await read('/watch?v=otter01');
    expect(site.requests.slice(before).some((r) => r.includes('fmt=json3') && r.includes('lang=en'))).toBe(true);
    expect(video).toMatchObject({ kind: 'video', platform: 'youtube', title: 'How sea otters use tools', durationSeconds: 212, language: 'en', source: 'captions', note: '', live: false });
    expect(video.segments[0]).toEqual({ start: 0, text: 'Sea otters are one of the few mammals that use tools.' });
    expect(video.segments).toContainEqual({ start: 65, text: 'First the otter chooses a flat stone and keeps it in a pouch under its arm.' });
    // The player's chapter markers (ytInitialData).
    expect(video.chapters).toEqual([
      { start: 0, title: 'Intro' },
      { start: 65, title: 'Choosing a stone' },
      { start: 150, title: 'Opening a clam' },
    ]);
  });

  it('reads Simplified for a Chinese app and Traditional for zh-TW', async () => {
    const simplified = await read('/watch?v=otter01', 'zh');
    expect(simplified.language).toBe('zh-Hans');
    expect(simplified.segments[1].text).toContain('海獭挑选一块扁平的石头');
    const traditional = await read('/watch?v=otter01', 'zh-TW');
    expect(traditional.language).toBe('zh-Hant');
    expect(traditional.segments[1].text).toContain('海獺挑選');
  });

  it('takes an auto-generated track when it is the only one, and says so', async () => {
    const video = await read('/watch?v=kelp02');
    expect(video).toMatchObject({ source: 'captions', language: 'en', note: 'auto' });
    expect(video.segments[1]).toEqual({ start: 42, text: "there's a sea otter sleeping up there" });
    expect(videoMarkdown(video)).toContain('auto-generated');
  });
});

describe('layer c: description and chapters when there is no transcript', () => {
  it('a video without captions: description and chapters, with a clear note', async () => {
    const video = await read('/watch?v=pup03');
    expect(video).toMatchObject({ source: 'description', segments: [], note: 'noCaptions', language: '' });
    expect(video.chapters).toEqual([
      { start: 0, title: 'Intro' },
      { start: 45, title: 'Into the water' },
      { start: 190, title: 'Back to mum' },
    ]);
    const md = videoMarkdown(video);
    expect(md).toContain('No transcript available');
    expect(md).toContain('- [00:45] Into the water');
    expect(md).toContain('A pup swims for the first time.');
    expect(md).not.toContain('## Transcript');
  });

  it('a caption track that answers empty (no proof-of-origin token) falls back too', async () => {
    const video = await read('/watch?v=hold05');
    expect(video).toMatchObject({ source: 'description', note: 'captionsUnavailable' });
    expect(video.chapters.map((c) => c.title)).toEqual(['Rafting', 'Sleeping']);
    expect(videoMarkdown(video)).toContain('the captions could not be read');
  });

  it('a live stream: no transcript while live', async () => {
    const video = await read('/watch?v=live04');
    expect(video).toMatchObject({ live: true, source: 'description', note: 'live', durationSeconds: 0 });
    expect(videoMarkdown(video)).toContain('This is a live stream: there is no transcript while it is live.');
  });
});

describe('Bilibili', () => {
  it('reads __INITIAL_STATE__ and the manual Chinese subtitle over the AI one for a Chinese app', async () => {
    const video = await read('/video/BV1otter7xYz/', 'zh');
    expect(video).toMatchObject({ platform: 'bilibili', title: '海獭如何使用工具', durationSeconds: 212, language: 'zh-CN', source: 'captions', note: '' });
    expect(video.segments[1]).toEqual({ start: 65.2, text: '海獭会挑选一块扁平的石头。' });
    expect(video.chapters.map((c) => c.title)).toEqual(['开场', '挑选石头', '砸开蛤蜊']);
  });
  it('reads the English subtitle for an English app', async () => {
    const video = await read('/video/BV1otter7xYz/', 'en');
    expect(video.language).toBe('en-US');
    expect(video.segments[1].text).toBe('The otter picks a flat stone.');
  });
});

describe('Markdown for the model', () => {
  it('one [mm:ss] line per segment ([h:mm:ss] past an hour), and the instruction to cite them', () => {
    const video: VideoReading = {
      kind: 'video',
      platform: 'youtube',
      title: 'Long talk',
      url: 'https://www.youtube.com/watch?v=long',
      durationSeconds: 4000,
      language: 'en',
      source: 'captions',
      segments: [
        { start: 65, text: 'one' },
        { start: 3725, text: 'two' },
      ],
      chapters: [],
      description: '',
      live: false,
      note: '',
    };
    const md = videoMarkdown(video);
    expect(md).toContain('[01:05] one\n[1:02:05] two');
    expect(md).toContain('Duration: 1:06:40');
    expect(md).toMatch(/cite its timestamp .*\[mm:ss\]/);
  });

  it('the tab reader answers the video (language from the panel) instead of the page text', async () => {
    const doc = await load('/watch?v=otter01');
    (globalThis as Record<string, unknown>)[READER_LANGUAGE_KEY] = 'zh';
    try {
      const page = await readTabDocument(doc);
      expect(page.title).toBe('How sea otters use tools');
      expect(page.video?.language).toBe('zh-Hans');
      expect(page.markdown).toContain('[01:05] 首先，海獭挑选一块扁平的石头');
      expect(page.icon).toBe(`${site.origin}/favicon.ico`);
    } finally {
      delete (globalThis as Record<string, unknown>)[READER_LANGUAGE_KEY];
    }
  });

  it('json3 events without text are skipped', () => {
    expect(json3Segments({ events: [{ tStartMs: 0 }, { tStartMs: 1500, segs: [{ utf8: 'hi ' }, { utf8: '\nthere' }] }] })).toEqual([{ start: 1.5, text: 'hi there' }]);
  });
});
