import './points.css';
import { Anchor, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import { IconCoin, IconGift } from '../ui/icons.tsx';
import { CheckinCard } from './checkin-card.tsx';
import { PointsHistory } from './points-history.tsx';
import { PromoCodeDialog } from './promo-code-dialog.tsx';
import { useBalance } from './use-points.ts';

/** The balance: what is available (today's free allowance included) and what was spent. */
function BalanceLine() {
  const { t } = useTranslation();
  const { balance, query } = useBalance();
  if (query.isPending) return <Loader size="xs" aria-label={t('points.loading')} />;
  if (!balance) {
    return (
      <Text size="sm" c="red">
        {t('points.loadFailed')}{' '}
        <Anchor component="button" type="button" size="sm" onClick={() => void query.refetch()}>
          {t('points.retry')}
        </Anchor>
      </Text>
    );
  }
  return (
    <Group gap={8} wrap="nowrap" align="center">
      <IconCoin size={22} style={{ color: '#f59f00', flexShrink: 0 }} />
      <div>
        <Text size="lg" fw={700} lh={1.2} data-testid="points-balance">
          {t('points.balance', { points: balance.available })}
        </Text>
        <Text size="xs" c="dimmed">
          {t('points.availableHint')} · {t('points.used', { points: balance.used })}
        </Text>
      </div>
    </Group>
  );
}

/**
 * Settings' Points section, for signed-in users: the balance, the promo-code dialog, today's
 * check-in and the points history.
 */
export function PointsSection() {
  const { t } = useTranslation();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const [redeeming, setRedeeming] = useState(false);
  if (!loggedIn) return null;
  return (
    <Paper withBorder p="md" radius={6} data-testid="points-section">
      <Text fw={600} mb="sm">
        {t('points.title')}
      </Text>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" align="center">
          <BalanceLine />
          <Button variant="light" size="xs" leftSection={<IconGift size={14} />} onClick={() => setRedeeming(true)}>
            {t('points.redeem.open')}
          </Button>
        </Group>
        <CheckinCard />
        <Text size="sm" fw={600} mt={4}>
          {t('points.history.title')}
        </Text>
        <PointsHistory />
      </Stack>
      <PromoCodeDialog opened={redeeming} onClose={() => setRedeeming(false)} />
    </Paper>
  );
}
