import { Button, Group, Stack, Text } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/login-link.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { pendingLinkLoginAtom } from './atoms.ts';
import { Modal } from '../ui/overlays.tsx';

addEnglishStrings(en);

/**
 * The question a login link asks before it changes who this browser is signed in as: the account
 * it leads to, "Continue as …" or "Stay as it is". Loaded only when a link asks (it is not part of
 * the first screen).
 */
export function LinkLoginDialog() {
  const { t } = useTranslation();
  const pending = useAtomValue(pendingLinkLoginAtom);
  if (!pending) return null;
  const { user, answer } = pending;
  const name = user.userName || user.email;
  return (
    <Modal opened onClose={() => answer(false)} title={t('loginLink.title')} centered data-testid="link-login-dialog">
      <Stack gap="md">
        <Text size="sm">{t('loginLink.explain')}</Text>
        <Group gap="sm" wrap="nowrap">
          {/* The account's initial in a circle (a plain element: the first screen's bundle has no Avatar). */}
          <Text
            component="span"
            fw={600}
            c="primary.6"
            bg="primary.0"
            w={38}
            h={38}
            style={{ borderRadius: '50%', display: 'inline-flex', alignItems: 'center', justifyContent: 'center', flexShrink: 0 }}
            aria-hidden
          >
            {name.slice(0, 1).toUpperCase()}
          </Text>
          <div>
            <Text fw={600}>{user.userName}</Text>
            <Text size="sm" c="dimmed" data-testid="link-login-email">
              {user.email}
            </Text>
          </div>
        </Group>
        <Text size="xs" c="dimmed">
          {t('loginLink.warning')}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => answer(false)} data-testid="link-login-stay">
            {t('loginLink.stay')}
          </Button>
          <Button onClick={() => answer(true)} data-testid="link-login-continue">
            {t('loginLink.continueAs', { name })}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
