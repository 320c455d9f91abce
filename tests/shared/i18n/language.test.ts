import { beforeEach, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { browserLanguages, detectLanguage, languagePersisted } from '../../../shared/i18n/language.ts';
import { currentLanguage, initI18n, setLanguage } from '../../../shared/i18n/i18n.ts';
import { installStorage, writePersisted } from '../../../shared/storage/active.ts';
import { encodePersisted } from '../../../shared/storage/persisted.ts';
import { createWebStorage } from '../../../shared/storage/web.ts';

describe('detectLanguage', () => {
  it('is Chinese when any browser language contains zh, else English', () => {
    expect(detectLanguage(['en-US', 'zh-CN'])).toBe('zh');
    expect(detectLanguage(['ZH-tw'])).toBe('zh');
    expect(detectLanguage(['zh'])).toBe('zh');
    expect(detectLanguage(['en-US', 'fr-FR'])).toBe('en');
    expect(detectLanguage(['ja'])).toBe('en');
    expect(detectLanguage([])).toBe('en');
  });

  it('falls back to navigator.language when the list is empty', () => {
    expect(browserLanguages({ languages: [], language: 'zh-HK' })).toEqual(['zh-HK']);
    expect(browserLanguages({ languages: ['en', 'zh'], language: 'en' })).toEqual(['en', 'zh']);
  });
});

describe('i18n', () => {
  beforeEach(() => {
    localStorage.clear();
    installStorage(createWebStorage());
  });

  it('starts in the browser language when none was chosen, and in the stored choice otherwise', async () => {
    await initI18n(['zh-CN', 'en']);
    expect(currentLanguage()).toBe('zh');
    expect(i18next.t('chat.notLoginTip')).toBe('请登录');

    await writePersisted(languagePersisted, 'en');
    installStorage(createWebStorage());
    await initI18n(['zh-CN']);
    expect(currentLanguage()).toBe('en');
    expect(i18next.t('chat.notLoginTip')).toBe('Please Login');
  });

  it('stores a change, and follows a change made in another tab', async () => {
    await initI18n(['en-US']);
    await setLanguage('zh');
    expect(i18next.t('chat.sider.conversationNameRequire')).toBe('请输入对话名称');
    expect(JSON.parse(localStorage.getItem(languagePersisted.key)!)).toEqual({ v: 1, value: 'zh' });

    const text = JSON.stringify(encodePersisted(languagePersisted, 'en'));
    localStorage.setItem(languagePersisted.key, text);
    window.dispatchEvent(new StorageEvent('storage', { key: languagePersisted.key, newValue: text, storageArea: localStorage }));
    await expect.poll(() => currentLanguage()).toBe('en');
  });

  it('ignores a stored language that is not one of ours', async () => {
    localStorage.setItem(languagePersisted.key, JSON.stringify({ v: 1, value: 'fr' }));
    await initI18n(['zh-CN']);
    expect(currentLanguage()).toBe('zh');
  });
});

describe('locales', () => {
  // Read from the files: i18next merges the features' strings into the bundle it was given, the imported module.
  const file = (name: string): object => JSON.parse(readFileSync(join(import.meta.dirname, '../../../locales', name), 'utf8'));
  const en = file('en.json');
  const zh = file('zh.json');
  const keys = (tree: object, prefix = ''): string[] =>
    Object.entries(tree).flatMap(([k, v]) => (typeof v === 'object' && v !== null ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));

  it('have the same keys in English and Chinese, none empty', () => {
    expect(keys(zh).sort()).toEqual(keys(en).sort());
    for (const key of keys(en)) {
      expect(i18next.t(key, { lng: 'en' }), key).not.toBe('');
      expect(i18next.t(key, { lng: 'zh' }), key).not.toBe(i18next.t(key, { lng: 'en' }));
    }
  });

  it('carry the product messages', () => {
    const t = (key: string) => i18next.t(key, { lng: 'en' });
    expect(t('chat.notLoginTip')).toBe('Please Login');
    expect(t('request.notFound')).toBe('request not found');
    expect(t('request.networkError')).toBe('network error');
    expect(t('chat.modelBusy')).toBe('This model is busy now. Please try again later');
    expect(t('login.succeeded')).toBe('login succeeded');
    expect(t('login.failed')).toBe('login failed, please retry later');
    for (const k of ['deleteConversationError', 'renameConversationError', 'deleteConversationSuccess', 'renameConversationSuccess', 'conversationNameRequire']) {
      expect(i18next.exists(`chat.sider.${k}`, { lng: 'zh' }), k).toBe(true);
    }
  });
});
