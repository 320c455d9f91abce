import { CloseButton, Group, SegmentedControl, Select, Stack, Switch, Text } from '@mantine/core';
import { useAtom } from 'jotai';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { translatePrefsAtom } from '../../shared/atoms/translate.ts';
import { TRANSLATE_LANGUAGES, type TranslateLanguage, type TranslatePrefs } from '../../shared/contracts/translate.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { SettingsSection } from '../ui/settings-section.tsx';
import strings from '../../locales/features/translate-settings.en.json';

addEnglishStrings(strings);

/** The value of "the app's language" in the target list (TranslatePrefs.targetLanguage null). */
const APP_LANGUAGE = 'app';

/** The languages by name, in the language the app is shown in. */
function useLanguageOptions(): { value: string; label: string }[] {
  const { i18n } = useTranslation();
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([i18n.language === 'zh' ? 'zh-Hans' : 'en'], { type: 'language' });
    } catch {
      // Codes are shown without Intl.DisplayNames.
    }
    return TRANSLATE_LANGUAGES.map((code) => ({ value: code, label: names?.of(code) ?? code }));
  }, [i18n.language]);
}

/**
 * Settings' Translation section: where pages and selections are translated to (the app's language by
 * default), how a translated page shows, whether its price is shown first, the typed-text trigger and its language, and the sites
 * always or never translated (shown, and removed one by one; they are added from the page translator).
 */
export function TranslationSettings() {
  const { t } = useTranslation();
  const [prefs, setPrefs] = useAtom(translatePrefsAtom);
  const languages = useLanguageOptions();
  const change = (patch: Partial<TranslatePrefs>) => void setPrefs({ ...prefs, ...patch });
  return (
    <SettingsSection title={t('translateSettings.title')} testId="translation-settings" description={<Text size="xs" c="dimmed" mb="sm">{t('translateSettings.description')}</Text>}>
      <Stack gap="md">
        <Select
          label={t('translateSettings.target')}
          data={[{ value: APP_LANGUAGE, label: t('translateSettings.targetApp') }, ...languages]}
          value={prefs.targetLanguage ?? APP_LANGUAGE}
          onChange={(value) => change({ targetLanguage: !value || value === APP_LANGUAGE ? null : (value as TranslateLanguage) })}
          allowDeselect={false}
          searchable
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="translate-display-label">
            {t('translateSettings.display')}
          </Text>
          <SegmentedControl
            aria-labelledby="translate-display-label"
            value={prefs.display}
            onChange={(value) => change({ display: value as TranslatePrefs['display'] })}
            data={[
              { value: 'bilingual', label: t('translateSettings.displayBilingual') },
              { value: 'replace', label: t('translateSettings.displayReplace') },
            ]}
          />
          <Switch
            mt={6}
            label={t('translateSettings.askFirst')}
            description={t('translateSettings.askFirstHint')}
            checked={prefs.askFirst}
            onChange={(event) => change({ askFirst: event.currentTarget.checked })}
          />
        </Stack>
        <Stack gap={6}>
          <Switch
            label={t('translateSettings.typed')}
            description={t('translateSettings.typedHint')}
            checked={prefs.typedTrigger === 'triple-space'}
            onChange={(event) => change({ typedTrigger: event.currentTarget.checked ? 'triple-space' : 'off' })}
          />
          <Select
            label={t('translateSettings.typedLanguage')}
            data={languages}
            value={prefs.typedLanguage}
            onChange={(value) => value && change({ typedLanguage: value as TranslateLanguage })}
            disabled={prefs.typedTrigger === 'off'}
            allowDeselect={false}
            searchable
          />
        </Stack>
        <SiteList title={t('translateSettings.alwaysSites')} sites={prefs.alwaysSites} onRemove={(site) => change({ alwaysSites: prefs.alwaysSites.filter((s) => s !== site) })} />
        <SiteList title={t('translateSettings.neverSites')} sites={prefs.neverSites} onRemove={(site) => change({ neverSites: prefs.neverSites.filter((s) => s !== site) })} />
      </Stack>
    </SettingsSection>
  );
}

function SiteList({ title, sites, onRemove }: { title: string; sites: readonly string[]; onRemove: (site: string) => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} role="group" aria-label={title}>
      <Text size="sm" fw={500}>
        {title}
      </Text>
      {sites.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t('translateSettings.noSites')}
        </Text>
      ) : (
        sites.map((site) => (
          <Group key={site} justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" truncate>
              {site}
            </Text>
            <CloseButton size="sm" aria-label={t('translateSettings.removeSite', { site })} onClick={() => onRemove(site)} />
          </Group>
        ))
      )}
    </Stack>
  );
}
