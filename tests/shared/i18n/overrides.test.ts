import i18next, { type i18n } from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LanguageOverrides } from '../../../shared/contracts/translations.ts';
import { initI18n, setLanguage } from '../../../shared/i18n/i18n.ts';
import {
  createReadPool,
  OVERRIDE_FIRST_DELAY_MS,
  OVERRIDE_PARALLEL_READS,
  OVERRIDE_RETRIES,
  overridesPersisted,
  startTranslationOverrides,
  withRetries,
} from '../../../shared/i18n/overrides.ts';
import { installStorage, loadPersisted } from '../../../shared/storage/active.ts';
import { createWebStorage } from '../../../shared/storage/web.ts';

/** An i18next of its own with a few built-in strings, as the app starts (English and Chinese loaded). */
async function builtIn(): Promise<i18n> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: 'en',
    fallbackLng: 'en',
    resources: {
      en: { translation: { chat: { notLoginTip: 'Please Login', greet: 'Hello {{name}}' } } },
      zh: { translation: { chat: { notLoginTip: '请登录', greet: '你好 {{name}}' } } },
    },
    interpolation: { escapeValue: false },
  });
  return instance;
}

const answer = (language: 'en' | 'zh', strings: Record<string, string> | null, version = 'v1'): LanguageOverrides => ({ language, version, strings });

beforeEach(() => {
  localStorage.clear();
  installStorage(createWebStorage());
});
afterEach(() => {
  vi.useRealTimers();
});

describe('translation overrides', () => {
  it('shows the built-in strings first, then the fetched overrides over them, and stores them', async () => {
    const instance = await builtIn();
    let release!: (value: LanguageOverrides) => void;
    const fetched = new Promise<LanguageOverrides>((resolve) => (release = resolve));
    const overrides = startTranslationOverrides(instance, () => fetched);
    const loading = overrides.load('en');
    // No wait before the first render: the built-in string is there while the read is under way.
    expect(instance.t('chat.notLoginTip')).toBe('Please Login');
    const rendered = vi.fn();
    instance.on('languageChanged', rendered);
    release(answer('en', { 'chat.notLoginTip': 'Please sign in', 'chat.greet': 'Hi {{name}}!' }));
    await loading;
    expect(instance.t('chat.notLoginTip')).toBe('Please sign in');
    expect(instance.t('chat.greet', { name: 'Ann' })).toBe('Hi Ann!');
    expect(rendered).toHaveBeenCalledWith('en');
    // Chinese keeps its own built-in strings.
    expect(instance.t('chat.notLoginTip', { lng: 'zh' })).toBe('请登录');
    expect(await loadPersisted(overridesPersisted)).toEqual({ en: { version: 'v1', strings: { 'chat.notLoginTip': 'Please sign in', 'chat.greet': 'Hi {{name}}!' } } });
  });

  it('offline: applies the stored overrides at once and keeps them when every read fails', async () => {
    vi.useFakeTimers();
    const instance = await builtIn();
    const fetchOverrides = vi.fn(() => Promise.reject(new Error('offline')));
    const overrides = startTranslationOverrides(instance, fetchOverrides, { zh: { version: 'v0', strings: { 'chat.notLoginTip': '请先登录' } } });
    expect(instance.t('chat.notLoginTip', { lng: 'zh' })).toBe('请先登录');
    const done = overrides.load('zh');
    await vi.runAllTimersAsync();
    await done;
    expect(fetchOverrides).toHaveBeenCalledTimes(1 + OVERRIDE_RETRIES);
    // It said which version it held.
    expect(fetchOverrides).toHaveBeenCalledWith('zh', 'v0');
    expect(instance.t('chat.notLoginTip', { lng: 'zh' })).toBe('请先登录');
  });

  it('brings the built-in string back when an override is removed, and keeps what it holds when the version is current', async () => {
    const instance = await builtIn();
    const overrides = startTranslationOverrides(instance, () => Promise.resolve(answer('en', { 'chat.greet': 'Yo {{name}}' }, 'v2')), {
      en: { version: 'v1', strings: { 'chat.notLoginTip': 'Sign in, please' } },
    });
    expect(instance.t('chat.notLoginTip')).toBe('Sign in, please');
    await overrides.load('en');
    expect(instance.t('chat.notLoginTip')).toBe('Please Login');
    expect(instance.t('chat.greet', { name: 'Bo' })).toBe('Yo Bo');

    const again = await builtIn();
    const current = startTranslationOverrides(again, () => Promise.resolve(answer('en', null, 'v1')), { en: { version: 'v1', strings: { 'chat.notLoginTip': 'Sign in, please' } } });
    await current.load('en');
    expect(again.t('chat.notLoginTip')).toBe('Sign in, please');
  });

  it('gives a feature its override when its strings arrive later', async () => {
    const instance = await builtIn();
    const overrides = startTranslationOverrides(instance, () => Promise.resolve(answer('en', { 'invite.title': 'Bring a friend' })));
    await overrides.load('en');
    instance.addResourceBundle('en', 'translation', { invite: { title: 'Invite friends' } }, true, false);
    expect(instance.t('invite.title')).toBe('Bring a friend');
  });

  it('retries a failed read 5 times, 350 ms after the first failure and twice as long after each next one', async () => {
    vi.useFakeTimers();
    const attempts: number[] = [];
    const start = Date.now();
    const read = vi.fn(() => {
      attempts.push(Date.now() - start);
      return attempts.length < 4 ? Promise.reject(new Error('down')) : Promise.resolve('ok');
    });
    const result = withRetries(read);
    await vi.runAllTimersAsync();
    await expect(result).resolves.toBe('ok');
    expect(attempts).toEqual([0, 350, 350 + 700, 350 + 700 + 1400]);
    expect(OVERRIDE_FIRST_DELAY_MS).toBe(350);

    const never = vi.fn(() => Promise.reject(new Error('down')));
    const failing = withRetries(never);
    failing.catch(() => undefined);
    await vi.runAllTimersAsync();
    await expect(failing).rejects.toThrow('down');
    expect(never).toHaveBeenCalledTimes(6);

    // An answer that will not change is not asked again.
    const final = vi.fn(() => Promise.reject(Object.assign(new Error('no route'), { final: true })));
    await expect(withRetries(final)).rejects.toThrow('no route');
    expect(final).toHaveBeenCalledTimes(1);
  });

  it('reads at most 10 at once', async () => {
    expect(OVERRIDE_PARALLEL_READS).toBe(10);
    const pool = createReadPool(OVERRIDE_PARALLEL_READS);
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const tasks = Array.from({ length: 25 }, () =>
      pool(() => {
        running++;
        most = Math.max(most, running);
        return new Promise<void>((resolve) => releases.push(resolve)).finally(() => running--);
      }),
    );
    expect(releases).toHaveLength(10);
    while (releases.length) {
      releases.shift()!();
      // The next read starts once the released one has settled.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await Promise.all(tasks);
    expect(most).toBe(10);
  });
});

describe('missing strings', () => {
  it('fall back to English, and never show the key', async () => {
    await initI18n(['zh']);
    await setLanguage('zh');
    i18next.addResourceBundle('en', 'translation', { onlyInEnglish: { text: 'English only' } }, true, false);
    expect(i18next.t('onlyInEnglish.text')).toBe('English only');
    expect(i18next.t('no.such.key')).toBe('');
    expect(i18next.t('no.such.key', 'A default')).toBe('A default');
    await setLanguage('en');
  });
});
