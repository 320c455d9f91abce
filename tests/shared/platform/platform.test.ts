import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectPlatform, type PlatformProbe } from '../../../shared/platform/platform.ts';

const probe = (over: Partial<PlatformProbe> = {}, media: string[] = []): PlatformProbe => ({
  chrome: undefined,
  width: 1280,
  pathname: '/',
  matchMedia: (query) => ({ matches: media.some((m) => query.includes(m)) }),
  ...over,
});

describe('detectPlatform', () => {
  it('is the extension only when chrome.runtime has an id', () => {
    expect(detectPlatform(probe()).isExtension).toBe(false);
    // A normal web page has a `chrome` object without runtime.
    expect(detectPlatform(probe({ chrome: {} })).isExtension).toBe(false);
    expect(detectPlatform(probe({ chrome: { runtime: {} } })).isExtension).toBe(false);
    expect(detectPlatform(probe({ chrome: { runtime: { id: 'abc' } } }))).toMatchObject({ isExtension: true, scene: 'extension' });
  });

  it('marks widths of 768 or less as mobile web', () => {
    expect(detectPlatform(probe({ width: 768 }))).toMatchObject({ isH5: true, scene: 'h5' });
    expect(detectPlatform(probe({ width: 769 }))).toMatchObject({ isH5: false, scene: 'web' });
    // The narrow side panel is still the extension scene.
    expect(detectPlatform(probe({ width: 400, chrome: { runtime: { id: 'x' } } }))).toMatchObject({ isH5: true, scene: 'extension' });
  });

  it('counts standalone or fullscreen display as installed-app mode, except at /', () => {
    expect(detectPlatform(probe({ pathname: '/chat-1' }, ['standalone'])).standalone).toBe(true);
    expect(detectPlatform(probe({ pathname: '/setting' }, ['fullscreen'])).standalone).toBe(true);
    expect(detectPlatform(probe({ pathname: '/' }, ['standalone'])).standalone).toBe(false);
    expect(detectPlatform(probe({ pathname: '/setting' }, ['browser'])).standalone).toBe(false);
  });

  describe('on the running page', () => {
    afterEach(() => vi.unstubAllGlobals());

    it('reads the global chrome, the width and the path', () => {
      vi.stubGlobal('chrome', { runtime: { id: 'ext-id' } });
      expect(detectPlatform()).toMatchObject({ isExtension: true, scene: 'extension' });
      vi.stubGlobal('chrome', undefined);
      vi.stubGlobal('innerWidth', 500);
      expect(detectPlatform()).toMatchObject({ isExtension: false, scene: 'h5', isH5: true, standalone: false });
    });
  });
});

describe('what the web page imports', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('touches no extension API at module load, and picks web storage on a web page', async () => {
    const touched: string[] = [];
    // A web page's `chrome`: no runtime; anything else read from it counts as touching an API.
    const webChrome = new Proxy({}, {
      get: (_t, prop) => {
        if (prop === 'runtime') return undefined;
        touched.push(String(prop));
        return undefined;
      },
    });
    vi.stubGlobal('chrome', webChrome);
    vi.stubGlobal('browser', undefined);
    vi.resetModules();
    await import('../../../shared/api/request.ts');
    await import('../../../shared/api/sse.ts');
    await import('../../../shared/api/tracking.ts');
    await import('../../../shared/api/system.ts');
    await import('../../../shared/atoms/auth.ts');
    await import('../../../shared/i18n/i18n.ts');
    const { detectPlatform: detect } = await import('../../../shared/platform/platform.ts');
    const { storageFor } = await import('../../../shared/storage/for-platform.ts');
    const platform = detect();
    expect(platform.isExtension).toBe(false);
    const storage = storageFor(platform);
    await storage.set('k', 1);
    expect(localStorage.getItem('k')).toBe('1');
    expect(touched).toEqual([]);
    localStorage.clear();
  });
});
