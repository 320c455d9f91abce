import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import 'mantine-datatable/styles.css';
import { RoutedTabs } from '../../components/ui/routed-tabs.tsx';
import { CouponsTab } from './coupons-tab.tsx';
import { InviteCodesTab, InviteUsesTab } from './invite-codes-tab.tsx';
import { InvitesTab } from './invites-tab.tsx';
import { OrdersTab } from './orders-tab.tsx';
import { PlansTab } from './plans-tab.tsx';
import { PosterTab } from './poster-tab.tsx';
import { RedeemTab } from './redeem-tab.tsx';
import { SubscriptionsTab } from './subscriptions-tab.tsx';
import './strings.ts';

const MONEY_TABS = ['plans', 'orders', 'subscriptions', 'redeem', 'coupons', 'invites', 'inviteCodes', 'inviteUses', 'poster'] as const;
type MoneyTab = (typeof MONEY_TABS)[number];

const PANELS: Record<MoneyTab, () => React.ReactNode> = {
  plans: () => <PlansTab />,
  orders: () => <OrdersTab />,
  subscriptions: () => <SubscriptionsTab />,
  redeem: () => <RedeemTab />,
  coupons: () => <CouponsTab />,
  invites: () => <InvitesTab />,
  inviteCodes: () => <InviteCodesTab />,
  inviteUses: () => <InviteUsesTab />,
  poster: () => <PosterTab />,
};

/** /admin/money/:tab — plans and prices, orders, subscriptions, redeem codes, coupons, invites (statistics, codes, uses), the invite poster. */
export function MoneyPage() {
  const { t } = useTranslation();
  const { tab: param } = useParams<{ tab?: string }>();
  const [, navigate] = useLocation();
  const tab: MoneyTab = (MONEY_TABS as readonly string[]).includes(param ?? '') ? (param as MoneyTab) : 'plans';
  return (
    <Stack>
      <Title order={2}>{t('adminMoney.title')}</Title>
      <RoutedTabs tabs={MONEY_TABS} value={tab} onChange={(next) => navigate(`/admin/money/${next}`)} label={(name) => t(`adminMoney.tabs.${name}`)} panel={(name) => PANELS[name]()} />
    </Stack>
  );
}
