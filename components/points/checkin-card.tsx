import './points.css';
import { Anchor, Badge, Button, Group, Loader, Paper, Text } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/points.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import { IconCalendarCheck } from '../ui/icons.tsx';
import { formatPoints } from './points-format.ts';
import { checkinFailure, useBalance, useCheckIn, useCheckinStatus } from './use-points.ts';

addEnglishStrings(en);

/**
 * The check-in button alone (the Not-Enough-Points notice): "Check in +10" while today is not done,
 * nothing once it is. A refusal (done already: 10409) is shown beside it in the server's words.
 */
export function CheckinButton() {
  const { t } = useTranslation();
  const status = useCheckinStatus();
  const checkIn = useCheckIn();
  return (
    <>
      {status.data && !status.data.signedIn && (
        <Button size="xs" loading={checkIn.isPending} onClick={() => checkIn.mutate()} data-testid="checkin-button">
          {t('points.checkin.button', { points: status.data.points })}
        </Button>
      )}
      {checkIn.isError && (
        <Text size="xs" c="red" role="alert" data-testid="checkin-error">
          {checkinFailure(checkIn.error, t('points.checkin.failed'))}
        </Text>
      )}
    </>
  );
}

/** The streak and today's points, as a line of the card. */
function StreakLine({ signedIn, streak, points }: { signedIn: boolean; streak: number; points: number }) {
  const { t } = useTranslation();
  const parts = [
    streak > 0 ? t('points.checkin.streak', { count: streak }) : t('points.checkin.noStreak'),
    signedIn ? t('points.checkin.gave', { points }) : t('points.checkin.gives', { points }),
  ];
  return (
    <Text size="xs" c="dimmed" data-testid="checkin-streak">
      {parts.join(' · ')}
    </Text>
  );
}

export interface CheckinCardProps {
  /** On the chat's welcome screen: the balance beside the title, the card centred under the welcome. */
  home?: boolean;
}

/**
 * Today's check-in, for signed-in users: whether it is done, the streak, the points it gives, and
 * the button. Small enough for the chat's welcome screen.
 */
export function CheckinCard({ home = false }: CheckinCardProps) {
  const { t, i18n } = useTranslation();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const status = useCheckinStatus();
  const checkIn = useCheckIn();
  const { balance } = useBalance();
  if (!loggedIn) return null;

  const done = status.data?.signedIn ?? false;
  return (
    <Paper withBorder radius={6} px="sm" py={8} className={home ? 'points-checkin-home' : undefined} data-testid="checkin-card" data-done={done}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
          <IconCalendarCheck size={18} style={{ flexShrink: 0, color: done ? 'var(--mantine-color-teal-6)' : '#7b7ddb' }} />
          <div style={{ minWidth: 0 }}>
            <Text size="sm" fw={600}>
              {t('points.checkin.title')}
              {home && balance && (
                <Text span size="xs" c="dimmed" fw={400} ml={8} data-testid="checkin-balance">
                  {t('points.checkin.balance', { points: formatPoints(balance.available, i18n.language) })}
                </Text>
              )}
            </Text>
            {status.data && <StreakLine {...status.data} />}
            {status.isError && (
              <Text size="xs" c="red">
                {t('points.loadFailed')}{' '}
                <Anchor component="button" type="button" size="xs" onClick={() => void status.refetch()}>
                  {t('points.retry')}
                </Anchor>
              </Text>
            )}
            {checkIn.isError && (
              <Text size="xs" c="red" role="alert" data-testid="checkin-error">
                {checkinFailure(checkIn.error, t('points.checkin.failed'))}
              </Text>
            )}
          </div>
        </Group>
        {status.isPending && <Loader size="xs" aria-label={t('points.loading')} />}
        {status.data && !done && (
          <Button size="xs" style={{ flexShrink: 0 }} loading={checkIn.isPending} onClick={() => checkIn.mutate()} data-testid="checkin-button">
            {t('points.checkin.button', { points: status.data.points })}
          </Button>
        )}
        {done && (
          <Badge color="teal" variant="light" tt="none" style={{ flexShrink: 0 }}>
            {t('points.checkin.done')}
          </Badge>
        )}
      </Group>
    </Paper>
  );
}
