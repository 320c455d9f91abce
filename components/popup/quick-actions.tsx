import { Anchor, Button, Divider, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue, useStore } from 'jotai';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getUserIntegralByLogin, mainIntegralValue } from '../../shared/api/user.ts';
import { isLoggedInAtom, tokenAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import { planName } from '../../shared/utils/plan-level.ts';
import { signOut as signOutOf, useFreshUserInfo } from '../app-shell/account.ts';
import { HeadImgAvatar } from '../app-shell/head-img.tsx';
import { IconCrown, IconGlobe, IconLanguage, IconSidebar } from '../ui/icons.tsx';
import { notifyError } from '../ui/notify.ts';
import helpLinkEn from '../../locales/features/help-link.en.json';
import pageTranslateEn from '../../locales/features/page-translate.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';

addEnglishStrings(helpLinkEn);
addEnglishStrings(pageTranslateEn);

/** The popup's width: a toolbar popup sizes itself to its content. */
export const POPUP_WIDTH = 320;

export interface QuickActionsProps {
  /** Opens the side panel; must be called within the click (Chrome needs the user gesture). */
  onOpenSidePanel: () => Promise<void>;
  onOpenWebApp: () => void;
  onSignIn: () => void;
  /** Opens the server's help centre (/helper) in a tab. */
  onOpenHelp?: () => void;
  /** Translates the active tab's page in place, or shows its original (signed-in users; rejects when the tab cannot be). */
  onTranslatePage?: () => Promise<void>;
  /** Shown under the signed-in user's plan and points (the campaigns' card, from the popup entrypoint). */
  extra?: ReactNode;
}

/**
 * The toolbar popup: who is signed in, their plan and points, and the ways on (side panel, web app,
 * sign in or out). Browser APIs come in as callbacks from the popup entrypoint.
 */
export function QuickActions({ onOpenSidePanel, onOpenWebApp, onSignIn, onOpenHelp, onTranslatePage, extra }: QuickActionsProps) {
  const { t } = useTranslation();
  const isLoggedIn = useAtomValue(isLoggedInAtom);
  const userInfo = useAtomValue(userInfoAtom);
  const store = useStore();
  const [signingOut, setSigningOut] = useState(false);

  // Keyed by the token, so another account never sees the last one's points.
  const token = useAtomValue(tokenAtom);
  const points = useQuery({
    queryKey: ['user-integral', token],
    queryFn: ({ signal }) => getUserIntegralByLogin(signal),
    select: mainIntegralValue,
    enabled: isLoggedIn,
  });
  useFreshUserInfo();

  const openSidePanel = () => {
    onOpenSidePanel().catch((error: unknown) => {
      console.warn('sidePanel.open failed', error);
      notifyError(t('popup.sidePanelFailed'));
    });
  };

  const translatePage = () => {
    onTranslatePage?.().catch((error: unknown) => {
      console.warn('translating the page failed', error);
      notifyError(t('pageTranslate.failed'));
    });
  };

  const signOut = async () => {
    setSigningOut(true);
    try {
      await signOutOf(store);
    } finally {
      setSigningOut(false);
    }
  };

  return (
    <Stack gap="sm" p="md" w={POPUP_WIDTH} data-testid="popup-quick-actions">
      <Title order={5}>{t('popup.title')}</Title>
      {isLoggedIn ? (
        <Stack gap={4}>
          <Group gap={8} wrap="nowrap">
            {userInfo && <HeadImgAvatar user={userInfo} size={32} testId="popup-avatar" />}
            <Text fw={600} truncate data-testid="popup-user-name">
              {userInfo?.userName ?? <Loader size="xs" />}
            </Text>
          </Group>
          <Group gap={6} wrap="nowrap">
            <IconCrown size={16} />
            <Text size="sm" data-testid="popup-plan">
              {userInfo?.vipOrder ? planName(userInfo.vipOrder.vipPackageLevel, userInfo.vipOrder.vipPackageName, t) : t('popup.freeVersion')}
            </Text>
          </Group>
          <Text size="sm" c="dimmed" data-testid="popup-points">
            {points.isSuccess ? t('popup.points', { points: points.data }) : points.isError ? t('popup.pointsUnavailable') : t('popup.pointsLoading')}
          </Text>
          {extra}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          {t('popup.signedOut')}
        </Text>
      )}
      <Divider />
      <Button leftSection={<IconSidebar size={16} />} onClick={openSidePanel}>
        {t('popup.openSidePanel')}
      </Button>
      {isLoggedIn && onTranslatePage && (
        <Button variant="light" leftSection={<IconLanguage size={16} />} onClick={translatePage} data-testid="popup-translate-page">
          {t('pageTranslate.popup')}
        </Button>
      )}
      <Button variant="light" leftSection={<IconGlobe size={16} />} onClick={onOpenWebApp}>
        {t('popup.openWebApp')}
      </Button>
      {isLoggedIn ? (
        <Button variant="subtle" color="gray" loading={signingOut} onClick={() => void signOut()}>
          {t('popup.signOut')}
        </Button>
      ) : (
        <Button variant="outline" onClick={onSignIn}>
          {t('popup.signIn')}
        </Button>
      )}
      {onOpenHelp && (
        <Anchor component="button" type="button" size="xs" c="dimmed" ta="center" onClick={onOpenHelp} data-testid="popup-help">
          {t('helpLink.label')}
        </Anchor>
      )}
    </Stack>
  );
}
