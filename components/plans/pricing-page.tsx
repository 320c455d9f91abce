import { Alert, Anchor, Badge, Button, Center, Group, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { createCheckout, subscriptionQuery, vipPackageListQuery, vipPackageModelsQuery } from '../../shared/api/plans.ts';
import { isLoggedInAtom, tokenAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import { openLoginDialogAtom } from '../../shared/atoms/login-dialog.ts';
import { isRunningSubscription, type Subscription, type VipPackage, type VipPeriod } from '../../shared/contracts/plans.ts';
import type { CatalogueModel } from '../../shared/contracts/model.ts';
import type { UserInfo } from '../../shared/contracts/user.ts';
import { formatMoney } from '../../shared/utils/money.ts';
import { planColor, planName, planTier } from '../../shared/utils/plan-level.ts';
import { useGoOutside } from '../app-shell/plans-link.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { IconCheck } from '../ui/icons.tsx';
import { rememberPurchase } from './pending-purchase.ts';
import { PlansFrame } from './plans-frame.tsx';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import strings from '../../locales/features/pricing.en.json';
import plansStrings from '../../locales/features/plans.en.json';

addEnglishStrings(strings);
addEnglishStrings(plansStrings);

export interface PricingPageProps {
  onBack: () => void;
  onNavigate: (path: string) => void;
  /**
   * Shown when payments are not set up: the way to redeem a code (the points feature's dialog,
   * composed by components/layout). Without it, a link to the settings.
   */
  redeemEntry?: ReactNode;
}

/** The currency of the reader's language: yuan in Chinese, dollars otherwise (the list falls back to dollars). */
export function currencyFor(language: string): string {
  return language === 'zh' ? 'cny' : 'usd';
}

/**
 * The pricing page (/pricing): the plans on sale in the reader's currency, by month or by year,
 * what each gives, the user's plan marked, and Subscribe, which sends the browser to Stripe's
 * checkout (a new tab in the extension). Without payments set up, how else to get a plan.
 */
export function PricingPage({ onBack, onNavigate, redeemEntry }: PricingPageProps) {
  const { t, i18n } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const user = useAtomValue(userInfoAtom);
  const [period, setPeriod] = useState<VipPeriod>('month');
  // A coupon brought from the promo dialog (?coupon=) is filled in.
  const [coupon, setCoupon] = useState(() => new URLSearchParams(window.location.search).get('coupon') ?? '');
  const packages = useQuery(vipPackageListQuery(currencyFor(i18n.language)));
  const subscription = useQuery(subscriptionQuery(token));

  const list = packages.data?.list ?? [];
  const shown = list.filter((pkg) => pkg.level === 0 || pkg.period === period);
  const hasYearly = list.some((pkg) => pkg.level > 0 && pkg.period === 'year');
  const yearlyDeal = list.some((pkg) => pkg.bestDeal && pkg.period === 'year');

  return (
    <PlansFrame title={t('plans.pricing.title')} onBack={onBack} width={1120}>
      <Text c="dimmed" size="sm">
        {t('plans.pricing.subtitle')}
      </Text>
      {packages.isPending && (
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      )}
      {packages.isError && (
        <Alert color="red" variant="light">
          <Group justify="space-between">
            <Text size="sm">{t('plans.pricing.loadFailed')}</Text>
            <Button size="xs" variant="light" onClick={() => void packages.refetch()}>
              {t('plans.retry')}
            </Button>
          </Group>
        </Alert>
      )}
      {packages.data && (
        <>
          {!packages.data.checkoutAvailable && <CheckoutUnavailable redeemEntry={redeemEntry} onOpenSettings={() => onNavigate('/setting/points')} />}
          {hasYearly && (
            <Group justify="center">
              <SegmentedControl
                value={period}
                onChange={(value) => setPeriod(value as VipPeriod)}
                aria-label={t('plans.pricing.periodLabel')}
                data={[
                  { value: 'month', label: t('plans.period.month') },
                  {
                    value: 'year',
                    label: yearlyDeal ? (
                      <Group gap={6} wrap="nowrap" justify="center">
                        <span>{t('plans.period.year')}</span>
                        <Text component="span" size="xs" fw={700} c="orange.7">
                          {t('plans.pricing.save')}
                        </Text>
                      </Group>
                    ) : (
                      t('plans.period.year')
                    ),
                  },
                ]}
              />
            </Group>
          )}
          <PlanGrid
            packages={shown}
            freeDailyPoints={packages.data.freeDailyPoints}
            checkoutAvailable={packages.data.checkoutAvailable}
            user={user}
            subscription={subscription.data ?? null}
            couponCode={coupon.trim()}
            onNavigate={onNavigate}
          />
          {packages.data.checkoutAvailable && <CouponField value={coupon} onChange={setCoupon} />}
        </>
      )}
    </PlansFrame>
  );
}

/** When payments are not set up: how to get a plan instead. */
function CheckoutUnavailable({ redeemEntry, onOpenSettings }: { redeemEntry?: ReactNode; onOpenSettings: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="blue" variant="light" title={t('plans.pricing.unavailableTitle')} data-testid="checkout-unavailable">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t('plans.pricing.unavailable')}</Text>
        {redeemEntry ?? (
          <Anchor component="button" type="button" size="sm" onClick={onOpenSettings}>
            {t('plans.pricing.openSettings')}
          </Anchor>
        )}
      </Stack>
    </Alert>
  );
}

function CouponField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(value !== '');
  if (!open) {
    return (
      <Center>
        <Anchor component="button" type="button" size="sm" onClick={() => setOpen(true)}>
          {t('plans.pricing.couponToggle')}
        </Anchor>
      </Center>
    );
  }
  return (
    <Center>
      <TextInput
        w={320}
        maw="100%"
        label={t('plans.pricing.couponLabel')}
        description={t('plans.pricing.couponHint')}
        value={value}
        maxLength={100}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    </Center>
  );
}

interface PlanGridProps {
  packages: VipPackage[];
  freeDailyPoints: number;
  checkoutAvailable: boolean;
  user: UserInfo | null;
  subscription: Subscription | null;
  couponCode: string;
  onNavigate: (path: string) => void;
}

/** Whether `pkg` is the plan the user holds: the free plan for free users; the subscribed package (or level) otherwise. */
function isCurrent(pkg: VipPackage, user: UserInfo | null, subscription: Subscription | null): boolean {
  const level = planTier(user?.vipOrder?.vipPackageLevel);
  if (!user) return false;
  if (pkg.level === 0 || level === 0) return pkg.level === level;
  if (pkg.level !== level) return false;
  const running = subscription && isRunningSubscription(subscription.status) && subscription.level === level;
  return running ? subscription.period === pkg.period : true;
}

function PlanGrid({ packages, freeDailyPoints, checkoutAvailable, user, subscription, couponCode, onNavigate }: PlanGridProps) {
  const { t } = useTranslation();
  const { isExtension } = usePlatform();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const openLogin = useSetAtom(openLoginDialogAtom);
  const goOutside = useGoOutside();
  const [openedInTab, setOpenedInTab] = useState(false);
  const checkout = useMutation({
    mutationFn: (pkg: VipPackage) => createCheckout({ vipPackageId: pkg.vipPackageId, currency: pkg.currency, ...(couponCode ? { couponCode } : {}) }),
    onSuccess: (url, pkg) => {
      rememberPurchase({ vipPackageId: pkg.vipPackageId, level: pkg.level, name: pkg.name });
      goOutside(url);
      if (isExtension) setOpenedInTab(true);
    },
  });
  const subscribe = (pkg: VipPackage) => (loggedIn ? checkout.mutate(pkg) : openLogin('plans.signInTip'));
  const running = !!subscription && isRunningSubscription(subscription.status);

  return (
    <Stack gap="md">
      {checkout.isError && (
        <Alert color="red" variant="light" role="alert" data-testid="checkout-error">
          {checkout.error.message || t('plans.pricing.checkoutFailed')}
        </Alert>
      )}
      {openedInTab && (
        <Alert color="blue" variant="light">
          {t('plans.pricing.openedInTab')}
        </Alert>
      )}
      {running && (
        <Alert color="gray" variant="light">
          <Group justify="space-between" gap="xs">
            <Text size="sm">{t('plans.pricing.subscribed')}</Text>
            <Anchor component="button" type="button" size="sm" onClick={() => onNavigate('/subscription')}>
              {t('plans.pricing.manage')}
            </Anchor>
          </Group>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2, md: Math.min(4, Math.max(1, packages.length)) }} spacing="md">
        {packages.map((pkg, index) => (
          <PlanCard
            key={pkg.vipPackageId}
            pkg={pkg}
            models={<PlanModels pkg={pkg} below={packages[index - 1]} />}
            freeDailyPoints={freeDailyPoints}
            current={isCurrent(pkg, user, subscription)}
            action={
              pkg.level > 0 && checkoutAvailable ? (
                <Button
                  fullWidth
                  color={pkg.bestDeal ? 'orange' : undefined}
                  loading={checkout.isPending && checkout.variables?.vipPackageId === pkg.vipPackageId}
                  disabled={checkout.isPending}
                  onClick={() => subscribe(pkg)}
                  aria-label={t('plans.pricing.subscribeTo', { plan: planName(pkg.level, pkg.name, t), period: t(`plans.period.${pkg.period}`) })}
                >
                  {t('plans.pricing.subscribe')}
                </Button>
              ) : null
            }
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** How many model names a card lists before "and N more"; the rest open on demand. */
export const MODEL_NAMES_SHOWN = 6;

/**
 * What a plan unlocks, as the server answers it for the package (GetModelListByVipPackageId): the
 * models whose level the plan reaches. A card after a cheaper one says only what it adds, or that it
 * adds no model (never a promise the catalogue does not keep). Past a handful of names, "and N more"
 * with a button to show them all. Nothing is said until the lists have come (rather than guess).
 */
function PlanModels({ pkg, below }: { pkg: VipPackage; below: VipPackage | undefined }) {
  const { t, i18n } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const own = useQuery(vipPackageModelsQuery(pkg.vipPackageId));
  // Without a cheaper card, the same key as `own` and switched off: nothing more is asked.
  const base = useQuery({ ...vipPackageModelsQuery(below?.vipPackageId ?? pkg.vipPackageId), enabled: below !== undefined });
  if (own.isError || (below && base.isError)) {
    return (
      <Feature>
        <span data-testid="plan-models" data-state="error">
          {t('plans.pricing.modelsFailed')}
        </span>
      </Feature>
    );
  }
  if (!own.data || (below && !base.data)) return null;
  const inBase = new Set(below ? base.data!.list.map((m) => m.aiModelId) : []);
  const added = own.data.list.filter((m) => !inBase.has(m.aiModelId));
  const hidden = expanded ? 0 : Math.max(0, added.length - MODEL_NAMES_SHOWN);
  const names = namesOf(added.slice(0, added.length - hidden), i18n.language);
  const listed = hidden > 0 ? t('plans.pricing.modelsMore', { models: names, more: hidden }) : names;
  const basePlan = below ? planName(below.level, below.name, t) : '';
  let text: string;
  if (!below) text = added.length ? t('plans.pricing.models', { models: listed }) : t('plans.pricing.noModels');
  else if (added.length) text = t('plans.pricing.modelsPlus', { plan: basePlan, models: listed });
  else text = t('plans.pricing.modelsSame', { plan: basePlan });
  const expandable = added.length > MODEL_NAMES_SHOWN;
  return (
    <Feature>
      <span data-testid="plan-models">{text}</span>
      {expandable && (
        <>
          {' '}
          <Anchor
            component="button"
            type="button"
            size="sm"
            aria-expanded={expanded}
            aria-label={t(expanded ? 'plans.pricing.modelsFewerLabel' : 'plans.pricing.modelsAllLabel', { plan: planName(pkg.level, pkg.name, t) })}
            onClick={() => setExpanded((open) => !open)}
            style={{ verticalAlign: 'baseline' }}
          >
            {expanded ? t('plans.pricing.modelsFewer') : t('plans.pricing.modelsAll', { total: added.length })}
          </Anchor>
        </>
      )}
    </Feature>
  );
}

function namesOf(models: readonly CatalogueModel[], language: string): string {
  return models.map((m) => m.name).join(language === 'zh' ? '、' : ', ');
}

interface PlanCardProps {
  pkg: VipPackage;
  models: ReactNode;
  freeDailyPoints: number;
  current: boolean;
  action: ReactNode;
}

function PlanCard({ pkg, models, freeDailyPoints, current, action }: PlanCardProps) {
  const { t, i18n } = useTranslation();
  const color = planColor(pkg.level);
  const free = pkg.level === 0;
  const price = formatMoney(pkg.price, pkg.currency, i18n.language);
  const highlight = current ? color : pkg.bestDeal ? 'var(--mantine-color-orange-5)' : undefined;
  return (
    <Paper
      withBorder
      radius={8}
      p="lg"
      data-testid="plan-card"
      data-package={pkg.vipPackageId}
      data-current={current || undefined}
      style={{ display: 'flex', flexDirection: 'column', gap: 12, borderColor: highlight, borderWidth: highlight ? 2 : undefined, position: 'relative' }}
    >
      <Group justify="space-between" wrap="nowrap" gap={6} mih={22}>
        <Text fw={700} size="lg" style={{ color }}>
          {planName(pkg.level, pkg.name, t)}
        </Text>
        <Group gap={4} wrap="nowrap">
          {pkg.bestDeal && (
            <Badge color="orange" variant="filled" size="sm">
              {t('plans.pricing.bestDeal')}
            </Badge>
          )}
          {current && (
            <Badge color="gray" variant="light" size="sm" data-testid="current-plan">
              {t('plans.pricing.currentPlan')}
            </Badge>
          )}
        </Group>
      </Group>
      <div>
        <Text component="span" fw={700} fz={28} lh={1.2}>
          {free ? formatMoney(0, pkg.currency, i18n.language) : price}
        </Text>
        <Text component="span" c="dimmed" size="sm">
          {' '}
          {t(`plans.pricing.per.${pkg.period}`)}
        </Text>
        {!free && pkg.period === 'year' && (
          <Text size="xs" c="dimmed">
            {t('plans.pricing.monthlyEquivalent', { price: formatMoney(Math.round(pkg.price / 12), pkg.currency, i18n.language) })}
          </Text>
        )}
      </div>
      <Stack gap={6} style={{ flex: 1 }}>
        <Feature>
          {free
            ? t('plans.pricing.dailyPoints', { points: freeDailyPoints.toLocaleString(i18n.language) })
            : t('plans.pricing.monthlyPoints', { points: pkg.monthlyPoints.toLocaleString(i18n.language) })}
        </Feature>
        {!free && pkg.period === 'year' && (
          <Feature>{t('plans.pricing.periodPoints', { points: pkg.periodPoints.toLocaleString(i18n.language) })}</Feature>
        )}
        {models}
      </Stack>
      {action}
    </Paper>
  );
}

function Feature({ children }: { children: ReactNode }) {
  return (
    <Group gap={8} wrap="nowrap" align="flex-start">
      <IconCheck size={16} style={{ color: 'var(--mantine-color-teal-6)', flexShrink: 0, marginTop: 2 }} />
      <Text size="sm">{children}</Text>
    </Group>
  );
}
