import { afterEach, describe, expect, it, vi } from 'vitest';
import { BAR_TAG, createBar, type BarActions } from '../../../shared/utils/page-translate/bar.ts';
import { pageStringsFor } from '../../../shared/utils/page-translate/strings.ts';

/**
 * The page translator's bar in jsdom: asking first (the price and Translate, nothing else) and then
 * translating (Show original and the per-site choices). Its root is closed: the test keeps the root
 * attachShadow returns, as the page cannot. Clicks count only when trusted, which jsdom's are not:
 * the clicks themselves are in tests/e2e/page-translate.e2e.test.ts.
 */
function openBar(language: 'en' | 'zh' = 'en') {
  const attach = vi.spyOn(HTMLElement.prototype, 'attachShadow');
  const actions: BarActions = { showOriginal: vi.fn(), translate: vi.fn(), site: vi.fn(), signIn: vi.fn() };
  const bar = createBar(document, pageStringsFor(language), 'ltr', actions);
  const root = attach.mock.results[0]!.value as ShadowRoot;
  attach.mockRestore();
  const visible = () =>
    [...root.querySelectorAll<HTMLElement>('[data-action]')].filter((b) => !b.hidden && !b.closest('[hidden]')).map((b) => b.getAttribute('data-action'));
  return { bar, root, actions, visible, status: () => root.querySelector('.status')!.textContent };
}

afterEach(() => document.querySelector(BAR_TAG)?.remove());

describe('the in-page bar', () => {
  it('asks first: the price of what is on screen, Translate, "Don’t ask again" and Cancel, and no Show original', () => {
    const { bar, visible, status, root } = openBar();
    bar.ask();
    expect(status()).toBe('Translate this page?Working out the price of what is on screen…');
    bar.estimate('≈ 12 points for what is on screen');
    expect(status()).toBe('Translate this page?≈ 12 points for what is on screen');
    expect(visible()).toEqual(['translate', 'dontAsk', 'cancel', 'close']);
    expect(root.querySelector('label')!.textContent).toBe('Don’t ask again');
  });

  it('once started, offers Show original and the per-site choices', () => {
    const { bar, visible, status } = openBar();
    bar.ask();
    bar.started();
    expect(status()).toBe('Translating this page…');
    expect(visible()).toEqual(['original', 'always', 'never', 'close']);
  });

  it('a refusal while asking (signed out) leaves no Translate to click', () => {
    const { bar, visible } = openBar();
    bar.ask();
    bar.problem('Sign in to Tandem to translate this page.', true);
    expect(visible()).toEqual(['signIn', 'cancel', 'close']);
  });

  it('speaks Chinese', () => {
    const { bar, root, status } = openBar('zh');
    bar.ask();
    expect(status()).toBe('翻译此页面？正在计算屏幕上内容所需的积分…');
    expect(root.querySelector('[data-action="translate"]')!.textContent).toBe('翻译');
    expect(root.querySelector('label')!.textContent).toBe('不再询问');
  });
});
