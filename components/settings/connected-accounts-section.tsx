import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getApiBase } from '../../shared/api/request.ts';
import { deleteUserProvider, getProviderByAction, getProviderListAll } from '../../shared/api/sign-in-providers.ts';
import { tokenAtom } from '../../shared/atoms/auth.ts';
import { PROVIDER_ERRORS, type Provider } from '../../shared/contracts/sign-in-providers.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import strings from '../../locales/features/sign-in-providers.en.json';
import { errorMessage } from '../ui/error-message.ts';
import { notifyError, notifySuccess } from '../ui/notify.ts';
import { ProviderIcon } from '../ui/provider-icons.tsx';
import { SettingsSection } from '../ui/settings-section.tsx';
import { userProvidersQuery } from './api.ts';

addEnglishStrings(strings);

/** What the provider callback put on this page's address after a link: told once, then taken off. */
function useLinkResult(onDone: () => void) {
  const { t } = useTranslation();
  useEffect(() => {
    const url = new URL(window.location.href);
    const linked = url.searchParams.get('providerLinked');
    const error = url.searchParams.get('providerError');
    if (!linked && !error) return;
    url.searchParams.delete('providerLinked');
    url.searchParams.delete('providerError');
    window.history.replaceState(window.history.state, '', url.href);
    if (linked) notifySuccess(t('signInProviders.settings.linked', { name: linked }));
    if (error) notifyError(t(`signInProviders.errors.${(PROVIDER_ERRORS as readonly string[]).includes(error) ? error : 'providerFailed'}`));
    onDone();
    // Once, on opening.
  }, []);
}

/**
 * Settings → Account → Connected accounts: the providers linked to the account (disconnect, unless
 * it is the last way to sign in), and a "Connect" per other enabled provider. Linking goes through
 * the provider in this tab on the web; from the extension it opens the web app's page in a new tab
 * (the sign-in is bound to that browser tab's site, where the provider sends it back).
 */
export function ConnectedAccountsSection() {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const queryClient = useQueryClient();
  const query = userProvidersQuery(token);
  const linked = useQuery(query);
  const providers = useQuery({ queryKey: ['sign-in-providers'], queryFn: ({ signal }) => getProviderListAll(signal), staleTime: 5 * 60_000 });
  const [starting, setStarting] = useState<string | null>(null);
  useLinkResult(() => void queryClient.invalidateQueries({ queryKey: query.queryKey }));
  const unlink = useMutation({
    mutationFn: (link: { id: string; name: string }) => deleteUserProvider(link.id),
    onSuccess: (_, link) => {
      notifySuccess(t('signInProviders.settings.unlinked', { name: link.name }));
      void queryClient.invalidateQueries({ queryKey: query.queryKey });
    },
    onError: (error) => notifyError(errorMessage(error)),
  });
  const available = providers.data ?? [];
  const list = linked.data?.list ?? [];
  if (available.length === 0 && list.length === 0) return null;
  const onWebPage = new URL(getApiBase() || window.location.origin, window.location.href).origin === window.location.origin;
  const connect = async (provider: Provider) => {
    if (!onWebPage) {
      window.open(`${getApiBase()}/setting/account`, '_blank', 'noopener');
      return;
    }
    setStarting(provider.providerKey);
    try {
      window.location.assign(await getProviderByAction({ providerKey: provider.providerKey, action: 'link', returnTo: `${window.location.pathname}${window.location.search}` }));
    } catch (error) {
      setStarting(null);
      notifyError(errorMessage(error));
    }
  };
  const lastWay = linked.data ? !linked.data.hasPassword && list.length === 1 : false;
  const unlinked = available.filter((p) => !list.some((l) => l.providerKey === p.providerKey));
  return (
    <SettingsSection
      title={t('signInProviders.settings.title')}
      testId="settings-connected-accounts"
      description={
        <Text size="sm" c="dimmed" mb="sm">
          {t('signInProviders.settings.hint')}
        </Text>
      }
    >
      <Stack gap="xs">
        {linked.isSuccess && list.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('signInProviders.settings.none')}
          </Text>
        )}
        {list.map((link) => (
          <Group key={link.id} justify="space-between" wrap="nowrap" gap="xs" data-testid={`linked-${link.providerKey}`}>
            <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
              <ProviderIcon kind={link.kind ?? 'oidc'} />
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={500}>
                  {link.providerName}
                </Text>
                {link.email && (
                  <Text size="xs" c="dimmed" truncate>
                    {t('signInProviders.settings.connectedAs', { email: link.email })}
                  </Text>
                )}
              </div>
            </Group>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              disabled={lastWay}
              loading={unlink.isPending && unlink.variables?.id === link.id}
              onClick={() => unlink.mutate({ id: link.id, name: link.providerName })}
            >
              {t('signInProviders.settings.unlink')}
            </Button>
          </Group>
        ))}
        {lastWay && (
          <Alert color="yellow" p="xs" data-testid="provider-last-way">
            {t('signInProviders.settings.lastWay')}
          </Alert>
        )}
        {unlinked.length > 0 && (
          <Group gap="xs">
            {unlinked.map((provider) => (
              <Button
                key={provider.providerKey}
                size="xs"
                variant="default"
                leftSection={<ProviderIcon kind={provider.kind} size={16} />}
                loading={starting === provider.providerKey}
                onClick={() => void connect(provider)}
              >
                {t('signInProviders.settings.link', { name: provider.displayName })}
              </Button>
            ))}
          </Group>
        )}
        {!onWebPage && unlinked.length > 0 && (
          <Text size="xs" c="dimmed">
            {t('signInProviders.settings.onWeb')}
          </Text>
        )}
      </Stack>
    </SettingsSection>
  );
}
