import { ActionIcon, Alert, Badge, Button, Center, Group, Loader, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { deleteVipOrder, vipOrderListQuery } from '../../shared/api/plans.ts';
import { tokenAtom } from '../../shared/atoms/auth.ts';
import type { VipOrder } from '../../shared/contracts/plans.ts';
import { formatMoney } from '../../shared/utils/money.ts';
import { planColor, planDate, planName } from '../../shared/utils/plan-level.ts';
import { IconX } from '../ui/icons.tsx';
import { notifySuccess, onMutationError } from '../ui/notify.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import strings from '../../locales/features/order-history.en.json';
import plansStrings from '../../locales/features/plans.en.json';

addEnglishStrings(strings);
addEnglishStrings(plansStrings);

const STATUS_COLORS: Record<VipOrder['status'], string> = { paid: 'teal', refunded: 'orange', granted: 'blue' };

/** The caller's orders, newest first, 10 at a time; an order can be hidden from the list (it stays in force). */
export function OrderHistory() {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const queryClient = useQueryClient();
  const query = vipOrderListQuery(token);
  const orders = useInfiniteQuery(query);
  const hide = useMutation({
    mutationFn: (order: VipOrder) => deleteVipOrder(order.vipOrderId),
    onSuccess: async () => {
      notifySuccess(t('plans.orders.hidden'));
      await queryClient.invalidateQueries({ queryKey: query.queryKey });
    },
    onError: onMutationError((message) => message || t('plans.orders.hideFailed')),
  });
  const list = orders.data?.pages.flatMap((page) => page.list) ?? [];

  return (
    <Stack gap="xs" data-testid="order-history">
      <Text fw={600}>{t('plans.orders.title')}</Text>
      {orders.isPending && (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      )}
      {orders.isError && (
        <Alert color="red" variant="light">
          <Group justify="space-between">
            <Text size="sm">{t('plans.orders.loadFailed')}</Text>
            <Button size="xs" variant="light" onClick={() => void orders.refetch()}>
              {t('plans.retry')}
            </Button>
          </Group>
        </Alert>
      )}
      {orders.isSuccess && list.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('plans.orders.empty')}
        </Text>
      )}
      {list.map((order) => (
        <OrderRow key={order.vipOrderId} order={order} hiding={hide.isPending && hide.variables?.vipOrderId === order.vipOrderId} onHide={() => hide.mutate(order)} />
      ))}
      {orders.hasNextPage && (
        <Button variant="subtle" loading={orders.isFetchingNextPage} onClick={() => void orders.fetchNextPage()}>
          {t('plans.orders.loadMore')}
        </Button>
      )}
    </Stack>
  );
}

function OrderRow({ order, hiding, onHide }: { order: VipOrder; hiding: boolean; onHide: () => void }) {
  const { t, i18n } = useTranslation();
  const amount = order.amount !== null && order.currency ? formatMoney(order.amount, order.currency, i18n.language) : null;
  const source = ['stripe', 'redeem', 'admin'].includes(order.source) ? order.source : 'grant';
  return (
    <Paper withBorder p="sm" radius={6} data-testid="order-row">
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="wrap">
            <Text fw={600} size="sm" style={{ color: planColor(order.level) }}>
              {planName(order.level, order.packageName, t)}
            </Text>
            {order.period && (
              <Badge size="xs" variant="light" color="gray">
                {t(`plans.period.${order.period}`)}
              </Badge>
            )}
            <Badge size="xs" variant="light" color={STATUS_COLORS[order.status]}>
              {t(`plans.orders.status.${order.status}`)}
            </Badge>
            {order.active && (
              <Badge size="xs" variant="dot" color="teal">
                {t('plans.orders.active')}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {t('plans.orders.dates', { start: planDate(order.startTime), end: planDate(order.endTime) })}
            {' · '}
            {t(`plans.orders.source.${source}`)}
          </Text>
        </Stack>
        <Group gap={4} wrap="nowrap">
          <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
            {amount ?? '—'}
          </Text>
          <Tooltip label={t('plans.orders.hide')}>
            <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('plans.orders.hideOrder', { name: planName(order.level, order.packageName, t) })} loading={hiding} onClick={onHide}>
              <IconX size={14} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </Paper>
  );
}
