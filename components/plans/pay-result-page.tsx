import { Button, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue, useStore } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getSubscription, invalidatePlans } from '../../shared/api/plans.ts';
import { getUserByLogin } from '../../shared/api/user.ts';
import { authActionAtom, isLoggedInAtom } from '../../shared/atoms/auth.ts';
import type { UserInfo } from '../../shared/contracts/user.ts';
import { planDate, planTier } from '../../shared/utils/plan-level.ts';
import { refreshUserInfo } from '../app-shell/account.ts';
import { IconCheck, IconX } from '../ui/icons.tsx';
import { forgetPurchase, pendingPurchase } from './pending-purchase.ts';
import { UserPlanSummary } from './plan-badge.tsx';
import { PlansFrame, SignInPrompt } from './plans-frame.tsx';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import strings from '../../locales/features/pay-result.en.json';

addEnglishStrings(strings);

/** How often, and how long, the success page asks whether the plan has arrived. */
export const PLAN_POLL_INTERVAL_MS = 2_000;
export const PLAN_POLL_TIMEOUT_MS = 30_000;

export interface PayResultPageProps {
  /** `success` or `cancel`, from the address Stripe returned to. */
  status: string;
  onNavigate: (path: string) => void;
  /** Other queries to read again once the plan is in force (the model list, whose locks follow the plan). */
  onPlanChanged?: () => void;
  /** How often and how long to ask (tests shorten them); 2 s and 30 s by default. */
  poll?: { intervalMs: number; timeoutMs: number };
}

const DEFAULT_POLL = { intervalMs: PLAN_POLL_INTERVAL_MS, timeoutMs: PLAN_POLL_TIMEOUT_MS };

/**
 * Where Stripe's checkout returns (/pricing/pay?status=success|cancel&session_id=). Returning proves
 * nothing (only the webhook applies a payment): after a success the page asks for the user every
 * 2 s, up to 30 s, until the plan shows, then says which plan and until when.
 */
export function PayResultPage({ status, onNavigate, onPlanChanged, poll = DEFAULT_POLL }: PayResultPageProps) {
  const { t } = useTranslation();
  const success = status === 'success';
  return (
    <PlansFrame title={success ? t('plans.pay.successTitle') : t('plans.pay.cancelTitle')} onBack={() => onNavigate('/')} backLabel={t('plans.pay.home')} width={560}>
      {success ? <PaySuccess onNavigate={onNavigate} onPlanChanged={onPlanChanged} poll={poll} /> : <PayCancelled onNavigate={onNavigate} />}
    </PlansFrame>
  );
}

function ResultCard({ ok, title, children }: { ok: boolean; title: string; children: React.ReactNode }) {
  return (
    <Paper withBorder radius={8} p="xl" data-testid={ok ? 'pay-success' : 'pay-cancel'}>
      <Stack align="center" gap="md" ta="center">
        <ThemeIcon size={56} radius={56} color={ok ? 'teal' : 'gray'} variant="light">
          {ok ? <IconCheck size={30} /> : <IconX size={30} />}
        </ThemeIcon>
        <Title order={3}>{title}</Title>
        {children}
      </Stack>
    </Paper>
  );
}

function PayCancelled({ onNavigate }: { onNavigate: (path: string) => void }) {
  const { t } = useTranslation();
  return (
    <ResultCard ok={false} title={t('plans.pay.cancelTitle')}>
      <Text c="dimmed">{t('plans.pay.cancelText')}</Text>
      <Group justify="center">
        <Button onClick={() => onNavigate('/')}>{t('plans.pay.home')}</Button>
        <Button variant="default" onClick={() => onNavigate('/pricing')}>
          {t('plans.pay.seePlans')}
        </Button>
      </Group>
    </ResultCard>
  );
}

type Wait = { state: 'waiting' } | { state: 'done'; user: UserInfo } | { state: 'slow' };

/** The level the payment was for: this tab's checkout, else the subscription's (checkout opened elsewhere). */
async function expectedLevel(): Promise<number> {
  const pending = pendingPurchase();
  if (pending) return planTier(pending.level) || 1;
  const subscription = await getSubscription().catch(() => null);
  return planTier(subscription?.level) || 1;
}

/** Asks for the user every 2 s until the plan is at the expected level, for up to 30 s. */
function usePlanArrival(enabled: boolean, poll: { intervalMs: number; timeoutMs: number }, onPlanChanged?: () => void): Wait {
  const store = useStore();
  const queryClient = useQueryClient();
  const [wait, setWait] = useState<Wait>({ state: 'waiting' });
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = Date.now() + poll.timeoutMs;
    const check = async () => {
      // Asked each time: the subscription may be linked (checkout.session.completed) only after the return.
      const [wanted, user] = await Promise.all([expectedLevel(), getUserByLogin().catch(() => null)]);
      if (stopped) return;
      if (user && planTier(user.vipOrder?.vipPackageLevel) >= wanted) {
        forgetPurchase();
        await store.set(authActionAtom, { type: 'userInfo', userInfo: user });
        setWait({ state: 'done', user });
        onPlanChanged?.();
        void refreshUserInfo(queryClient);
        void invalidatePlans(queryClient);
        return;
      }
      if (Date.now() + poll.intervalMs > deadline) return setWait({ state: 'slow' });
      timer = setTimeout(() => void check(), poll.intervalMs);
    };
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // Once per visit of the page: a new onPlanChanged does not restart the wait.
  }, [enabled, store, queryClient, poll.intervalMs, poll.timeoutMs]);
  return wait;
}

interface PaySuccessProps {
  onNavigate: (path: string) => void;
  onPlanChanged?: () => void;
  poll: { intervalMs: number; timeoutMs: number };
}

function PaySuccess({ onNavigate, onPlanChanged, poll }: PaySuccessProps) {
  const { t } = useTranslation();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const wait = usePlanArrival(loggedIn, poll, onPlanChanged);
  if (!loggedIn) return <SignInPrompt message={t('plans.pay.signInPrompt')} />;
  return (
    <ResultCard ok title={t('plans.pay.successHeading')}>
      {wait.state === 'waiting' && (
        <Group gap="xs" justify="center" data-testid="plan-waiting">
          <Loader size="xs" />
          <Text c="dimmed">{t('plans.pay.waiting')}</Text>
        </Group>
      )}
      {wait.state === 'done' && (
        <Stack gap="sm" w="100%">
          <Text data-testid="plan-active">
            {t('plans.pay.active', { plan: wait.user.vipOrder?.vipPackageName ?? '', date: planDate(wait.user.vipOrder?.endTime) })}
          </Text>
          <UserPlanSummary user={wait.user} />
        </Stack>
      )}
      {wait.state === 'slow' && (
        <Text c="dimmed" data-testid="plan-slow">
          {t('plans.pay.slow')}
        </Text>
      )}
      <Group justify="center">
        <Button onClick={() => onNavigate('/')}>{t('plans.pay.home')}</Button>
        <Button variant="default" onClick={() => onNavigate('/subscription')}>
          {t('plans.pay.viewSubscription')}
        </Button>
      </Group>
    </ResultCard>
  );
}
