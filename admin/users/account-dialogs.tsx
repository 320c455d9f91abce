import { Alert, Button, CopyButton, Group, List, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { deleteUser, getDeletePreview, sendPasswordReset } from './api.ts';
import type { SubscriptionFate } from '../../shared/contracts/admin-users.ts';
import { notifySuccess, notifyWarning, onMutationError } from '../../components/ui/notify.ts';
import { Modal } from '../../components/ui/overlays.tsx';
import type { UserDialogProps } from './grant-dialog.tsx';
import { emailConfirms } from './grant-form.ts';
import { useUserFormat } from './user-format.ts';
import './strings.ts';

/** Makes a single-use password reset link and shows it to copy (and whether it was also e-mailed). */
export function ResetLinkDialog({ user, onClose, onDone }: UserDialogProps) {
  const { t } = useTranslation();
  const format = useUserFormat();
  const reset = useMutation({
    mutationFn: () => sendPasswordReset(user.userId),
    onSuccess: onDone,
    onError: onMutationError(),
  });
  const link = reset.data;
  return (
    <Modal opened onClose={onClose} title={t('adminUsers.reset.title')} centered>
      {link ? (
        <Stack gap="sm">
          <TextInput label={t('adminUsers.reset.link')} value={link.link} readOnly onFocus={(event) => event.currentTarget.select()} data-testid="reset-link" />
          <Text size="sm">{t('adminUsers.reset.expires', { date: format.dateTime(link.expireTime) })}</Text>
          <Text size="sm" c="dimmed">
            {link.emailed ? t('adminUsers.reset.emailed') : t('adminUsers.reset.notEmailed')}
          </Text>
          <Group justify="flex-end">
            <CopyButton value={link.link}>
              {({ copied, copy }) => (
                <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                  {copied ? t('adminUsers.reset.copied') : t('adminUsers.reset.copy')}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={onClose}>
              {t('adminUsers.action.dismiss')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm">{t('adminUsers.reset.message', { email: user.email })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={reset.isPending}>
              {t('adminUsers.action.cancel')}
            </Button>
            <Button onClick={() => reset.mutate()} loading={reset.isPending}>
              {t('adminUsers.reset.confirm')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/**
 * The toast once an action is done: with what became of the account's Stripe subscription when the
 * action touched one, and a toast that stays when one still runs and must be cancelled in Stripe.
 */
export function reportDone(t: TFunction, message: string, subscription?: SubscriptionFate) {
  if (subscription === 'notConfigured') notifyWarning(t('adminUsers.subscription.notConfigured', { done: message }));
  else notifySuccess(subscription === 'cancelled' ? t('adminUsers.subscription.cancelled', { done: message }) : message);
}

const PREVIEW_FIELDS = ['sessions', 'messages', 'favourites', 'files', 'ledgerEntries', 'orders'] as const;

/**
 * Deleting an account: the dialog first names what goes (counted by the server), and the button
 * works only once the account's e-mail has been typed, as the server checks it too.
 */
export function DeleteDialog({ user, onClose, onDone }: UserDialogProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [touched, setTouched] = useState(false);
  const preview = useQuery({
    queryKey: ['admin', 'users', 'delete-preview', user.userId],
    queryFn: ({ signal }) => getDeletePreview(user.userId, signal),
    gcTime: 0,
    staleTime: 0,
  });
  const remove = useMutation({
    mutationFn: () => deleteUser(user.userId, typed.trim()),
    onSuccess: ({ subscription }) => {
      reportDone(t, t('adminUsers.delete.done', { email: user.email }), subscription);
      onDone();
    },
    onError: onMutationError(),
  });
  const confirmed = emailConfirms(typed, user.email);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (confirmed && preview.data) remove.mutate();
  };
  return (
    <Modal opened onClose={onClose} title={t('adminUsers.delete.title', { email: user.email })} centered>
      <form onSubmit={submit} noValidate aria-label={t('adminUsers.action.delete')}>
        <Stack gap="sm">
          {preview.isPending && (
            <Group gap="xs" role="status">
              <Loader size="xs" />
              <Text size="sm">{t('adminUsers.delete.loading')}</Text>
            </Group>
          )}
          {preview.isError && (
            <Alert color="red" role="alert">
              {t('adminUsers.delete.previewFailed', { message: preview.error.message })}
            </Alert>
          )}
          {preview.data && (
            <div data-testid="delete-preview">
              <Text size="sm" fw={500}>
                {t('adminUsers.delete.goes')}
              </Text>
              <List size="sm">
                {PREVIEW_FIELDS.map((field) => (
                  <List.Item key={field}>{t(`adminUsers.delete.${field}`, { count: preview.data[field] })}</List.Item>
                ))}
              </List>
              {preview.data.runningSubscription && (
                <Text size="sm" mt="xs">
                  {t('adminUsers.delete.runningSubscription')}
                </Text>
              )}
            </div>
          )}
          <TextInput
            label={t('adminUsers.delete.confirmLabel')}
            placeholder={user.email}
            value={typed}
            autoComplete="off"
            onChange={(event) => setTyped(event.currentTarget.value)}
            onBlur={() => setTouched(true)}
            error={touched && typed.trim() !== '' && !confirmed ? t('adminUsers.delete.mismatch') : undefined}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={remove.isPending}>
              {t('adminUsers.action.cancel')}
            </Button>
            <Button type="submit" color="red" disabled={!confirmed || !preview.data} loading={remove.isPending}>
              {t('adminUsers.delete.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
