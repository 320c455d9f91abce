import type { TFunction } from 'i18next';
import { IMAGE_EXTENSIONS } from '../../shared/contracts/media.ts';

/** The kinds of file a person recognises, in the order they are named. */
const KINDS = ['images', 'pdf', 'word', 'text', 'code'] as const;
type FileKind = (typeof KINDS)[number];

/** The formats' own names, the same in every language. */
const NAMES: Partial<Record<FileKind, string>> = { pdf: 'PDF', word: 'Word' };

const TEXT_EXTENSIONS = new Set(['txt', 'md', 'markdown', 'csv', 'tsv', 'json', 'jsonl', 'log', 'html', 'htm', 'xml', 'yaml', 'yml', 'toml', 'ini']);

function kindOf(extension: string): FileKind {
  if ((IMAGE_EXTENSIONS as readonly string[]).includes(extension)) return 'images';
  if (extension === 'pdf') return 'pdf';
  if (extension === 'docx') return 'word';
  return TEXT_EXTENSIONS.has(extension) ? 'text' : 'code';
}

/**
 * What a model reads, in words instead of its extensions: "images, PDF, Word, text and code files"
 * (图片、PDF、Word、文本和代码文件). '' when it reads no files.
 */
export function fileKindsInWords(accepted: readonly string[], t: TFunction, language: string): string {
  const present = new Set(accepted.map(kindOf));
  const kinds = KINDS.filter((kind) => present.has(kind));
  if (kinds.length === 0) return '';
  const list = new Intl.ListFormat(language === 'zh' ? 'zh' : 'en-GB', { type: 'conjunction' }).format(kinds.map((kind) => NAMES[kind] ?? t(`chat.content.fileKinds.${kind}`)));
  return kinds.some((kind) => kind !== 'images') ? t('chat.content.fileKinds.files', { list }) : list;
}
