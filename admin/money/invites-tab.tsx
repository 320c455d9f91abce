import { Alert, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
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
          <Title order={4}>{t('adminMoney.invites.top')}</Title>
          {data.top.length === 0 ? (
            <Text c="dimmed">{t('adminMoney.noRecords')}</Text>
          ) : (
            <Table aria-label={t('adminMoney.invites.top')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('adminMoney.user')}</Table.Th>
                  <Table.Th ta="right">{t('adminMoney.invites.invitees')}</Table.Th>
                  <Table.Th ta="right">{t('adminMoney.invites.credited')}</Table.Th>
                  <Table.Th ta="right">{t('adminMoney.invites.pointsGranted')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.top.map((row) => (
                  <Table.Tr key={row.userId}>
                    <Table.Td>
                      {row.userEmail}
                      {row.userName && (
                        <Text span size="xs" c="dimmed">
                          {' '}
                          {row.userName}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ta="right">{row.invitees}</Table.Td>
                    <Table.Td ta="right">{row.credited}</Table.Td>
                    <Table.Td ta="right">{row.pointsGranted}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Title order={4}>{t('adminMoney.invites.perDay')}</Title>
          {data.days.length === 0 ? (
            <Text c="dimmed">{t('adminMoney.noRecords')}</Text>
          ) : (
            <Table aria-label={t('adminMoney.invites.perDay')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('adminMoney.invites.day')}</Table.Th>
                  <Table.Th ta="right">{t('adminMoney.invites.invitees')}</Table.Th>
                  <Table.Th ta="right">{t('adminMoney.invites.credited')}</Table.Th>
                  <Table.Th ta="right">{t('adminMoney.invites.pointsGranted')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.days.map((row) => (
                  <Table.Tr key={row.day}>
                    <Table.Td>{row.day.slice(0, 10)}</Table.Td>
                    <Table.Td ta="right">{row.invitees}</Table.Td>
                    <Table.Td ta="right">{row.credited}</Table.Td>
                    <Table.Td ta="right">{row.pointsGranted}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
    </Stack>
  );
}
