import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tokenAtom } from '../../shared/atoms/auth.ts';
import en from '../../locales/features/email-verification.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { errorMessage } from '../ui/error-message.ts';
import { emailStateQuery, sendVerifyEmail } from './api.ts';

addEnglishStrings(en);

/**
 * The profile's e-mail line: the address with whether it is verified (docs/api.md#verified-e-mail).
 * Not verified, the user can have a new link mailed; the result (sent, or the server's reason: no
 * SMTP, too many this hour) shows under it. A server that does not know verification shows the
 * address alone.
 */
export function EmailVerificationField({ email }: { email: string }) {
  const { t, i18n } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const queryClient = useQueryClient();
  const query = emailStateQuery(token);
  const state = useQuery(query);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const send = useMutation({
    mutationFn: sendVerifyEmail,
    onSuccess: (next) => {
      queryClient.setQueryData(query.queryKey, next);
      setResult({ ok: true, text: t('emailVerification.sent', { email: next.email }) });
    },
    onError: (error) => setResult({ ok: false, text: errorMessage(error) || t('emailVerification.failed') }),
  });
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const data = state.data;

  return (
    <Stack gap={4} data-testid="settings-email">
      <Group gap="xs" wrap="wrap" align="center">
        <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
          {t('settings.emailLine', { email })}
        </Text>
        {data &&
          (data.verified ? (
            <Badge color="teal" variant="light" title={data.verifiedAt ? t('emailVerification.verifiedOn', { date: when(data.verifiedAt) }) : undefined} data-testid="email-verified">
              {t('emailVerification.verified')}
            </Badge>
          ) : (
            <Badge color="orange" variant="light" data-testid="email-not-verified">
              {t('emailVerification.notVerified')}
            </Badge>
          ))}
      </Group>
      {data && !data.verified && (
        <>
          {data.canSend ? (
            <Group gap="xs" wrap="wrap" align="center">
              <Button size="compact-sm" variant="light" loading={send.isPending} onClick={() => send.mutate()}>
                {t(data.sentAt ? 'emailVerification.sendAgain' : 'emailVerification.send')}
              </Button>
              {data.sentAt && (
                <Text size="xs" c="dimmed">
                  {t('emailVerification.lastSent', { time: when(data.sentAt) })}
                </Text>
              )}
            </Group>
          ) : (
            <Text size="xs" c="dimmed">
              {t('emailVerification.cannotSend')}
            </Text>
          )}
          {result && (
            <Text size="xs" c={result.ok ? 'teal' : 'red'} role={result.ok ? 'status' : 'alert'} data-testid="email-verify-result">
              {result.text}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
