import { Button, Group, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authActionAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import { errorMessage } from '../ui/error-message.ts';
import { notifySuccess } from '../ui/notify.ts';
import { updateUserPhone } from './api.ts';

/**
 * The profile's optional phone number: saved as the server normalises it, removed when emptied. A
 * refusal (not a number, on another account) shows under the field, in the reader's language.
 */
export function PhoneField() {
  const { t } = useTranslation();
  const user = useAtomValue(userInfoAtom);
  const auth = useSetAtom(authActionAtom);
  const [phone, setPhone] = useState(user?.phone ?? '');
  // The user may arrive after the first render: fill the field in then.
  const [phoneOf, setPhoneOf] = useState(user?.phone);
  if (user?.phone !== phoneOf) {
    setPhoneOf(user?.phone);
    setPhone(user?.phone ?? '');
  }
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: updateUserPhone,
    onSuccess: async (userInfo) => {
      await auth({ type: 'userInfo', userInfo });
      notifySuccess(t(userInfo.phone ? 'settings.phoneSaved' : 'settings.phoneRemoved'));
    },
    onError: (failure) => setError(errorMessage(failure) || t('settings.updateFailed')),
  });
  const unchanged = phone.trim() === (user?.phone ?? '');
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <TextInput
        style={{ flex: 1, minWidth: 0 }}
        type="tel"
        autoComplete="tel"
        label={t('settings.phone')}
        description={t('settings.phoneHint')}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        value={phone}
        maxLength={40}
        error={error}
        onChange={(event) => {
          setPhone(event.currentTarget.value);
          setError(null);
        }}
      />
      <Button mt={24} loading={save.isPending} disabled={unchanged} onClick={() => save.mutate(phone.trim() || null)}>
        {t('settings.save')}
      </Button>
    </Group>
  );
}
