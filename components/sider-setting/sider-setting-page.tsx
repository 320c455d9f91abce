import { ActionIcon, Badge, Button, Group, Kbd, Paper, Stack, Switch, Text } from '@mantine/core';
import { useAtom, useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { selectionToolsAtom, siderSettingsAtom } from './atoms.ts';
import { HintedLink } from './hinted-link.tsx';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { getShortcuts, openShortcutsPage } from '../../shared/platform/browser-pages.ts';
import { SettingsSection } from '../ui/settings-section.tsx';
import { toggleSite, type SiderSettings } from '../../shared/utils/sider-settings.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { useSystemSetting } from '../app-shell/system-settings.ts';
import { IconX } from '../ui/icons.tsx';
import { PageFrame } from '../ui/page-frame.tsx';
import strings from '../../locales/features/sider-setting.en.json';

addEnglishStrings(strings);

export interface SiderSettingPageProps {
  onBack: () => void;
  /** Where pinning lives (/prompt_setting). */
  onOpenPrompts: () => void;
}

/** The shortcuts as set in the browser (the manifest's defaults until read). */
function useShortcuts(): Record<string, string> {
  const [shortcuts, setShortcuts] = useState<Record<string, string>>({ 'open-side-panel': 'Alt+T', 'send-selection': 'Alt+Shift+K' });
  useEffect(() => {
    getShortcuts().then((found) => Object.keys(found).length > 0 && setShortcuts(found), () => undefined);
  }, []);
  return shortcuts;
}

/** The sites where one of the two is off, each with a button to turn it back on. */
function OffSites({ label, sites, onRemove }: { label: string; sites: readonly string[]; onRemove: (site: string) => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} mt="sm">
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {sites.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('siderSetting.noSites')}
        </Text>
      ) : (
        <Group gap={6} data-testid="off-sites">
          {sites.map((site) => (
            <Badge
              key={site}
              variant="light"
              color="gray"
              tt="none"
              rightSection={
                <ActionIcon size="xs" variant="transparent" color="gray" aria-label={t('siderSetting.removeSite', { site })} onClick={() => onRemove(site)}>
                  <IconX size={12} />
                </ActionIcon>
              }
            >
              {site}
            </Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
}

/** On the web page: these settings are the extension's; a way to install it. */
function WebNotice() {
  const { t } = useTranslation();
  const store = useSystemSetting('chrome_store_url').value;
  const download = useSystemSetting('chrome_download_url').value;
  const href = store || download;
  return (
    <Paper withBorder p="md" radius={6} data-testid="sider-setting-web">
      <Text size="sm" mb="sm">
        {t('siderSetting.webNotice')}
      </Text>
      {href && (
        <Button component="a" href={href} target="_blank" rel="noopener noreferrer">
          {t('siderSetting.install')}
        </Button>
      )}
    </Paper>
  );
}

/**
 * /sider_setting: the selection toolbar and the floating icon of the extension (the content script
 * on every page reads these from extension storage at once), which tools the toolbar shows, and the
 * keyboard shortcuts. On the web page it says these belong to the extension. Settings' Extension
 * section shows the same (SiderSettingPanels).
 */
export function SiderSettingPage({ onBack, onOpenPrompts }: SiderSettingPageProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  return (
    <PageFrame title={t('siderSetting.title')} backLabel={t('siderSetting.back')} onBack={onBack} narrow={isH5} width={640}>
      <SiderSettingPanels onOpenPrompts={onOpenPrompts} />
    </PageFrame>
  );
}

/** The settings of the page's sections, without its header: the page above and settings' Extension section. */
export function SiderSettingPanels({ onOpenPrompts }: Pick<SiderSettingPageProps, 'onOpenPrompts'>) {
  const { t } = useTranslation();
  const { isExtension } = usePlatform();
  const [settings, setSettings] = useAtom(siderSettingsAtom);
  const tools = useAtomValue(selectionToolsAtom).tools;
  const shortcuts = useShortcuts();
  const change = (patch: Partial<SiderSettings>) => void setSettings({ ...settings, ...patch });

  return (
    <>
      {!isExtension && <WebNotice />}
      {isExtension && (
        <>
          <SettingsSection title={t('siderSetting.toolbar.title')}>
            <Switch checked={settings.toolbar} onChange={(e) => change({ toolbar: e.currentTarget.checked })} label={t('siderSetting.toolbar.switch')} aria-label={t('siderSetting.toolbar.switch')} description={t('siderSetting.toolbar.hint')} />
            <OffSites
              label={t('siderSetting.toolbar.offSites')}
              sites={settings.toolbarOffSites}
              onRemove={(site) => change({ toolbarOffSites: toggleSite(settings.toolbarOffSites, site, false) })}
            />
          </SettingsSection>
          <SettingsSection title={t('siderSetting.icon.title')}>
            <Switch checked={settings.floatingIcon} onChange={(e) => change({ floatingIcon: e.currentTarget.checked })} label={t('siderSetting.icon.switch')} aria-label={t('siderSetting.icon.switch')} description={t('siderSetting.icon.hint')} />
            <OffSites label={t('siderSetting.icon.offSites')} sites={settings.iconOffSites} onRemove={(site) => change({ iconOffSites: toggleSite(settings.iconOffSites, site, false) })} />
          </SettingsSection>
        </>
      )}
      <SettingsSection title={t('siderSetting.tools.title')}>
        {isExtension &&
          (tools.length === 0 ? (
            <Text size="sm" c="dimmed" mb="xs">
              {t('siderSetting.tools.none')}
            </Text>
          ) : (
            <Group gap={6} mb="xs" data-testid="pinned-tools">
              {tools.map((tool) => (
                <Badge key={tool.id} variant="light" tt="none">
                  {tool.icon ? `${tool.icon} ${tool.name}` : tool.name}
                </Badge>
              ))}
            </Group>
          ))}
        <HintedLink hint={t('siderSetting.tools.hint')} label={t('siderSetting.tools.edit')} onOpen={onOpenPrompts} />
      </SettingsSection>
      {isExtension && (
        <SettingsSection title={t('siderSetting.shortcuts.title')}>
          <Stack gap={6}>
            {/* The key stays on the line of what it does, however narrow the panel. */}
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm">{t('siderSetting.shortcuts.open')}</Text>
              <Kbd style={{ flexShrink: 0 }}>{shortcuts['open-side-panel'] || '—'}</Kbd>
            </Group>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm">{t('siderSetting.shortcuts.send')}</Text>
              <Kbd style={{ flexShrink: 0 }}>{shortcuts['send-selection'] || '—'}</Kbd>
            </Group>
            <Text size="xs" c="dimmed">
              {t('siderSetting.shortcuts.hint')}
            </Text>
            <Group>
              <Button variant="default" size="xs" onClick={() => void openShortcutsPage()}>
                {t('siderSetting.shortcuts.change')}
              </Button>
            </Group>
          </Stack>
        </SettingsSection>
      )}
    </>
  );
}
