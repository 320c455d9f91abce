import { Button, Center, Group, Loader, Pagination, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HISTORY_PAGE_SIZE, pointsHistoryQuery } from '../../shared/api/points.ts';
import { tokenAtom } from '../../shared/atoms/auth.ts';
import type { LedgerEntry } from '../../shared/contracts/points.ts';

/** A change of points with its sign: +10, −3, 0. */
export function signed(points: number): string {
  if (points > 0) return `+${points}`;
  if (points < 0) return `\u2212${-points}`;
  return '0';
}

/** One entry: what it was, when, its note; the change (and the free allowance it took), the balance after. */
function HistoryRow({ entry }: { entry: LedgerEntry }) {
  const { t } = useTranslation();
  // A use the free allowance covered whole changed the balance by nothing: the allowance part says it all.
  const showDelta = entry.delta !== 0 || entry.allowance === 0;
  const note = entry.note.trim();
  return (
    <Group component="li" justify="space-between" align="flex-start" wrap="nowrap" gap="sm" py={8} className="points-history-row" data-kind={entry.kind}>
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={500}>
          {t(`points.kind.${entry.kind}`)}
        </Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {dayjs(entry.createTime).format('YYYY-MM-DD HH:mm')}
          {note && ` · ${note}`}
        </Text>
      </div>
      <div style={{ textAlign: 'right', flexShrink: 0 }}>
        {showDelta && (
          <Text size="sm" fw={600} c={entry.delta > 0 ? 'teal.7' : entry.delta < 0 ? undefined : 'dimmed'} data-testid="points-delta">
            {signed(entry.delta)}
          </Text>
        )}
        {entry.allowance !== 0 && (
          <Text size="xs" c="dimmed" data-testid="points-allowance">
            {t('points.history.allowance', { points: signed(-entry.allowance) })}
          </Text>
        )}
        {entry.balanceAfter !== null && (
          <Text size="xs" c="dimmed">
            {t('points.history.balanceAfter', { points: entry.balanceAfter })}
          </Text>
        )}
      </div>
    </Group>
  );
}

/** The points history, newest first, a page at a time: what each change was, when, and the balance after it. */
export function PointsHistory() {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const [page, setPage] = useState(1);
  const history = useQuery({ ...pointsHistoryQuery(token, page), placeholderData: keepPreviousData });

  if (history.isPending) {
    return (
      <Center py="md">
        <Loader size="sm" aria-label={t('points.loading')} />
      </Center>
    );
  }
  if (history.isError && !history.data) {
    return (
      <Stack align="center" gap={6} py="md">
        <Text size="sm" c="red">
          {t('points.history.error')}
        </Text>
        <Button size="xs" variant="light" onClick={() => void history.refetch()}>
          {t('points.retry')}
        </Button>
      </Stack>
    );
  }
  const { list, total } = history.data;
  if (total === 0) {
    return (
      <Text size="sm" c="dimmed" py="sm" ta="center">
        {t('points.history.empty')}
      </Text>
    );
  }
  const pages = Math.ceil(total / HISTORY_PAGE_SIZE);
  return (
    <Stack gap={6}>
      <ul className="points-history" aria-label={t('points.history.title')} data-testid="points-history" style={{ opacity: history.isPlaceholderData ? 0.6 : 1 }}>
        {list.map((entry) => (
          <HistoryRow key={entry.id} entry={entry} />
        ))}
      </ul>
      {pages > 1 && (
        <Group justify="center">
          <Pagination size="sm" total={pages} value={page} onChange={setPage} siblings={1} boundaries={1} aria-label={t('points.history.pages')} />
        </Group>
      )}
    </Stack>
  );
}
