import { describe, expect, it } from 'vitest';
import { embeddingOrigin, redirectTarget, trustedOrigin } from '../../../components/login/login-target.ts';

const own = 'https://chat.example.com';
const ext = 'chrome-extension://hhnidkcejghlkbldejpjheplacdjkpkf';

describe('trustedOrigin', () => {
  it('accepts its own origin and extension pages, as exact origins', () => {
    expect(trustedOrigin(`${own}/pricing?x=1`, own)).toBe(own);
    expect(trustedOrigin(own, own)).toBe(own);
    expect(trustedOrigin(`${ext}/sidepanel.html#/`, own)).toBe(ext);
    expect(trustedOrigin(ext, own)).toBe(ext);
  });

  it('refuses everything else', () => {
    for (const candidate of [
      'https://evil.example',
      'http://chat.example.com', // another scheme is another origin
      'https://chat.example.com.evil.example',
      'https://chat.example.com:8443',
      'javascript:alert(1)',
      'data:text/html,hi',
      'moz-extension://abc',
      'chrome-extension://',
      'null',
      '',
      null,
      undefined,
    ]) {
      expect(trustedOrigin(candidate, own), String(candidate)).toBeNull();
    }
  });
});

describe('embeddingOrigin', () => {
  it('prefers ancestorOrigins[0], then the referrer', () => {
    expect(embeddingOrigin({ ancestorOrigins: [ext, own], referrer: 'https://evil.example/' })).toBe(ext);
    expect(embeddingOrigin({ ancestorOrigins: [], referrer: `${own}/a` })).toBe(`${own}/a`);
    expect(embeddingOrigin({ referrer: '' })).toBeNull();
  });
});

describe('redirectTarget', () => {
  const page = (callback?: string) => `${own}/login${callback === undefined ? '' : `?callback=${encodeURIComponent(callback)}`}`;

  it('goes to the web app root without a callback', () => {
    expect(redirectTarget(page(), 'k 1')).toBe(`${own}/?tempKey=k+1`);
  });

  it('adds tempKey to a trusted callback, keeping path, parameters and hash, and replacing older credentials', () => {
    expect(redirectTarget(page(`${own}/pricing?plan=year&tempkey=old&token=t#top`), 'k1')).toBe(`${own}/pricing?plan=year&tempKey=k1#top`);
    expect(redirectTarget(page('/guide?a=1'), 'k1')).toBe(`${own}/guide?a=1&tempKey=k1`);
    expect(redirectTarget(page(`${ext}/app.html#/pricing`), 'k1')).toBe(`${ext}/app.html?tempKey=k1#/pricing`);
  });

  it('ignores a callback to another site or scheme', () => {
    for (const callback of ['https://evil.example/x', '//evil.example/x', 'javascript:alert(1)', 'http://[bad']) {
      expect(redirectTarget(page(callback), 'k1'), callback).toBe(`${own}/?tempKey=k1`);
    }
  });
});
