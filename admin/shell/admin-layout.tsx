import { AppShell, Burger, Button, Group, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { LanguageSwitch } from '../../components/ui/language-switch.tsx';
import { useAdminMe, useAdminSignOut } from './admin-gate.tsx';
import './strings.ts';

export type AdminSection = 'dashboard' | 'users' | 'models' | 'money' | 'campaigns' | 'content' | 'audit';

/** The console's sections: where each link goes, and the addresses that belong to it. */
const ADMIN_SECTIONS: readonly { section: AdminSection; href: string; prefix: string }[] = [
  { section: 'dashboard', href: '/admin', prefix: '/admin' },
  { section: 'users', href: '/admin/users', prefix: '/admin/users' },
  { section: 'models', href: '/admin/models', prefix: '/admin/models' },
  { section: 'money', href: '/admin/money/plans', prefix: '/admin/money' },
  { section: 'campaigns', href: '/admin/campaigns', prefix: '/admin/campaigns' },
  { section: 'content', href: '/admin/content/plugins', prefix: '/admin/content' },
  { section: 'audit', href: '/admin/audit', prefix: '/admin/audit' },
];

/** The section an address belongs to (the dashboard is /admin itself only). */
export function sectionOf(pathname: string): AdminSection | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/admin') return 'dashboard';
  const found = ADMIN_SECTIONS.find((s) => s.section !== 'dashboard' && (path === s.prefix || path.startsWith(`${s.prefix}/`)));
  return found?.section ?? null;
}

/** The console's frame: the sections on the left, the admin's e-mail, the language and log out on top. */
export function AdminLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [location] = useLocation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const active = sectionOf(location);
  useDocumentTitle(active);
  // A section chosen on a narrow screen closes the menu.
  useEffect(close, [location, close]);

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('adminShell.toggleNavigation')} />
            <Title order={1} size="h4" c="var(--mantine-color-anchor)">
              {t('adminShell.brand')}
            </Title>
          </Group>
          <HeaderActions />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label={t('adminShell.navigation')}>
        {ADMIN_SECTIONS.map(({ section, href }) => (
          <NavLink
            key={section}
            component={Link}
            href={href}
            label={t(`adminShell.nav.${section}`)}
            active={active === section}
            aria-current={active === section ? 'page' : undefined}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}

function useDocumentTitle(section: AdminSection | null) {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    const base = t('adminShell.documentTitle');
    document.title = section ? `${t(`adminShell.nav.${section}`)} · ${base}` : base;
    document.documentElement.lang = i18n.language;
  }, [t, i18n.language, section]);
}

function HeaderActions() {
  const { t } = useTranslation();
  const me = useAdminMe();
  const { leaving, leave } = useAdminSignOut();
  return (
    <Group gap="sm" wrap="nowrap">
      {me.data && (
        <Text size="sm" c="dimmed" visibleFrom="sm" data-testid="admin-email" title={t('adminShell.signedInAs', { email: me.data.email })}>
          {me.data.email}
        </Text>
      )}
      <LanguageSwitch label={t('adminShell.language')} />
      <Button size="xs" variant="default" loading={leaving} onClick={leave}>
        {t('adminShell.logOut')}
      </Button>
    </Group>
  );
}
