import { Button, Center, Group, Loader, Pagination, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import en from '../../locales/features/points.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { HISTORY_PAGE_SIZE, pointsHistoryQuery } from '../../shared/api/points.ts';
import { tokenAtom } from '../../shared/atoms/auth.ts';
import type { LedgerEntry } from '../../shared/contracts/points.ts';
import { formatPoints, signed } from './points-format.ts';

addEnglishStrings(en);

/**
 * Which part of the user's points an entry moved, in words (docs/economy.md#the-ledger): `delta` is
 * the change of the kept points, `allowance` what it took from today's free allowance (negative: gave
 * back to it). One part: "from today's free points", "to kept points"; both: "−2 free, −1 kept".
 */
function partsWording(entry: LedgerEntry, language: string, t: TFunction): string | null {
  const free = -entry.allowance;
  const kept = entry.delta;
  if (free !== 0 && kept !== 0) return t('points.history.parts', { free: signed(free, language), kept: signed(kept, language) });
  if (free !== 0) return t(free < 0 ? 'points.history.fromFree' : 'points.history.toFree');
  if (kept !== 0) return t(kept < 0 ? 'points.history.fromKept' : 'points.history.toKept');
  return null;
}

/** One entry: what it was, when, its note; the change, which part of the points it moved, the points kept after. */
function HistoryRow({ entry }: { entry: LedgerEntry }) {
  const { t, i18n } = useTranslation();
  const total = entry.delta - entry.allowance;
  const parts = partsWording(entry, i18n.language, t);
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
      <div style={{ textAlign: 'right', flexShrink: 0, maxWidth: '55%' }}>
        <Text size="sm" fw={600} c={total > 0 ? 'teal.7' : total < 0 ? undefined : 'dimmed'} data-testid="points-delta">
          {signed(total, i18n.language)}
        </Text>
        {parts && (
          <Text size="xs" c="dimmed" data-testid="points-parts">
            {parts}
          </Text>
        )}
        {entry.balanceAfter !== null && (
          <Text size="xs" c="dimmed">
            {t('points.history.balanceAfter', { points: formatPoints(entry.balanceAfter, i18n.language) })}
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
