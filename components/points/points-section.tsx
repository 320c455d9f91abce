import './points.css';
import { Anchor, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/points.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import type { TFunction } from 'i18next';
import type { PointsBalance } from '../../shared/api/points-balance.ts';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import { IconCoin, IconGift } from '../ui/icons.tsx';
import { CheckinCard } from './checkin-card.tsx';
import { formatPoints } from './points-format.ts';
import { PointsHistory } from './points-history.tsx';
import { PromoCodeDialog } from './promo-code-dialog.tsx';
import { useBalance } from './use-points.ts';

addEnglishStrings(en);

/**
 * When today's free allowance is refilled, in the user's own time: "resets at midnight" when the
 * server's day turns at the user's midnight, else the local time it does ("resets at 8:00 AM").
 */
function resetWording(resetsAt: string, language: string, t: TFunction): string | null {
  const at = new Date(resetsAt);
  if (Number.isNaN(at.getTime())) return null;
  if (at.getHours() === 0 && at.getMinutes() === 0) return t('points.resetsMidnight');
  return t('points.resetsAt', { time: new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit' }).format(at) });
}

/** The balance's parts beside it: today's free allowance and when it resets; the points kept, when there are any. */
function BalanceParts({ balance }: { balance: PointsBalance }) {
  const { t, i18n } = useTranslation();
  const n = (points: number) => formatPoints(points, i18n.language);
  const { free, kept } = balance;
  // An older server tells only the whole.
  if (!free && kept === undefined) return <Text size="xs" c="dimmed">{t('points.availableHint')}</Text>;
  const showFree = free !== undefined && free.daily > 0;
  const showKept = kept !== undefined && kept > 0;
  if (!showFree && !showKept) return null;
  const reset = showFree ? resetWording(free.resetsAt, i18n.language, t) : null;
  return (
    <Text size="xs" c="dimmed">
      {/* A narrow screen wraps between the parts, never inside one. */}
      {showFree && (
        <span data-testid="points-free">
          <span className="points-part">
            {free.left === free.daily ? t('points.freeToday', { left: n(free.left) }) : t('points.freeTodayOf', { left: n(free.left), daily: n(free.daily) })}
          </span>
          {reset && (
            <>
              {' · '}
              <span className="points-part">{reset}</span>
            </>
          )}
        </span>
      )}
      {showFree && showKept && ' · '}
      {showKept && (
        <span className="points-part" data-testid="points-kept">
          {t('points.kept', { points: n(kept) })}
        </span>
      )}
    </Text>
  );
}

/** The balance: one number, what can be spent now, and beside it what it is made of. */
function BalanceLine() {
  const { t, i18n } = useTranslation();
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
          {t('points.balance', { points: formatPoints(balance.available, i18n.language) })}
        </Text>
        <BalanceParts balance={balance} />
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
