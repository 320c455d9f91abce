import { describe, expect, it } from 'vitest';
import type { AdminTranslation, LanguageOverrides } from '../../shared/contracts/translations.ts';
import { useTestAppWithAdmin } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';

const { t, admin } = useTestAppWithAdmin({ AUTH_RATE_LIMIT: '1000' });

const KEY = 'chat.sider.deleteConfirm'; // “{{title}}” will be deleted. This cannot be undone.
const PLAIN = 'chat.notLoginTip';

const save = (body: Record<string, unknown>, lang = 'en') => api(t.app, admin).postBody<AdminTranslation>('/api/admin/Language/Save', body, { lang });
const reset = (body: Record<string, unknown>) => api(t.app, admin).postBody<AdminTranslation>('/api/admin/Language/Reset', body);
const served = async (lang: string, version?: string) => {
  const res = await api(t.app).get(`/api/Language/GetLanguage?lang=${lang}${version ? `&version=${version}` : ''}`);
  return { etag: res.headers.etag, body: res.json() as { Code: number; Data: LanguageOverrides } };
};

describe('translations: operators override built-in strings', () => {
  it('lists built-in keys with both languages, searchable, and serves nothing until an override exists', async () => {
    const list = (await api(t.app, admin).getBody(`/api/admin/Language/GetList?search=${encodeURIComponent('cannot be undone')}&count=100`)).Data;
    expect(list.list.map((x: AdminTranslation) => x.key)).toContain(KEY);
    const one = (await api(t.app, admin).getBody(`/api/admin/Language/GetByKey?key=${PLAIN}`)).Data as AdminTranslation;
    expect(one).toEqual({ key: PLAIN, builtIn: { en: 'Please Login', zh: '请登录' }, override: { en: null, zh: null }, updateTime: null });
    // Feature files count too (locales/features/*), the console's own do not.
    const features = (await api(t.app, admin).getBody('/api/admin/Language/GetList?search=errorBoundary.details')).Data;
    expect(features.total).toBeGreaterThan(0);
    expect((await api(t.app, admin).getBody('/api/admin/Language/GetByKey?key=no.such.key')).Code).toBe(10404);
    const empty = await served('zh');
    expect(empty.body.Data).toEqual({ language: 'zh', version: '0', strings: {} });
  });

  it('saves, serves with a new version and ETag, answers null strings for a current version, resets; audited', async () => {
    const before = await served('en');
    const saved = await save({ key: PLAIN, language: 'en', value: 'Please sign in' });
    expect(saved).toMatchObject({ Code: 10000, Data: { key: PLAIN, override: { en: 'Please sign in', zh: null }, builtIn: { en: 'Please Login' } } });
    const after = await served('en');
    expect(after.body.Data.strings).toMatchObject({ [PLAIN]: 'Please sign in' });
    expect(after.body.Data.version).not.toBe(before.body.Data.version);
    expect(after.etag).toBe(`"${after.body.Data.version}"`);
    // Chinese is untouched.
    expect((await served('zh')).body.Data.strings?.[PLAIN]).toBeUndefined();
    // A client holding the current version gets no strings.
    expect((await served('en', after.body.Data.version)).body.Data).toEqual({ language: 'en', version: after.body.Data.version, strings: null });

    const overridden = (await api(t.app, admin).getBody('/api/admin/Language/GetList?overridden=true')).Data;
    expect(overridden.list.map((x: AdminTranslation) => x.key)).toContain(PLAIN);

    const back = await reset({ key: PLAIN, language: 'en' });
    expect(back.Data.override.en).toBeNull();
    expect((await served('en')).body.Data.strings?.[PLAIN]).toBeUndefined();

    const log = (await api(t.app, admin).getBody('/api/admin/AuditLog/GetList?page=1&count=50&targetType=translation')).Data.list as {
      targetId: string;
      before: AdminTranslation | null;
      after: AdminTranslation | null;
    }[];
    const mine = log.filter((e) => e.targetId === PLAIN);
    expect(mine.map((e) => [e.before?.override.en ?? null, e.after?.override.en ?? null])).toEqual(
      expect.arrayContaining([
        [null, 'Please sign in'],
        ['Please sign in', null],
      ]),
    );
  });

  it('keeps the placeholders of the built-in string, and refuses unknown keys and empty values, in the caller language', async () => {
    expect((await save({ key: KEY, language: 'en', value: '“{{title}}” goes away for good.' })).Code).toBe(10000);
    expect((await save({ key: KEY, language: 'zh', value: '将删除“{{ title }}”。' })).Code).toBe(10000);
    const missing = await save({ key: KEY, language: 'en', value: 'This chat goes away.' });
    expect(missing).toMatchObject({ Code: 10400, Msg: expect.stringContaining('it has {{title}}, yours has —') });
    const renamed = await save({ key: KEY, language: 'en', value: '{{name}} goes away.' });
    expect(renamed.Msg).toContain('yours has {{name}}');
    const extra = await save({ key: PLAIN, language: 'en', value: 'Hello {{user}}' });
    expect(extra.Code).toBe(10400);
    expect((await save({ key: PLAIN, language: 'zh', value: '你好 {{user}}' }, 'zh')).Msg).toContain('译文必须保留内置字符串的占位符');
    expect((await save({ key: 'no.such.key', language: 'en', value: 'x' })).Code).toBe(10404);
    expect((await save({ key: PLAIN, language: 'en', value: '   ' })).Msg).toContain('Type the translation');
    expect((await save({ key: 'bad key!', language: 'en', value: 'x' })).Code).toBe(10400);
    // The refused ones left the stored override as it was.
    expect((await served('en')).body.Data.strings?.[KEY]).toBe('“{{title}}” goes away for good.');
  });

  it('is for operators only', async () => {
    expect((await api(t.app).getBody('/api/admin/Language/GetList')).Code).toBe(10402);
    expect((await api(t.app).postBody('/api/admin/Language/Save', { key: PLAIN, language: 'en', value: 'x' })).Code).toBe(10402);
  });
});
