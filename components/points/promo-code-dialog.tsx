import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import en from '../../locales/features/points.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { applyPromoCode, invalidatePoints, type PromoCodeOutcome } from '../../shared/api/points.ts';
import type { RedeemResult } from '../../shared/contracts/redeem-codes.ts';
import { refreshUserInfo } from '../app-shell/account.ts';
import { usePlansLink } from '../app-shell/plans-link.ts';
import { Modal } from '../ui/overlays.tsx';

addEnglishStrings(en);

export interface PromoCodeDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** What a redeem gave, in words: points, plan days at a level, or both. */
export function useRedeemSummary(): (result: RedeemResult) => string {
  const { t } = useTranslation();
  return (result) => {
    const plan = t(`points.planLevel.${Math.min(3, Math.max(1, result.planLevel))}`);
    if (result.points > 0 && result.planDays > 0) return t('points.redeem.successBoth', { points: result.points, count: result.planDays, plan });
    if (result.planDays > 0) return t('points.redeem.successPlan', { count: result.planDays, plan });
    return t('points.redeem.successPoints', { points: result.points });
  };
}

/**
 * The promo-code dialog, for redeem codes and coupons alike: the server says which a code is
 * without using it. A redeem code is redeemed at once: the dialog says what was received and reads
 * the balance, the history and the user (a plan granted by the code shows at once) again. A coupon is
 * described (what it takes off, or why it cannot be used) with a way to the plans, where it is applied
 * at checkout. The code is trimmed; Enter submits; the form is disabled while it is sent; a refusal
 * shows the server's message.
 */
export function PromoCodeDialog({ opened, onClose }: PromoCodeDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const summary = useRedeemSummary();
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);

  const redeem = useMutation({
    mutationFn: (value: string) => applyPromoCode(value),
    onSuccess: async (outcome: PromoCodeOutcome) => {
      setCode('');
      if (outcome.kind === 'redeem') await Promise.all([invalidatePoints(queryClient), refreshUserInfo(queryClient)]);
    },
  });

  const close = () => {
    if (redeem.isPending) return;
    redeem.reset();
    setCode('');
    setMissing(false);
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (redeem.isPending) return;
    const value = code.trim();
    if (!value) return setMissing(true);
    redeem.mutate(value);
  };

  const failure = redeem.isError ? (redeem.error instanceof Error && redeem.error.message) || t('points.redeem.failed') : null;
  return (
    <Modal opened={opened} onClose={close} title={t('points.redeem.title')} centered size="sm">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('points.redeem.hint')}
          </Text>
          <TextInput
            label={t('points.redeem.label')}
            placeholder={t('points.redeem.placeholder')}
            value={code}
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
            disabled={redeem.isPending}
            error={missing ? t('points.redeem.required') : undefined}
            onChange={(event) => {
              setCode(event.currentTarget.value);
              setMissing(false);
            }}
          />
          {failure && (
            <Alert color="red" variant="light" p={8} role="alert" data-testid="redeem-error">
              {failure}
            </Alert>
          )}
          {redeem.isSuccess && redeem.data.kind === 'redeem' && (
            <Alert color="teal" variant="light" p={8} role="status" data-testid="redeem-success">
              {summary(redeem.data.result)}
            </Alert>
          )}
          {redeem.isSuccess && redeem.data.kind === 'coupon' && <CouponFound code={redeem.data.code} coupon={redeem.data.coupon} onLeave={close} />}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={redeem.isPending}>
              {redeem.isSuccess ? t('points.redeem.done') : t('points.redeem.cancel')}
            </Button>
            <Button type="submit" loading={redeem.isPending}>
              {t('points.redeem.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A coupon entered in the dialog: what it gives (or why it cannot be used now) and the way to the plans, where it applies. */
function CouponFound({ code, coupon, onLeave }: { code: string; coupon: Extract<PromoCodeOutcome, { kind: 'coupon' }>['coupon']; onLeave: () => void }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const openPlans = usePlansLink();
  return (
    <Alert color={coupon.valid ? 'teal' : 'yellow'} variant="light" p={8} role="status" data-testid="coupon-found">
      <Stack gap={6}>
        <Text size="sm" fw={600}>
          {t('points.redeem.couponTitle', { code: code.toUpperCase() })}
        </Text>
        <Text size="sm">{coupon.message}</Text>
        {coupon.valid && (
          <Group>
            <Button
              size="xs"
              onClick={() => {
                onLeave();
                openPlans(navigate, `coupon=${encodeURIComponent(code)}`);
              }}
            >
              {t('points.redeem.couponUse')}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
