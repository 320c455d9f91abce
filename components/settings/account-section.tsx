import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useAtomValue, useSetAtom, useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getUserByLogin, updateNickName } from '../../shared/api/user.ts';
import { authActionAtom, isLoggedInAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import { planName } from '../../shared/utils/plan-level.ts';
import { signOut, signOutEverywhere } from '../app-shell/account.ts';
import { SignInPrompt } from '../app-shell/sign-in-prompt.tsx';
import { notifyError, notifySuccess, onMutationError } from '../ui/notify.ts';
import { SettingsSection } from '../ui/settings-section.tsx';
import { EmailVerificationField } from './email-verification-field.tsx';
import { PasswordSection } from './password-section.tsx';
import { ConnectedAccountsSection } from './connected-accounts-section.tsx';
import { PhoneField } from './phone-field.tsx';
import { PictureField } from './picture-field.tsx';
import strings from '../../locales/features/settings.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';

// The section's words, also when it is shown without the settings page around it.
addEnglishStrings(strings);

/**
 * Settings' Account section, its own part: the profile (picture, e-mail, plan, nickname, phone), the
 * password, and signing out, here or everywhere; a visitor's way to sign in.
 */
export function AccountSection() {
  const { t } = useTranslation();
  const loggedIn = useAtomValue(isLoggedInAtom);
  if (!loggedIn) return <SignInPrompt message={t('settings.signIn.account')} signInLabel={t('settings.login')} notice="settings.signIn.notice" />;
  return (
    <>
      <ProfileSection />
      <PasswordSection />
      <ConnectedAccountsSection />
      <SignOutSection />
    </>
  );
}

function ProfileSection() {
  const { t } = useTranslation();
  const user = useAtomValue(userInfoAtom);
  const auth = useSetAtom(authActionAtom);
  const [name, setName] = useState(user?.userName ?? '');
  // The user may arrive after the first render (a page opened straight at this section): fill it in then.
  const [nameOf, setNameOf] = useState(user?.userName);
  if (user?.userName !== nameOf) {
    setNameOf(user?.userName);
    setName(user?.userName ?? '');
  }
  const [nameError, setNameError] = useState<string | null>(null);

  const rename = useMutation({
    mutationFn: async (userName: string) => {
      await updateNickName(userName);
      return getUserByLogin();
    },
    onSuccess: async (userInfo) => {
      await auth({ type: 'userInfo', userInfo });
      notifySuccess(t('settings.nicknameSaved'));
    },
    onError: onMutationError((message) => message || t('settings.updateFailed')),
  });

  return (
    <SettingsSection title={t('settings.profile')} testId="settings-profile">
      <Stack gap="xs">
        <PictureField />
        <EmailVerificationField email={user?.email ?? ''} />
        <Text size="sm">
          {t('settings.planLine', { plan: user?.vipOrder ? planName(user.vipOrder.vipPackageLevel, user.vipOrder.vipPackageName, t) : t('chat.sider.freeVersion') })}
        </Text>
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            style={{ flex: 1, minWidth: 0 }}
            label={t('settings.nickname')}
            value={name}
            maxLength={50}
            error={nameError}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setNameError(null);
            }}
          />
          <Button
            mt={24}
            loading={rename.isPending}
            onClick={() => (name.trim() ? rename.mutate(name.trim()) : setNameError(t('settings.nicknameRequired')))}
          >
            {t('settings.save')}
          </Button>
        </Group>
        <PhoneField />
      </Stack>
    </SettingsSection>
  );
}

function SignOutSection() {
  const { t } = useTranslation();
  const store = useStore();
  const logout = useMutation({ mutationFn: () => signOut(store) });
  const logoutEverywhere = useMutation({
    mutationFn: () => signOutEverywhere(store),
    onError: (error) => notifyError(error instanceof Error ? error.message : t('settings.logoutEverywhereFailed')),
  });
  return (
    <SettingsSection
      title={t('settings.signOut')}
      description={
        <Text size="sm" c="dimmed" mb="sm">
          {t('settings.signOutHint')}
        </Text>
      }
    >
      <Group gap="xs">
        <Button color="red" variant="light" loading={logout.isPending} onClick={() => logout.mutate()}>
          {t('settings.logout')}
        </Button>
        <Button color="red" variant="subtle" loading={logoutEverywhere.isPending} onClick={() => logoutEverywhere.mutate()}>
          {t('settings.logoutEverywhere')}
        </Button>
      </Group>
    </SettingsSection>
  );
}
