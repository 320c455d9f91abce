import { Alert, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createPortalSession, invalidatePlans, setSubscriptionCancelled, subscriptionQuery } from '../../shared/api/plans.ts';
import { isLoggedInAtom, tokenAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import { isRunningSubscription, type Subscription } from '../../shared/contracts/plans.ts';
import type { UserInfo } from '../../shared/contracts/user.ts';
import { planDate, planName } from '../../shared/utils/plan-level.ts';
import { refreshUserInfo } from '../app-shell/account.ts';
import { useGoOutside } from '../app-shell/plans-link.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { IconCrown } from '../ui/icons.tsx';
import { failedWith } from '../ui/notify.ts';
import { OrderHistory } from './order-history.tsx';
import { PlanSummary, UserPlanSummary } from './plan-badge.tsx';
import { PlansFrame, SignInPrompt } from './plans-frame.tsx';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import strings from '../../locales/features/subscription.en.json';
import plansStrings from '../../locales/features/plans.en.json';

addEnglishStrings(strings);
addEnglishStrings(plansStrings);

export interface SubscriptionPageProps {
  onBack: () => void;
  onNavigate: (path: string) => void;
}

/**
 * The user's subscription (/subscription): the plan in force with when it renews or ends, cancelling
 * at the period's end and resuming, Stripe's portal for payment methods and invoices, and the order
 * history. A free user is offered the plans.
 */
export function SubscriptionPage({ onBack, onNavigate }: SubscriptionPageProps) {
  const { t } = useTranslation();
  const loggedIn = useAtomValue(isLoggedInAtom);
  return (
    <PlansFrame title={t('plans.subscription.title')} onBack={onBack}>
      {loggedIn ? (
        <>
          <CurrentPlan onNavigate={onNavigate} />
          <OrderHistory />
        </>
      ) : (
        <SignInPrompt message={t('plans.subscription.signInPrompt')} />
      )}
    </PlansFrame>
  );
}

function CurrentPlan({ onNavigate }: { onNavigate: (path: string) => void }) {
  const token = useAtomValue(tokenAtom);
  const user = useAtomValue(userInfoAtom);
  const subscription = useQuery(subscriptionQuery(token));
  if (subscription.isPending) return <Loader size="sm" mx="auto" />;
  const sub = subscription.data ?? null;
  const running = !!sub && isRunningSubscription(sub.status);
  if (running) return <RunningSubscription subscription={sub} />;
  if (!user?.vipOrder) return <GoPremium onNavigate={onNavigate} />;
  return (
    <Stack gap="sm">
      <UserPlanSummary user={user}>{sub?.portalAvailable && <PortalButton />}</UserPlanSummary>
      <PlanEndNote user={user} />
    </Stack>
  );
}

/** A plan without a running subscription (granted, or a subscription that ended) just ends. */
function PlanEndNote({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="dimmed">
      {t('plans.subscription.noRenewal', { date: planDate(user.vipOrder?.endTime) })}
    </Text>
  );
}

function GoPremium({ onNavigate }: { onNavigate: (path: string) => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg" radius={8} data-testid="go-premium">
      <Stack align="center" gap="sm" ta="center">
        <IconCrown size={32} style={{ color: '#7b7ddb' }} />
        <Text fw={600}>{t('plans.subscription.freeTitle')}</Text>
        <Text size="sm" c="dimmed">
          {t('plans.subscription.freeText')}
        </Text>
        <Button leftSection={<IconCrown size={16} />} onClick={() => onNavigate('/pricing')}>
          {t('plans.goPremium')}
        </Button>
      </Stack>
    </Paper>
  );
}

function PortalButton() {
  const { t } = useTranslation();
  const goOutside = useGoOutside();
  const portal = useMutation({ mutationFn: createPortalSession, onSuccess: (url) => goOutside(url) });
  return (
    <Stack gap={4} align="flex-end">
      <Button variant="default" loading={portal.isPending} onClick={() => portal.mutate()}>
        {t('plans.subscription.portal')}
      </Button>
      {portal.isError && (
        <Text size="xs" c="red" role="alert">
          {portal.error.message}
        </Text>
      )}
    </Stack>
  );
}

function RunningSubscription({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const token = useAtomValue(tokenAtom);
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const date = planDate(subscription.currentPeriodEnd);
  const change = useMutation({
    mutationFn: (cancel: boolean) => setSubscriptionCancelled(cancel),
    onSuccess: async (result, cancel) => {
      const end = planDate(result.endTime) || date;
      setConfirming(false);
      setNotice(cancel ? t('plans.subscription.cancelled', { date: end }) : t('plans.subscription.resumed', { date: end }));
      queryClient.setQueryData(subscriptionQuery(token).queryKey, (old) =>
        old ? { ...old, cancelAtPeriodEnd: result.cancelAtPeriodEnd, currentPeriodEnd: result.endTime ?? old.currentPeriodEnd } : old,
      );
      await Promise.all([invalidatePlans(queryClient), refreshUserInfo(queryClient)]);
    },
  });
  const ending = subscription.cancelAtPeriodEnd;
  const detail = [
    t(`plans.period.${subscription.period}`),
    date ? t(ending ? 'plans.subscription.endsOn' : 'plans.subscription.renewsOn', { date }) : null,
  ]
    .filter(Boolean)
    .join(' · ');

  return (
    <Stack gap="sm">
      <PlanSummary level={subscription.level} name={planName(subscription.level, subscription.packageName, t)} detail={<span data-testid="plan-dates">{detail}</span>}>
        {subscription.portalAvailable && <PortalButton />}
      </PlanSummary>
      {subscription.status === 'past_due' && (
        <Alert color="orange" variant="light">
          {t('plans.subscription.pastDue')}
        </Alert>
      )}
      {notice && (
        <Alert color={ending ? 'yellow' : 'teal'} variant="light" role="status" data-testid="subscription-notice">
          {notice}
        </Alert>
      )}
      {change.isError && (
        <Alert color="red" variant="light" role="alert">
          {/* Cancelling: the spec's 'cancel failed', with the reason. */}
          {change.variables ? failedWith(t('errors.cancelFailed'), change.error) : change.error.message}
        </Alert>
      )}
      <Group gap="xs">
        {ending ? (
          <Button variant="light" loading={change.isPending} onClick={() => change.mutate(false)}>
            {t('plans.subscription.resume')}
          </Button>
        ) : (
          <Button variant="default" color="red" onClick={() => setConfirming(true)}>
            {t('plans.subscription.cancel')}
          </Button>
        )}
      </Group>
      <ConfirmDialog
        opened={confirming}
        title={t('plans.subscription.cancelConfirmTitle')}
        message={t('plans.subscription.cancelConfirm', { date })}
        confirmLabel={t('plans.subscription.cancelConfirmButton')}
        cancelLabel={t('plans.subscription.keep')}
        loading={change.isPending}
        danger
        onConfirm={() => change.mutate(true)}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}
