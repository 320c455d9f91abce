import { Alert, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { inviteStatisticsQuery } from './api.ts';
import { errorMessage } from '../../components/ui/error-message.ts';

import './strings.ts';

/** Invite statistics over a date range (the last 30 days at first): totals, top inviters, per day. */
export function InvitesTab() {
  const { t } = useTranslation();
  const [from, setFrom] = useState(() => dayjs().subtract(29, 'day').format('YYYY-MM-DD'));
  const [to, setTo] = useState(() => dayjs().format('YYYY-MM-DD'));
  const stats = useQuery(inviteStatisticsQuery({ from: from || undefined, to: to || undefined, top: 20 }));
  const data = stats.data;
  const totals = data
    ? [
        [t('adminMoney.invites.invitees'), data.totals.invitees],
        [t('adminMoney.invites.inviters'), data.totals.inviters],
        [t('adminMoney.invites.credited'), data.totals.credited],
        [t('adminMoney.invites.pointsGranted'), data.totals.pointsGranted],
      ]
    : [];
  return (
    <Stack>
      <Group align="flex-end">
        <TextInput type="date" label={t('adminMoney.from')} value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
        <TextInput type="date" label={t('adminMoney.to')} value={to} onChange={(e) => setTo(e.currentTarget.value)} />
        {stats.isFetching && <Loader size="sm" />}
      </Group>
      {stats.isError && <Alert color="red">{errorMessage(stats.error)}</Alert>}
      {data && (
        <>
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            {totals.map(([label, value]) => (
              <Paper key={String(label)} withBorder p="md">
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
                <Text fw={700} size="xl">
                  {value}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
          <CountsTable
            label={t('adminMoney.invites.top')}
            first={t('adminMoney.user')}
            rows={data.top.map((row) => ({
              ...row,
              key: row.userId,
              who: (
                <>
                  {row.userEmail}
                  {row.userName && (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      {row.userName}
                    </Text>
                  )}
                </>
              ),
            }))}
          />
          <CountsTable
            label={t('adminMoney.invites.perDay')}
            first={t('adminMoney.invites.day')}
            rows={data.days.map((row) => ({ ...row, key: row.day, who: row.day.slice(0, 10) }))}
          />
        </>
      )}
    </Stack>
  );
}

interface CountsRow {
  key: string;
  who: ReactNode;
  invitees: number;
  credited: number;
  pointsGranted: number;
}

/** A titled table of invite counts, one row per inviter or per day (`first` heads the first column). */
function CountsTable({ label, first, rows }: { label: string; first: string; rows: CountsRow[] }) {
  const { t } = useTranslation();
  return (
    <>
      <Title order={4}>{label}</Title>
      {rows.length === 0 ? (
        <Text c="dimmed">{t('adminMoney.noRecords')}</Text>
      ) : (
        <Table aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{first}</Table.Th>
              <Table.Th ta="right">{t('adminMoney.invites.invitees')}</Table.Th>
              <Table.Th ta="right">{t('adminMoney.invites.credited')}</Table.Th>
              <Table.Th ta="right">{t('adminMoney.invites.pointsGranted')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key}>
                <Table.Td>{row.who}</Table.Td>
                <Table.Td ta="right">{row.invitees}</Table.Td>
                <Table.Td ta="right">{row.credited}</Table.Td>
                <Table.Td ta="right">{row.pointsGranted}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </>
  );
}
