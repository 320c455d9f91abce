import { Paper, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../../shared/contracts/user.ts';
import { IconCrown } from '../ui/icons.tsx';

/** The card's colour follows the plan tier, vipPackageLevel 1 to 3; free plans are grey. */
export const VIP_TIER_COLORS: Record<number, string> = { 1: '#3b82f6', 2: '#7b7ddb', 3: '#f59f00' };
export const FREE_PLAN_COLOR = '#868e96';

/** The plan the user is on: its name (or 'free version'), its tier colour and when it ends (YYYY-MM-DD). */
export function VipCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const order = user.vipOrder;
  const level = order ? Math.min(3, Math.max(1, order.vipPackageLevel)) : 0;
  const color = order ? VIP_TIER_COLORS[level] : FREE_PLAN_COLOR;
  return (
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
        <Text size="sm" fw={600} truncate style={{ color }}>
          {order?.vipPackageName || t('chat.sider.freeVersion')}
        </Text>
        {order && (
          <Text size="xs" c="dimmed">
            {t('chat.sider.expires', { date: dayjs(order.endTime).format('YYYY-MM-DD') })}
          </Text>
        )}
      </div>
    </Paper>
  );
}
