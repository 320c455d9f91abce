import { describe, expect, it } from 'vitest';
import { embeddingOrigin, planRedirect, trustedOrigin, withTempKey } from '../../../components/login/login-target.ts';

const own = 'https://chat.example.com';
const ext = 'chrome-extension://hhnidkcejghlkbldejpjheplacdjkpkf';
const allowed = ['hhnidkcejghlkbldejpjheplacdjkpkf'];
/** Another installed extension: a valid id the server does not list. */
const other = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';

describe('trustedOrigin', () => {
  it('accepts its own origin and the listed extensions, as exact origins', () => {
    expect(trustedOrigin(`${own}/pricing?x=1`, own, allowed)).toBe(own);
    expect(trustedOrigin(own, own, allowed)).toBe(own);
    expect(trustedOrigin(`${ext}/sidepanel.html#/`, own, allowed)).toBe(ext);
    expect(trustedOrigin(ext, own, allowed)).toBe(ext);
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
      other,
      `${other}/callback.html`,
      'chrome-extension://',
      'null',
      '',
      null,
      undefined,
    ]) {
      expect(trustedOrigin(candidate, own, allowed), String(candidate)).toBeNull();
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

describe('planRedirect and withTempKey', () => {
  const page = (callback?: string) => `${own}/login${callback === undefined ? '' : `?callback=${encodeURIComponent(callback)}`}`;
  const target = (callback: string | undefined, key: string, state: string | null = null) => {
    const plan = planRedirect(page(callback), allowed);
    return plan && withTempKey(plan.target, key, state);
  };

  it('goes to the web app root without a callback', () => {
    expect(planRedirect(page(), allowed)).toEqual({ target: `${own}/`, sameOrigin: true });
    expect(target(undefined, 'k 1')).toBe(`${own}/?tempKey=k+1`);
  });

  it('adds tempKey (and the state) to a trusted callback, keeping path, parameters and hash, and replacing older credentials', () => {
    expect(target(`${own}/pricing?plan=year&tempkey=old&token=t&state=x#top`, 'k1', 's1')).toBe(`${own}/pricing?plan=year&tempKey=k1&state=s1#top`);
    expect(target('/guide?a=1', 'k1')).toBe(`${own}/guide?a=1&tempKey=k1`);
    expect(target(`${ext}/app.html#/pricing`, 'k1', 's2')).toBe(`${ext}/app.html?tempKey=k1&state=s2#/pricing`);
    expect(planRedirect(page(`${ext}/app.html`), allowed)?.sameOrigin).toBe(false);
  });

  it('plans nothing for a callback to another site, scheme or extension', () => {
    for (const callback of ['https://evil.example/x', '//evil.example/x', 'javascript:alert(1)', 'http://[bad', `${other}/callback.html`]) {
      expect(planRedirect(page(callback), allowed), callback).toBeNull();
    }
    expect(planRedirect(page(`${ext}/app.html`), []), 'an empty list trusts no extension').toBeNull();
  });
});
