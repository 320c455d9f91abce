import { Anchor, Badge, Box, Button, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentBrowser, packageOrder, type BrowserName, type PackageBrowser } from '../../shared/platform/browser.ts';
import { useSystemSetting } from '../app-shell/system-settings.ts';
import { IconCheck, IconFileText, IconGlobe } from '../ui/icons.tsx';
import { NewcomerFrame } from './newcomer-frame.tsx';
import './strings.ts';

export interface HomePageProps {
  onNavigate: (path: string) => void;
  /** The browser to offer first; the running one by default (tests pass theirs). */
  browser?: BrowserName;
}

/** Where a browser's install button leads: its store page when the operator set one, else the server's package. */
function useInstallTarget(browser: PackageBrowser): { href: string | undefined; fromStore: boolean; download: string | undefined } {
  const store = useSystemSetting(`${browser}_store_url`).value;
  const download = useSystemSetting(`${browser}_download_url`).value;
  return { href: store || download, fromStore: !!store, download };
}

function InstallButton({ browser, primary }: { browser: PackageBrowser; primary: boolean }) {
  const { t } = useTranslation();
  const target = useInstallTarget(browser);
  const name = t(`newcomers.browsers.${browser}`);
  return (
    <Button
      component="a"
      href={target.href}
      target={target.fromStore ? '_blank' : undefined}
      rel="noopener"
      size={primary ? 'lg' : 'md'}
      variant={primary ? 'filled' : 'default'}
      data-testid={`install-${browser}`}
      data-primary={primary || undefined}
      styles={{ root: { height: 'auto', paddingBlock: 8 }, label: { flexDirection: 'column', alignItems: 'center', gap: 2, lineHeight: 1.25, overflow: 'visible' } }}
    >
      <span>{t('newcomers.home.installFor', { browser: name })}</span>
      <Text span size="xs" opacity={0.8}>
        {target.fromStore ? t('newcomers.home.fromStore', { store: t(`newcomers.home.stores.${browser}`) }) : t('newcomers.home.package')}
      </Text>
    </Button>
  );
}

function OfflinePackages({ onNavigate }: { onNavigate: (path: string) => void }) {
  const { t } = useTranslation();
  const downloads = {
    chrome: useSystemSetting('chrome_download_url').value,
    edge: useSystemSetting('edge_download_url').value,
    firefox: useSystemSetting('firefox_download_url').value,
  };
  return (
    <Paper withBorder p="lg" radius={8}>
      <Stack gap="xs">
        <Title order={4}>{t('newcomers.home.offline')}</Title>
        <Text size="sm" c="dimmed">
          {t('newcomers.home.offlineText')}
        </Text>
        <Group gap="md">
          {(Object.keys(downloads) as PackageBrowser[]).map((browser) => (
            <Anchor key={browser} href={downloads[browser]} size="sm" data-testid={`package-${browser}`}>
              {t('newcomers.home.offlinePackage', { browser: t(`newcomers.browsers.${browser}`) })}
            </Anchor>
          ))}
        </Group>
        <Group gap="sm" mt={4}>
          <Button variant="light" leftSection={<IconFileText size={16} />} onClick={() => onNavigate('/guide')}>
            {t('newcomers.home.guide')}
          </Button>
          <Button variant="subtle" onClick={() => onNavigate('/helper')}>
            {t('newcomers.home.help')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

const FEATURES = ['sidePanel', 'readPage', 'models', 'everywhere'] as const;

/**
 * The home/download page (/home): what Tandem is, the install buttons with the visitor's browser
 * first (shared/platform/browser.ts), the offline packages and the way to the installation guide.
 */
export function HomePage({ onNavigate, browser }: HomePageProps) {
  const { t } = useTranslation();
  const detected = useMemo(() => browser ?? currentBrowser(), [browser]);
  const order = packageOrder(detected);
  return (
    <NewcomerFrame title={t('newcomers.home.title')} onBack={() => onNavigate('/')} width={960}>
      <Stack gap="xl" data-testid="home-page" data-browser={detected}>
        <Stack gap="sm" align="center" ta="center" pt="md">
          <img src="/icon/128.png" alt="" width={72} height={72} />
          <Title order={1} fz={{ base: 28, sm: 40 }}>
            {t('newcomers.home.tagline')}
          </Title>
          <Text c="dimmed" maw={640}>
            {t('newcomers.home.intro')}
          </Text>
        </Stack>
        <Stack gap="xs" align="center">
          <Group gap="sm" justify="center">
            {order.map((b, i) => (
              <InstallButton key={b} browser={b} primary={i === 0} />
            ))}
          </Group>
          {detected === order[0] && (
            <Badge variant="light" leftSection={<IconCheck size={12} />}>
              {t('newcomers.home.detected')}
            </Badge>
          )}
          {detected === 'safari' && (
            <Text size="sm" c="dimmed" ta="center">
              {t('newcomers.home.safariNote')}
            </Text>
          )}
          <Button variant="subtle" leftSection={<IconGlobe size={16} />} onClick={() => onNavigate('/')}>
            {t('newcomers.home.openWebApp')}
          </Button>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {FEATURES.map((key) => (
            <Paper key={key} withBorder p="md" radius={8}>
              <List icon={<IconCheck size={16} style={{ color: '#7b7ddb' }} />} spacing={0}>
                <List.Item>{t(`newcomers.home.features.${key}`)}</List.Item>
              </List>
            </Paper>
          ))}
        </SimpleGrid>
        <Box>
          <OfflinePackages onNavigate={onNavigate} />
        </Box>
      </Stack>
    </NewcomerFrame>
  );
}
