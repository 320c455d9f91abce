import { ActionIcon, Badge, Box, Group, Loader, Paper, Stack, Switch, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  adminContentKey,
  adminQuickFunctionsQuery,
  deleteAdminQuickFunction,
  saveAdminQuickFunction,
  setAdminQuickFunctionOnline,
  sortAdminQuickFunctions,
  type SaveQuickFunctionInput,
} from './api.ts';
import type { AdminQuickFunction } from '../../shared/contracts/quick-function.ts';
import { IconArrowDown, IconArrowUp, IconFolder, IconPencil, IconTrash } from '../../components/ui/icons.tsx';
import { onMutationError } from '../../components/ui/notify.ts';
import { ResourceTable } from '../ui/resource-table.tsx';
import { moveId, SortableList } from '../../components/ui/sortable.tsx';

import { QuickFunctionForm } from './quick-function-form.tsx';
import { SortableItem } from './sortable-stack.tsx';
import { childrenOf, withSiblingOrder } from './tree-order.ts';
import './strings.ts';

interface TreeActions {
  items: AdminQuickFunction[];
  busy: boolean;
  onMove: (siblings: string[], id: string, to: number) => void;
  onOnline: (item: AdminQuickFunction, online: boolean) => void;
  onEdit: (item: AdminQuickFunction) => void;
  onDelete: (item: AdminQuickFunction) => void;
}

/** The built-in quick functions as the menu shows them: a tree, reordered by dragging or with the arrows. */
export function QuickFunctionsTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery(adminQuickFunctionsQuery());
  /** The order being saved, shown at once. */
  const [pending, setPending] = useState<string[] | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminContentKey });
  const sort = useMutation({
    mutationFn: sortAdminQuickFunctions,
    onSettled: async () => {
      await refresh();
      setPending(null);
    },
    onError: onMutationError(),
  });
  const online = useMutation({
    mutationFn: ({ id, value }: { id: string; value: boolean }) => setAdminQuickFunctionOnline(id, value),
    onSuccess: refresh,
    onError: onMutationError(),
  });

  const items = pending ? withSiblingOrder(list.data ?? [], pending) : (list.data ?? []);
  const onMove = (siblings: string[], id: string, to: number) => {
    const next = moveId(siblings, siblings.indexOf(id), to);
    if (!next || sort.isPending) return;
    setPending(next);
    sort.mutate(next);
  };

  return (
    <ResourceTable<AdminQuickFunction, SaveQuickFunctionInput>
      list={list}
      queryKey={adminContentKey}
      heading={
        <Text size="sm" c="dimmed">
          {t('adminContent.quickFunctions.hint')}
        </Text>
      }
      intro={list.isPending && <Loader />}
      newLabel={t('adminContent.quickFunctions.new')}
      editTitle={t('adminContent.quickFunctions.edit')}
      modalSize="xl"
      form={(slot) => <QuickFunctionForm {...slot} items={list.data ?? []} />}
      save={saveAdminQuickFunction}
      savedText={t('adminContent.saved')}
      remove={{
        call: (item) => deleteAdminQuickFunction(item.quickFunctionId),
        title: t('adminContent.quickFunctions.deleteTitle'),
        message: (item) => t('adminContent.quickFunctions.deleteMessage', { name: item?.nameEn ?? '' }),
        confirmLabel: t('adminContent.delete'),
        cancelLabel: t('adminContent.cancel'),
      }}
      table={({ edit, askDelete }) => (
        <>
          {list.data?.length === 0 && <Text c="dimmed">{t('adminContent.empty')}</Text>}
          {list.data && list.data.length > 0 && (
            <Box role="tree" aria-label={t('adminContent.tabs.quick-functions')}>
              <Branch
                parentId={null}
                depth={0}
                items={items}
                busy={sort.isPending}
                onMove={onMove}
                onOnline={(item, value) => online.mutate({ id: item.quickFunctionId, value })}
                onEdit={edit}
                onDelete={askDelete}
              />
            </Box>
          )}
        </>
      )}
    />
  );
}

function Branch({ parentId, depth, ...actions }: TreeActions & { parentId: string | null; depth: number }) {
  const { t, i18n } = useTranslation();
  const children = childrenOf(actions.items, parentId);
  const ids = children.map((c) => c.quickFunctionId);
  if (children.length === 0) return null;
  return (
    <Stack gap={4} pl={depth ? 'xl' : 0} role="group">
      <SortableList ids={ids} onMove={(id, to) => actions.onMove(ids, id, to)} instructions={t('adminContent.dragInstructions')}>
        {children.map((item, index) => {
          const name = i18n.language === 'zh' ? item.nameZh : item.nameEn;
          return (
            <SortableItem
              key={item.quickFunctionId}
              id={item.quickFunctionId}
              handleLabel={t('adminContent.dragHandle', { name })}
              disabled={actions.busy}
              row={
                <Paper withBorder px="sm" py={6} style={{ flex: 1 }} role="treeitem" aria-label={name}>
                  <Group justify="space-between" wrap="nowrap">
                    <Group gap="xs" wrap="nowrap">
                      {item.isGroup && <IconFolder size={16} />}
                      <Text size="sm" fw={item.isGroup ? 600 : 400}>
                        {item.icon} {name}
                      </Text>
                      {item.pinned && <Badge size="xs">{t('adminContent.quickFunctions.pinned')}</Badge>}
                      <Text size="xs" c="dimmed" lineClamp={1}>
                        {i18n.language === 'zh' ? item.descriptionZh : item.descriptionEn}
                      </Text>
                    </Group>
                    <Group gap={4} wrap="nowrap">
                      <ActionIcon variant="subtle" aria-label={t('adminContent.moveUpNamed', { name })} disabled={index === 0 || actions.busy} onClick={() => actions.onMove(ids, item.quickFunctionId, index - 1)}>
                        <IconArrowUp size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('adminContent.moveDownNamed', { name })}
                        disabled={index === ids.length - 1 || actions.busy}
                        onClick={() => actions.onMove(ids, item.quickFunctionId, index + 1)}
                      >
                        <IconArrowDown size={16} />
                      </ActionIcon>
                      <Switch size="xs" aria-label={t('adminContent.onlineNamed', { name })} checked={item.online} onChange={(e) => actions.onOnline(item, e.currentTarget.checked)} />
                      <ActionIcon variant="subtle" aria-label={t('adminContent.editNamed', { name })} onClick={() => actions.onEdit(item)}>
                        <IconPencil size={16} />
                      </ActionIcon>
                      <ActionIcon variant="subtle" color="red" aria-label={t('adminContent.deleteNamed', { name })} onClick={() => actions.onDelete(item)}>
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  </Group>
                </Paper>
              }
            >
              {item.isGroup && <Branch parentId={item.quickFunctionId} depth={depth + 1} {...actions} />}
            </SortableItem>
          );
        })}
      </SortableList>
    </Stack>
  );
}
