import { Alert, Anchor, Badge, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import 'mantine-datatable/styles.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { adminUserLedgerQuery, adminUserQuery, LEDGER_PAGE_SIZE } from './api.ts';
import type { AdminUserDetail } from '../../shared/contracts/admin-users.ts';
import type { LedgerEntry } from '../../shared/contracts/points.ts';
import { UserActions } from './user-actions.tsx';
import { useUserFormat } from './user-format.ts';
import { StatCard } from '../ui/stat-card.tsx';
import { UserAvatar } from '../../components/ui/user-avatar.tsx';
import { headImgLink } from '../../shared/api/user.ts';
import './strings.ts';

/** /admin/users/:userId — one account: plan, points and ledger, activity, invite tree, and the actions. */
export function UserPage() {
  const { t } = useTranslation();
  const { userId = '' } = useParams<{ userId?: string }>();
  const user = useQuery(adminUserQuery(userId));
  return (
    <Stack gap="lg">
      <Anchor component={Link} href="/admin/users" size="sm">
        {t('adminUsers.user.back')}
      </Anchor>
      {user.isPending && <Loader size="sm" />}
      {user.isError && (
        <Alert color="red" role="alert">
          {t('adminUsers.user.loadFailed', { message: user.error.message })}
        </Alert>
      )}
      {user.data && <UserDetail user={user.data} />}
    </Stack>
  );
}

function UserDetail({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation();
  const format = useUserFormat();
  const subscription = user.plan.subscription;
  return (
    <>
      <Group gap="md" wrap="nowrap" align="center">
        <UserAvatar size={56} src={headImgLink(user.headImg)} name={user.userName} email={user.email} testId="admin-user-avatar" />
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="sm">
            <Title order={2}>{user.email}</Title>
            {user.role === 'admin' && <Badge>{t('adminUsers.role.admin')}</Badge>}
            <Badge color={user.status === 'closed' ? 'red' : 'teal'} variant="light" data-testid="user-status">
              {t(`adminUsers.status.${user.status}`)}
            </Badge>
            {user.emailVerifiedAt !== undefined && (
              <Badge color={user.emailVerifiedAt ? 'teal' : 'gray'} variant="light" data-testid="user-email-verified">
                {t(user.emailVerifiedAt ? 'adminUsers.user.emailVerified' : 'adminUsers.user.emailNotVerified')}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {user.userName} · {t('adminUsers.user.id')}: {user.userId}
            {user.phone && ` · ${t('adminUsers.user.phone')}: ${user.phone}`}
            {user.emailVerifiedAt && ` · ${t('adminUsers.user.emailVerifiedAt', { date: format.dateTime(user.emailVerifiedAt) })}`}
          </Text>
        </Stack>
      </Group>
      <UserActions user={user} />
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm">
        <StatCard
          compact
          label={t('adminUsers.user.plan')}
          value={format.plan(user.plan.level, user.plan.endTime)}
          detail={
            subscription
              ? `${t('adminUsers.user.subscription', { status: subscription.status, date: format.date(subscription.currentPeriodEnd) })}${subscription.cancelAtPeriodEnd ? ` (${t('adminUsers.user.subscriptionCancelling')})` : ''}`
              : undefined
          }
          testId="user-plan"
        />
        <StatCard compact label={t('adminUsers.user.balance')} value={format.number(user.balance)} testId="user-balance" />
        {user.openDisputes > 0 && (
          <Badge color="red" variant="filled" data-testid="user-open-disputes">
            {t('adminUsers.user.openDisputes', { count: user.openDisputes })}
          </Badge>
        )}
        <StatCard compact label={t('adminUsers.user.usedPoints')} value={format.number(user.usedPoints)} />
        <StatCard compact label={t('adminUsers.user.sessions')} value={format.number(user.sessionCount)} />
        <StatCard compact label={t('adminUsers.user.messages')} value={format.number(user.messageCount)} />
        <StatCard
          compact
          label={t('adminUsers.user.tokens')}
          value={user.tokens ? format.number(user.tokens.input + user.tokens.output) : t('adminUsers.user.tokensNone')}
          detail={user.tokens ? t('adminUsers.user.tokensDetail', { input: format.number(user.tokens.input), output: format.number(user.tokens.output) }) : undefined}
        />
        <StatCard compact label={t('adminUsers.user.lastActive')} value={format.dateTime(user.lastActiveTime)} />
        <StatCard compact label={t('adminUsers.user.created')} value={format.dateTime(user.createTime)} />
      </SimpleGrid>
      <Ledger user={user} />
      <InviteTree user={user} />
    </>
  );
}

function Ledger({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation();
  const format = useUserFormat();
  const [page, setPage] = useState(1);
  // The first page came with the user; later pages are asked for.
  const ledger = useQuery({ ...adminUserLedgerQuery(user.userId, page), enabled: page > 1 });
  const shown = page === 1 ? user.ledger : ledger.data;
  const signed = (n: number) => (n > 0 ? `+${format.number(n)}` : format.number(n));
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        {t('adminUsers.user.ledger')}
      </Title>
      <DataTable<LedgerEntry>
        aria-label={t('adminUsers.user.ledger')}
        withTableBorder
        borderRadius="md"
        minHeight={shown?.list.length ? undefined : 120}
        idAccessor="id"
        records={shown?.list ?? []}
        fetching={page > 1 && ledger.isFetching}
        totalRecords={user.ledger.total}
        recordsPerPage={LEDGER_PAGE_SIZE}
        page={page}
        onPageChange={setPage}
        paginationText={({ from, to, totalRecords }) => t('adminUsers.pagination', { from, to, total: totalRecords })}
        noRecordsText={t('adminUsers.user.ledgerEmpty')}
        columns={[
          { accessor: 'createTime', title: t('adminUsers.user.ledgerColumns.time'), render: (e) => format.dateTime(e.createTime) },
          { accessor: 'kind', title: t('adminUsers.user.ledgerColumns.kind'), render: (e) => t(`points.kind.${e.kind}`) },
          { accessor: 'delta', title: t('adminUsers.user.ledgerColumns.change'), textAlign: 'right', render: (e) => signed(e.delta) },
          { accessor: 'allowance', title: t('adminUsers.user.ledgerColumns.allowance'), textAlign: 'right', render: (e) => (e.allowance ? format.number(e.allowance) : '') },
          {
            accessor: 'balanceAfter',
            title: t('adminUsers.user.ledgerColumns.balanceAfter'),
            textAlign: 'right',
            render: (e) => (e.balanceAfter === null ? '' : format.number(e.balanceAfter)),
          },
          { accessor: 'note', title: t('adminUsers.user.ledgerColumns.note') },
        ]}
      />
    </Stack>
  );
}

function InviteTree({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation();
  const format = useUserFormat();
  const userLink = (u: { userId: string; email: string }) => (
    <Anchor component={Link} href={`/admin/users/${encodeURIComponent(u.userId)}`} size="sm">
      {u.email}
    </Anchor>
  );
  return (
    <Stack gap="xs" data-testid="invite-tree">
      <Title order={3} size="h4">
        {t('adminUsers.user.invites')}
      </Title>
      <Group gap="xs">
        <Text size="sm" fw={500}>
          {t('adminUsers.user.invitedBy')}:
        </Text>
        {user.inviter ? userLink(user.inviter) : <Text size="sm">{t('adminUsers.user.invitedByNobody')}</Text>}
      </Group>
      <Text size="sm" fw={500}>
        {t('adminUsers.user.invitees', { count: user.invitees.total })}
      </Text>
      {user.invitees.list.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('adminUsers.user.inviteesNone')}
        </Text>
      ) : (
        <Stack gap={2} component="ul" pl="md" m={0}>
          {user.invitees.list.map((invitee) => (
            <Group key={invitee.userId} gap="xs" component="li">
              {userLink(invitee)}
              <Text size="xs" c="dimmed">
                {format.date(invitee.createTime)} · {t('adminUsers.user.inviteeCount', { count: invitee.inviteeCount })}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
      {user.invitees.total > user.invitees.list.length && (
        <Text size="xs" c="dimmed">
          {t('adminUsers.user.inviteesMore', { shown: user.invitees.list.length, total: user.invitees.total })}
        </Text>
      )}
    </Stack>
  );
}
