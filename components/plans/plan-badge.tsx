import { Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/plans.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import type { UserInfo } from '../../shared/contracts/user.ts';
import { planColor, planDate, planName, planTier } from '../../shared/utils/plan-level.ts';
import { IconCrown } from '../ui/icons.tsx';

addEnglishStrings(en);

export interface PlanSummaryProps {
  /** 0 for the free plan. */
  level: number;
  name: string;
  /** What to say under the name: when it renews or ends. */
  detail?: ReactNode;
  children?: ReactNode;
}

/** The plan in force as a card: the crown and name in the level's colour, the dates, and actions. */
export function PlanSummary({ level, name, detail, children }: PlanSummaryProps) {
  const color = planColor(level);
  return (
    <Paper withBorder p="md" radius={6} data-testid="plan-summary" data-tier={planTier(level)} style={{ borderColor: color, borderWidth: 2 }}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <IconCrown size={28} style={{ color, flexShrink: 0 }} />
          <Stack gap={2} ta="start" style={{ minWidth: 0 }}>
            <Text fw={700} size="lg" style={{ color }} truncate>
              {name}
            </Text>
            {detail && (
              <Text size="sm" c="dimmed">
                {detail}
              </Text>
            )}
          </Stack>
        </Group>
        {children}
      </Group>
    </Paper>
  );
}

/** The user's plan from the account (vipOrder): its name, or the free plan, and when it ends. */
export function UserPlanSummary({ user, children }: { user: UserInfo; children?: ReactNode }) {
  const { t } = useTranslation();
  const order = user.vipOrder;
  if (!order) {
    return (
      <PlanSummary level={0} name={t('plans.freeVersion')} detail={t('plans.freeDetail')}>
        {children}
      </PlanSummary>
    );
  }
  return (
    <PlanSummary level={order.vipPackageLevel} name={planName(order.vipPackageLevel, order.vipPackageName, t)} detail={t('plans.expires', { date: planDate(order.endTime) })}>
      {children}
    </PlanSummary>
  );
}
