import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LanguageSchema } from '../../shared/contracts/common.ts';
import { setLanguage } from '../../shared/i18n/i18n.ts';

/** Each language in its own words, so a reader of either finds theirs. */
const LANGUAGES = [
  { value: 'en', label: 'English' },
  { value: 'zh', label: '中文' },
];

/** The page's language, switched at once and remembered on this browser (setLanguage). */
export function LanguageSwitch({ label }: { label: string }) {
  const { i18n } = useTranslation();
  return (
    <SegmentedControl
      size="xs"
      aria-label={label}
      value={i18n.language === 'zh' ? 'zh' : 'en'}
      onChange={(next) => {
        const parsed = LanguageSchema.safeParse(next);
        if (parsed.success) void setLanguage(parsed.data);
      }}
      data={LANGUAGES}
    />
  );
}
