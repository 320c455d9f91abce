import { Anchor } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { modelListQuery } from '../../shared/api/chat.ts';
import type { PromoCodeDialogProps } from '../points/promo-code-dialog.tsx';
import { deferred } from '../ui/deferred.tsx';
import { PageSuspense } from './page-suspense.tsx';
import { SETTINGS_LAYOUT_SECTION, SettingsLayout } from './settings-layout.tsx';
import { lazyPiece } from '../ui/error-boundary.tsx';

/**
 * The plan pages (docs/economy.md#plans): /pricing, /pricing/pay (where Stripe's checkout returns),
 * /subscription and /user-vip. Each is a chunk fetched when first opened, none is on the first screen.
 */
const PricingPage = lazy(() => import('../plans/pricing-page.tsx').then((module) => ({ default: module.PricingPage })));
const PayResultPage = lazy(() => import('../plans/pay-result-page.tsx').then((module) => ({ default: module.PayResultPage })));
const SubscriptionPage = lazy(() => import('../plans/subscription-page.tsx').then((module) => ({ default: module.SubscriptionPage })));
const UserPlanPage = lazy(() => import('../plans/user-plan-page.tsx').then((module) => ({ default: module.UserPlanPage })));
/** Settings' way to the plans: fetched with the settings page. */
export const PlanSettingsSection = lazyPiece(() => import('../plans/plan-settings-section.tsx').then((module) => ({ default: module.PlanSettingsSection })));
/** The points feature's redeem dialog, offered on the pricing page when payments are not set up. */
const PromoCodeDialog = deferred<PromoCodeDialogProps>(() => import('../points/promo-code-dialog.tsx').then((module) => module.PromoCodeDialog)).Component;

/** Use a redeem code: opens the points feature's dialog. */
function RedeemEntry() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Anchor component="button" type="button" size="sm" onClick={() => setOpened(true)}>
        {t('plans.pricing.redeem')}
      </Anchor>
      <PromoCodeDialog opened={opened} onClose={() => setOpened(false)} />
    </>
  );
}

export function PricingRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <PricingPage onBack={() => navigate('/')} onNavigate={navigate} redeemEntry={<RedeemEntry />} />
    </PageSuspense>
  );
}

export function PayResultRoute() {
  const [, navigate] = useLocation();
  const search = useSearch();
  const queryClient = useQueryClient();
  const status = new URLSearchParams(search).get('status') ?? 'cancel';
  return (
    <PageSuspense>
      {/* The model list's locks follow the plan: read again once the plan is in force. */}
      <PayResultPage status={status} onNavigate={navigate} onPlanChanged={() => void queryClient.invalidateQueries({ queryKey: modelListQuery(true).queryKey.slice(0, 1) })} />
    </PageSuspense>
  );
}

export function SubscriptionRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <SettingsLayout active={SETTINGS_LAYOUT_SECTION.subscription}>
        <SubscriptionPage onBack={() => navigate('/')} onNavigate={navigate} />
      </SettingsLayout>
    </PageSuspense>
  );
}

export function UserVipRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <UserPlanPage onBack={() => navigate('/')} onNavigate={navigate} />
    </PageSuspense>
  );
}
