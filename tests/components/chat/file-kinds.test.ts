import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { fileKindsInWords } from '../../../components/chat/file-kinds.ts';
import { DOCUMENT_EXTENSIONS, IMAGE_EXTENSIONS } from '../../../shared/contracts/media.ts';
import en from '../../../locales/en.json';
import zh from '../../../locales/zh.json';

/** What the paperclip and a refusal say a model reads: kinds of file in words, in the reader's language. */
describe('fileKindsInWords', () => {
  const i18n = i18next.createInstance();
  void i18n.init({ resources: { en: { translation: en }, zh: { translation: zh } }, lng: 'en' });
  const words = (accepted: readonly string[], language: 'en' | 'zh') => fileKindsInWords(accepted, i18n.getFixedT(language), language);

  it('names every kind the server reads, without the fifty extensions', () => {
    const all = [...IMAGE_EXTENSIONS, ...DOCUMENT_EXTENSIONS];
    expect(words(all, 'en')).toBe('images, PDF, Word, text and code files');
    expect(words(all, 'zh')).toBe('图片、PDF、Word、文本和代码文件');
  });

  it('says only what is there, in a fixed order, and "files" only after kinds of file', () => {
    expect(words(['png', 'jpg'], 'en')).toBe('images');
    expect(words(['pdf', 'png'], 'en')).toBe('images and PDF files');
    expect(words(['py', 'md'], 'en')).toBe('text and code files');
    expect(words(['docx'], 'zh')).toBe('Word文件');
    expect(words([], 'en')).toBe('');
  });
});
