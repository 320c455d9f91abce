import { Paper, Text, UnstyledButton } from '@mantine/core';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../../shared/contracts/user.ts';
import { FREE_PLAN_COLOR as FREE_COLOR, PLAN_LEVEL_COLORS, planColor, planName, planTier } from '../../shared/utils/plan-level.ts';
import { IconCrown } from '../ui/icons.tsx';

/** The card's colour follows the plan tier, vipPackageLevel 1 to 3; free plans are grey. */
export const VIP_TIER_COLORS: Readonly<Record<number, string>> = PLAN_LEVEL_COLORS;
export const FREE_PLAN_COLOR = FREE_COLOR;

/**
 * The plan the user is on: its name (or 'free version'), its tier colour and when it ends (YYYY-MM-DD).
 * With `onOpen` the card is a button to the plans.
 */
export function PlanCard({ user, onOpen }: { user: UserInfo; onOpen?: () => void }) {
  const { t } = useTranslation();
  const order = user.vipOrder;
  const level = order ? Math.max(1, planTier(order.vipPackageLevel)) : 0;
  const color = order ? planColor(level) : FREE_PLAN_COLOR;
  const card = (
    <Paper
      data-testid="vip-card"
      data-tier={level}
      withBorder
      p={8}
      radius={6}
      style={{ borderColor: color, display: 'flex', alignItems: 'center', gap: 8 }}
    >
      <IconCrown size={18} style={{ color, flexShrink: 0 }} />
      <div style={{ minWidth: 0 }}>
        {/* The tier's colour marks the border and the crown; the name is in the text colour (the tiers' colours are under 4.5:1 on white). */}
        <Text size="sm" fw={600} truncate>
          {order ? planName(order.vipPackageLevel, order.vipPackageName, t) : t('chat.sider.freeVersion')}
        </Text>
        {order && (
          <Text size="xs" c="dimmed">
            {t('chat.sider.expires', { date: dayjs(order.endTime).format('YYYY-MM-DD') })}
          </Text>
        )}
      </div>
    </Paper>
  );
  return onOpen ? (
    <UnstyledButton onClick={onOpen} display="block" w="100%">
      {card}
    </UnstyledButton>
  ) : (
    card
  );
}
