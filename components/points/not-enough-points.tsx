import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import en from '../../locales/features/points.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { usePlansLink } from '../app-shell/plans-link.ts';
import { IconCrown } from '../ui/icons.tsx';
import { CheckinButton } from './checkin-card.tsx';

addEnglishStrings(en);

export interface NotEnoughPointsProps {
  /** The server's message (10470: "Not Enough Points. Check in daily for free points."). */
  message: string;
}

/**
 * In place of the error of a message refused for want of points (10470): the server's message, the
 * check-in button while today's is not done, and the way to a plan (the vip_url setting, opened as the
 * sidebar's plan card opens it: usePlansLink).
 */
export function NotEnoughPoints({ message }: NotEnoughPointsProps) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const openPlans = usePlansLink();
  return (
    <Alert color="yellow" variant="light" p={8} role="alert" data-testid="not-enough-points">
      <Text size="sm" fw={500}>
        {message}
      </Text>
      <Group gap="xs" mt={8}>
        <CheckinButton />
        <Button
          size="xs"
          variant="light"
          color="violet"
          leftSection={<IconCrown size={14} />}
          onClick={() => openPlans(navigate)}
        >
          {t('points.notEnough.upgrade')}
        </Button>
      </Group>
    </Alert>
  );
}
