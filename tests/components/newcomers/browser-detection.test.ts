import { describe, expect, it } from 'vitest';
import { detectBrowser, packageOrder } from '../../../shared/platform/browser.ts';

const UA = {
  chrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  chromeIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.51',
  edgeAndroid: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  firefoxIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15',
  safari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  safariIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  opera: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
  samsung: 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  headless: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  curl: 'curl/8.5.0',
};

describe('browser detection', () => {
  it.each([
    ['chrome', 'chrome'],
    ['chromeIos', 'chrome'],
    ['edge', 'edge'],
    ['edgeAndroid', 'edge'],
    ['firefox', 'firefox'],
    ['firefoxIos', 'firefox'],
    ['safari', 'safari'],
    ['safariIos', 'safari'],
    ['opera', 'unknown'],
    ['samsung', 'unknown'],
    ['headless', 'chrome'],
    ['curl', 'unknown'],
  ] as const)('%s is %s', (name, expected) => {
    expect(detectBrowser(UA[name])).toBe(expected);
  });

  it('believes the client hints first (Edge can send a plain Chrome user agent)', () => {
    expect(detectBrowser(UA.chrome, [{ brand: 'Not A(Brand' }, { brand: 'Microsoft Edge' }, { brand: 'Chromium' }])).toBe('edge');
    expect(detectBrowser(UA.chrome, [{ brand: 'Google Chrome' }, { brand: 'Chromium' }])).toBe('chrome');
    expect(detectBrowser(UA.chrome, [{ brand: 'Opera' }, { brand: 'Chromium' }])).toBe('unknown');
    // Brands that name no browser we know leave it to the user agent.
    expect(detectBrowser(UA.firefox, [])).toBe('firefox');
  });

  it('offers the detected browser first, else Chrome', () => {
    expect(packageOrder('edge')[0]).toBe('edge');
    expect(packageOrder('firefox')[0]).toBe('firefox');
    expect(packageOrder('chrome')[0]).toBe('chrome');
    expect(packageOrder('safari')).toEqual(['chrome', 'edge', 'firefox']);
    expect(packageOrder('unknown')).toEqual(['chrome', 'edge', 'firefox']);
  });
});
