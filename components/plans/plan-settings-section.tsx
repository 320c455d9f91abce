import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { isLoggedInAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import { planColor, planDate, planName } from '../../shared/utils/plan-level.ts';
import { IconCrown } from '../ui/icons.tsx';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import strings from '../../locales/features/subscription.en.json';
import plansStrings from '../../locales/features/plans.en.json';

addEnglishStrings(strings);
addEnglishStrings(plansStrings);

/** Settings' way to the plans: the plan in force, the subscription page and the pricing page. */
export function PlanSettingsSection({ onNavigate }: { onNavigate: (path: string) => void }) {
  const { t } = useTranslation();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const order = useAtomValue(userInfoAtom)?.vipOrder ?? null;
  if (!loggedIn) return null;
  return (
    <Paper withBorder p="md" radius={6} data-testid="plan-settings">
      <Stack gap="xs" align="flex-start">
        <Text fw={600}>{t('plans.settings.title')}</Text>
        <Group gap={6} wrap="nowrap">
          <IconCrown size={16} style={{ color: planColor(order?.vipPackageLevel ?? 0), flexShrink: 0 }} />
          <Text size="sm">
            {order ? `${planName(order.vipPackageLevel, order.vipPackageName, t)} · ${t('plans.expires', { date: planDate(order.endTime) })}` : t('plans.freeVersion')}
          </Text>
        </Group>
        <Group gap="xs">
          <Button variant="light" onClick={() => onNavigate('/subscription')}>
            {t('plans.subscription.title')}
          </Button>
          <Button variant="default" onClick={() => onNavigate('/pricing')}>
            {order ? t('plans.userVip.pricing') : t('plans.goPremium')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
