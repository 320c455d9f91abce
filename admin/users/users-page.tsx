import { Alert, Anchor, Badge, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import 'mantine-datatable/styles.css';
import { useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { adminUserListQuery, adminUserLookupQuery, FIND_BY, USERS_PAGE_SIZE, type FindBy, type FoundUser, type UserListFilters } from './api.ts';
import type { AdminUserSort } from '../../shared/contracts/admin-users.ts';
import { IconSearch } from '../../components/ui/icons.tsx';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import { UserAvatar } from '../../components/ui/user-avatar.tsx';
import { headImgLink } from '../../shared/api/user.ts';
import { useUserFormat } from './user-format.ts';
import './strings.ts';

/** Table columns the server can sort by, and the sort each one asks for. */
const SORT_BY_COLUMN: Record<string, AdminUserSort> = { email: 'email', createTime: 'created', lastActiveTime: 'lastActive', balance: 'balance' };
const COLUMN_BY_SORT = Object.fromEntries(Object.entries(SORT_BY_COLUMN).map(([column, sort]) => [sort, column])) as Record<AdminUserSort, string>;

type Filters = { role: string | null; planLevel: string | null; status: string | null };

/** The query the list asks for: what was typed and chosen, the order, and nothing left empty. */
export function listFilters(keyword: string, filters: Filters, sort: DataTableSortStatus<FoundUser>): UserListFilters {
  return {
    keyword: keyword.trim() || undefined,
    role: (filters.role as UserListFilters['role']) ?? undefined,
    planLevel: filters.planLevel === null ? undefined : Number(filters.planLevel),
    status: (filters.status as UserListFilters['status']) ?? undefined,
    sort: SORT_BY_COLUMN[String(sort.columnAccessor)] ?? 'created',
    order: sort.direction,
  };
}

/**
 * /admin/users: search the list by a part of an e-mail or name (paged, sorted and filtered on the
 * server), or find accounts by exactly one field (id, e-mail, phone, visitor id, or any of them).
 */
export function UsersPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [findBy, setFindBy] = useState<FindBy>('list');
  const [keyword, setKeyword] = useState('');
  const [debouncedKeyword] = useDebouncedValue(keyword, 300);
  const [filters, setFilters] = useState<Filters>({ role: null, planLevel: null, status: null });
  const [sort, setSort] = useState<DataTableSortStatus<FoundUser>>({ columnAccessor: COLUMN_BY_SORT.created, direction: 'desc' });
  const [page, setPage] = useState(1);
  const lookup = findBy !== 'list';
  const listed = useQuery({ ...adminUserListQuery(page, listFilters(debouncedKeyword, filters, sort)), enabled: !lookup });
  const found = useQuery(adminUserLookupQuery(lookup ? findBy : 'account', lookup ? debouncedKeyword.trim() : ''));
  const users = lookup ? found : listed;

  // Another search, filter or order starts at the first page.
  const changeFilter = (name: keyof Filters) => (value: string | null) => {
    setFilters((current) => ({ ...current, [name]: value }));
    setPage(1);
  };
  const columns = useColumns(filters, changeFilter, findBy);

  return (
    <Stack gap="md">
      <Title order={2}>{t('adminUsers.title')}</Title>
      <Group gap="sm" align="flex-end">
        <Select
          label={t('adminUsers.findBy.label')}
          data={FIND_BY.map((by) => ({ value: by, label: t(`adminUsers.findBy.${by}`) }))}
          value={findBy}
          onChange={(value) => {
            setFindBy((value as FindBy | null) ?? 'list');
            setPage(1);
          }}
          allowDeselect={false}
          w={220}
        />
        <TextInput
          label={t('adminUsers.search')}
          placeholder={t(`adminUsers.findBy.placeholder.${findBy}`)}
          leftSection={<IconSearch size={16} />}
          value={keyword}
          maxLength={254}
          onChange={(event) => {
            setKeyword(event.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: 1 }}
          maw={420}
          miw={200}
        />
      </Group>
      {users.isError && (
        <Alert color="red" role="alert">
          {t('adminUsers.loadFailed', { message: users.error.message })}
        </Alert>
      )}
      <DataTable<FoundUser>
        {...pagedTableProps(users, {
          page,
          onPageChange: setPage,
          pageSize: USERS_PAGE_SIZE,
          emptyText: lookup && !debouncedKeyword.trim() ? t('adminUsers.findBy.prompt') : t('adminUsers.empty'),
        })}
        aria-label={t('adminUsers.title')}
        borderRadius="md"
        highlightOnHover
        idAccessor="userId"
        paginationText={({ from, to, totalRecords }: { from: number; to: number; totalRecords: number }) => t('adminUsers.pagination', { from, to, total: totalRecords })}
        sortStatus={sort}
        onSortStatusChange={(next) => {
          setSort(next);
          setPage(1);
        }}
        onRowClick={({ record }) => navigate(`/admin/users/${encodeURIComponent(record.userId)}`)}
        columns={columns}
      />
    </Stack>
  );
}

/**
 * The list's columns: sortable ones, and role, plan and status filters in their headers. A look-up's
 * rows are few and already in order: no filters, no sorting; by visitor id, when each was last seen.
 */
function useColumns(filters: Filters, changeFilter: (name: keyof Filters) => (value: string | null) => void, findBy: FindBy): DataTableColumn<FoundUser>[] {
  const columns = useListColumns(filters, changeFilter);
  const format = useUserFormat();
  const { t } = useTranslation();
  if (findBy === 'list') return columns;
  const plain = columns.map(({ filter: _filter, filtering: _filtering, sortable: _sortable, ...column }) => column);
  if (findBy !== 'visitor') return plain;
  return [...plain, { accessor: 'lastSeenTime', title: t('adminUsers.columns.lastSeen'), render: (user) => format.dateTime(user.lastSeenTime ?? null) }];
}

function useListColumns(filters: Filters, changeFilter: (name: keyof Filters) => (value: string | null) => void): DataTableColumn<FoundUser>[] {
  const { t } = useTranslation();
  const format = useUserFormat();
  const filterSelect = (name: keyof Filters, label: string, data: { value: string; label: string }[]) => (
    <Select
      size="xs"
      label={label}
      placeholder={t('adminUsers.any')}
      data={data}
      value={filters[name]}
      onChange={changeFilter(name)}
      clearable
      comboboxProps={{ withinPortal: false }}
    />
  );
  return [
    {
      accessor: 'email',
      title: t('adminUsers.columns.email'),
      sortable: true,
      render: (user) => (
        <Group gap="xs" wrap="nowrap">
          <UserAvatar size={24} src={headImgLink(user.headImg)} name={user.userName} email={user.email} testId="admin-user-row-avatar" />
          <Anchor component={Link} href={`/admin/users/${encodeURIComponent(user.userId)}`} size="sm" onClick={(event: MouseEvent) => event.stopPropagation()}>
            {user.email}
          </Anchor>
          {user.emailVerifiedAt && (
            <Badge size="xs" color="teal" variant="light" data-testid="admin-user-row-verified">
              {t('adminUsers.emailVerifiedShort')}
            </Badge>
          )}
        </Group>
      ),
    },
    { accessor: 'userName', title: t('adminUsers.columns.name') },
    {
      accessor: 'role',
      title: t('adminUsers.columns.role'),
      render: (user) => (user.role === 'admin' ? <Badge size="sm">{t('adminUsers.role.admin')}</Badge> : t('adminUsers.role.user')),
      filter: filterSelect('role', t('adminUsers.columns.role'), [
        { value: 'user', label: t('adminUsers.role.user') },
        { value: 'admin', label: t('adminUsers.role.admin') },
      ]),
      filtering: filters.role !== null,
    },
    {
      accessor: 'planLevel',
      title: t('adminUsers.columns.plan'),
      render: (user) => format.plan(user.planLevel, user.planEndTime),
      filter: filterSelect(
        'planLevel',
        t('adminUsers.columns.plan'),
        [0, 1, 2, 3].map((level) => ({ value: String(level), label: t(`adminUsers.plan.${level}`) })),
      ),
      filtering: filters.planLevel !== null,
    },
    { accessor: 'balance', title: t('adminUsers.columns.balance'), sortable: true, textAlign: 'right', render: (user) => format.number(user.balance) },
    { accessor: 'sessionCount', title: t('adminUsers.columns.sessions'), textAlign: 'right', render: (user) => format.number(user.sessionCount) },
    { accessor: 'lastActiveTime', title: t('adminUsers.columns.lastActive'), sortable: true, render: (user) => format.dateTime(user.lastActiveTime) },
    { accessor: 'createTime', title: t('adminUsers.columns.created'), sortable: true, render: (user) => format.dateTime(user.createTime) },
    {
      accessor: 'status',
      title: t('adminUsers.columns.status'),
      render: (user) => (
        <Badge size="sm" color={user.status === 'closed' ? 'red' : 'teal'} variant="light">
          {t(`adminUsers.status.${user.status}`)}
        </Badge>
      ),
      filter: filterSelect('status', t('adminUsers.columns.status'), [
        { value: 'active', label: t('adminUsers.status.active') },
        { value: 'closed', label: t('adminUsers.status.closed') },
      ]),
      filtering: filters.status !== null,
    },
  ];
}
