import { Button, Group, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { grantPoints, extendPlan } from './api.ts';
import type { AdminUserDetail } from '../../shared/contracts/admin-users.ts';
import { notifySuccess, onMutationError } from '../../components/ui/notify.ts';
import { Modal } from '../../components/ui/overlays.tsx';
import { MAX_POINTS_AT_ONCE, MAX_REASON_LENGTH, signedAmount, validateGrantForm, type GrantDirection, type GrantFormErrors, type GrantFormValues } from './grant-form.ts';
import { useUserFormat } from './user-format.ts';
import './strings.ts';

/**
 * One id per intended change, chosen when the dialog opens: pressing again after a failure that
 * may have reached the server (a timeout) is applied once.
 */
function useRequestId(): string {
  const [id] = useState(() => crypto.randomUUID());
  return id;
}

export interface UserDialogProps {
  user: AdminUserDetail;
  onClose: () => void;
  /** After the server applied the change: refetch what shows it. */
  onDone: () => void;
}

/** Grant or deduct points with a reason the user reads in their history. */
export function GrantDialog({ user, onClose, onDone }: UserDialogProps) {
  const { t } = useTranslation();
  const format = useUserFormat();
  const requestId = useRequestId();
  const [values, setValues] = useState<GrantFormValues>({ direction: 'grant', amount: '', reason: '' });
  const [errors, setErrors] = useState<GrantFormErrors>({});
  const grant = useMutation({
    mutationFn: () => grantPoints({ userId: user.userId, amount: signedAmount(values), reason: values.reason.trim(), requestId }),
    onSuccess: (result) => {
      notifySuccess(
        result.applied
          ? t('adminUsers.grant.done', { email: user.email, balance: format.number(result.balance) })
          : t('adminUsers.grant.alreadyDone', { balance: format.number(result.balance) }),
      );
      onDone();
      onClose();
    },
    // The form keeps what was typed; the server's message says what to change.
    onError: onMutationError(),
  });
  const set = <K extends keyof GrantFormValues>(key: K, value: GrantFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key === 'direction' ? 'amount' : key]: undefined }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateGrantForm(values, user.balance);
    setErrors(found);
    if (!found.amount && !found.reason) grant.mutate();
  };
  const amount = typeof values.amount === 'number' && Number.isInteger(values.amount) && values.amount > 0 ? values.amount : 0;
  const after = user.balance + (values.direction === 'deduct' ? -amount : amount);
  const errorText = (error?: { key: string; values?: Record<string, number> }) =>
    error ? t(`adminUsers.grant.errors.${error.key}`, { ...error.values, max: error.values?.max !== undefined ? format.number(error.values.max) : undefined }) : undefined;

  return (
    <Modal opened onClose={onClose} title={t('adminUsers.grant.title')} centered>
      <form onSubmit={submit} noValidate aria-label={t('adminUsers.grant.title')}>
        <Stack gap="sm">
          <Text size="sm" fw={500}>
            {user.email}
          </Text>
          <SegmentedControl
            aria-label={t('adminUsers.grant.direction')}
            value={values.direction}
            onChange={(value) => set('direction', value as GrantDirection)}
            data={[
              { value: 'grant', label: t('adminUsers.grant.grant') },
              { value: 'deduct', label: t('adminUsers.grant.deduct') },
            ]}
          />
          <NumberInput
            label={t('adminUsers.grant.amount')}
            value={values.amount}
            onChange={(value) => set('amount', value)}
            min={1}
            max={MAX_POINTS_AT_ONCE}
            allowDecimal={false}
            allowNegative={false}
            thousandSeparator=","
            error={errorText(errors.amount)}
            data-autofocus
          />
          <TextInput
            label={t('adminUsers.grant.reason')}
            description={t('adminUsers.grant.reasonHint')}
            value={values.reason}
            maxLength={MAX_REASON_LENGTH + 50}
            onChange={(event) => set('reason', event.currentTarget.value)}
            error={errorText(errors.reason)}
          />
          <Text size="sm" c="dimmed" data-testid="grant-preview">
            {t('adminUsers.grant.preview', { before: format.number(user.balance), after: format.number(after) })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={grant.isPending}>
              {t('adminUsers.action.cancel')}
            </Button>
            <Button type="submit" color={values.direction === 'deduct' ? 'red' : undefined} loading={grant.isPending}>
              {t(values.direction === 'deduct' ? 'adminUsers.grant.submitDeduct' : 'adminUsers.grant.submitGrant', { amount: format.number(amount) })}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

const MAX_PLAN_DAYS = 3660;

/** Adds days of a plan level (an operator's grant: an order of its own, once per request id). */
export function ExtendPlanDialog({ user, onClose, onDone }: UserDialogProps) {
  const { t } = useTranslation();
  const format = useUserFormat();
  const requestId = useRequestId();
  const [level, setLevel] = useState<string>(String(Math.max(1, user.planLevel)));
  const [days, setDays] = useState<number | string>(30);
  const [daysError, setDaysError] = useState<string | undefined>();
  const plan = t(`adminUsers.plan.${level}`);
  const extend = useMutation({
    mutationFn: () => extendPlan({ userId: user.userId, level: Number(level), days: Number(days), requestId }),
    onSuccess: (result) => {
      notifySuccess(t('adminUsers.extend.done', { plan, date: format.date(result.endTime) }));
      onDone();
      onClose();
    },
    onError: onMutationError(),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = typeof days === 'number' ? days : Number.NaN;
    if (!Number.isInteger(n) || n < 1 || n > MAX_PLAN_DAYS) {
      setDaysError(t('adminUsers.extend.daysError', { max: MAX_PLAN_DAYS }));
      return;
    }
    extend.mutate();
  };
  return (
    <Modal opened onClose={onClose} title={t('adminUsers.extend.title')} centered>
      <form onSubmit={submit} noValidate aria-label={t('adminUsers.extend.title')}>
        <Stack gap="sm">
          <SegmentedControl
            aria-label={t('adminUsers.extend.level')}
            value={level}
            onChange={setLevel}
            data={['1', '2', '3'].map((value) => ({ value, label: t(`adminUsers.plan.${value}`) }))}
          />
          <NumberInput
            label={t('adminUsers.extend.days')}
            value={days}
            onChange={(value) => {
              setDays(value);
              setDaysError(undefined);
            }}
            min={1}
            max={MAX_PLAN_DAYS}
            allowDecimal={false}
            allowNegative={false}
            error={daysError}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={extend.isPending}>
              {t('adminUsers.action.cancel')}
            </Button>
            <Button type="submit" loading={extend.isPending}>
              {t('adminUsers.extend.submit', { days: typeof days === 'number' ? days : 0, plan })}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
