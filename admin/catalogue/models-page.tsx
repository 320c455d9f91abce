import { ActionIcon, Anchor, Badge, Button, Group, Loader, Switch, Table, Text, Title, Tooltip } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import {
  adminCatalogueKey,
  adminModelTypesQuery,
  adminModelsQuery,
  deleteAdminModel,
  saveAdminModel,
  setAdminModelOnline,
  sortAdminModels,
  type SaveModelInput,
} from './api.ts';
import type { AdminModel } from '../../shared/contracts/model.ts';
import { VIP_LEVEL_NAMES } from '../../shared/contracts/model.ts';
import { IconArrowDown, IconArrowUp, IconCheck, IconPencil, IconTrash } from '../../components/ui/icons.tsx';
import { onMutationError } from '../../components/ui/notify.ts';
import { ResourceTable } from '../ui/resource-table.tsx';
import { moveId, SortableList } from '../../components/ui/sortable.tsx';
import { ImportDialog } from './import-dialog.tsx';
import { ModelForm } from './model-form.tsx';
import { inOrder } from './model-order.ts';
import { SortableRow } from './sortable-rows.tsx';
import './strings.ts';
import { modelCostLabel } from './model-cost.ts';

/** /admin/models: the catalogue in its order, with its flags, online switches, create/edit/delete and the import. */
export function ModelsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const models = useQuery(adminModelsQuery());
  /** The order being saved (shown at once); null: the server's. */
  const [order, setOrder] = useState<string[] | null>(null);
  const [importing, setImporting] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminCatalogueKey });

  const sort = useMutation({
    mutationFn: sortAdminModels,
    onSuccess: async () => {
      await refresh();
      setOrder(null);
    },
    onError: onMutationError(undefined, () => setOrder(null)),
  });
  const online = useMutation({
    mutationFn: ({ aiModelId, value }: { aiModelId: string; value: boolean }) => setAdminModelOnline(aiModelId, value),
    onSuccess: refresh,
    onError: onMutationError(),
  });

  const rows = inOrder(models.data?.list ?? [], order, (m) => m.aiModelId);
  const ids = rows.map((m) => m.aiModelId);
  const move = (id: string, to: number) => {
    const next = moveId(ids, ids.indexOf(id), to);
    if (!next || sort.isPending) return;
    setOrder(next);
    sort.mutate(next);
  };

  return (
    <ResourceTable<AdminModel, SaveModelInput, AdminModel>
      list={models}
      listErrorTitle={t('adminModels.loadFailed')}
      queryKey={adminCatalogueKey}
      heading={<Title order={2}>{t('adminModels.title')}</Title>}
      toolbar={
        <Button variant="default" onClick={() => setImporting(true)}>
          {t('adminModels.import.open')}
        </Button>
      }
      intro={
        <>
          <Text size="sm" c="dimmed">
            {t('adminModels.orderHint')}
          </Text>
          {models.isPending && <Loader />}
        </>
      }
      newLabel={t('adminModels.new')}
      newTitle={t('adminModels.form.newTitle')}
      editTitle={(m) => t('adminModels.form.editTitle', { name: m.name })}
      formKey={(m) => m.aiModelId}
      form={(slot) => <ModelForm {...slot} />}
      save={saveAdminModel}
      savedText={(m) => t('adminModels.saved', { name: m.name })}
      remove={{
        call: (m) => deleteAdminModel(m.aiModelId),
        title: t('adminModels.deleteTitle'),
        message: (m) => t('adminModels.deleteMessage', { name: m?.name ?? '', count: m?.deploymentCount ?? 0 }),
        confirmLabel: t('adminModels.delete'),
        cancelLabel: t('adminModels.cancel'),
        deletedText: (m) => t('adminModels.deleted', { name: m.name }),
      }}
      table={({ edit, askDelete }) => (
        <>
          {models.data && rows.length === 0 && <Text c="dimmed">{t('adminModels.empty')}</Text>}
          {rows.length > 0 && (
            // The drag context wraps the table: its announcements for screen readers are elements a tbody may not hold.
            <SortableList ids={ids} onMove={move} instructions={t('adminModels.dragInstructions')}>
              <Table.ScrollContainer minWidth={900}>
                <Table verticalSpacing="xs" aria-label={t('adminModels.title')}>
                  <ModelsHead />
                  <Table.Tbody>
                    {rows.map((model, index) => (
                      <ModelRow
                        key={model.aiModelId}
                        model={model}
                        index={index}
                        count={rows.length}
                        busy={sort.isPending}
                        onlineBusy={online.isPending}
                        onMove={move}
                        onOnline={(value) => online.mutate({ aiModelId: model.aiModelId, value })}
                        onEdit={() => edit(model)}
                        onDelete={() => askDelete(model)}
                      />
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </SortableList>
          )}
          <ImportDialog opened={importing} onClose={() => setImporting(false)} onImported={refresh} />
        </>
      )}
    />
  );
}

/** A model's types as badges, named in the console's language (the id until the list has come). */
function ModelTypeBadges({ types }: { types: string[] }) {
  const { i18n } = useTranslation();
  const all = useQuery(adminModelTypesQuery()).data ?? [];
  const nameOf = (id: string) => {
    const type = all.find((x) => x.aiModelTypeId === id);
    return type ? (i18n.language === 'zh' ? type.nameZh : type.nameEn) : id;
  };
  return (
    <Group gap={4}>
      {types.map((id) => (
        <Badge key={id} size="sm" variant="light" color={id === 'image' ? 'grape' : id === 'vision' ? 'teal' : 'blue'} data-type-id={id}>
          {nameOf(id)}
        </Badge>
      ))}
    </Group>
  );
}

function ModelsHead() {
  const { t } = useTranslation();
  return (
    <Table.Thead>
      <Table.Tr>
        <Table.Th />
        <Table.Th>{t('adminModels.columns.name')}</Table.Th>
        <Table.Th>{t('adminModels.columns.level')}</Table.Th>
        <Table.Th>{t('adminModels.columns.cost')}</Table.Th>
        <Table.Th>{t('adminModels.columns.types')}</Table.Th>
        <Table.Th>{t('adminModels.columns.files')}</Table.Th>
        <Table.Th>{t('adminModels.columns.webSearch')}</Table.Th>
        <Table.Th>{t('adminModels.columns.deployments')}</Table.Th>
        <Table.Th>{t('adminModels.columns.online')}</Table.Th>
        <Table.Th>{t('adminModels.columns.actions')}</Table.Th>
      </Table.Tr>
    </Table.Thead>
  );
}

interface ModelRowProps {
  model: AdminModel;
  index: number;
  count: number;
  /** The order is being saved: no other move until it is. */
  busy: boolean;
  onlineBusy: boolean;
  onMove: (id: string, to: number) => void;
  onOnline: (online: boolean) => void;
  onEdit: () => void;
  onDelete: () => void;
}

function ModelRow({ model, index, count, busy, onlineBusy, onMove, onOnline, onEdit, onDelete }: ModelRowProps) {
  const { t } = useTranslation();
  return (
    <SortableRow id={model.aiModelId} handleLabel={t('adminModels.dragHandle', { name: model.name })} disabled={busy}>
      <Table.Td>
        <Anchor component={Link} href={`/admin/models/${encodeURIComponent(model.aiModelId)}`}>
          {model.name}
        </Anchor>
        <Text size="xs" c="dimmed" translate="no">
          {model.aiModelId}
        </Text>
      </Table.Td>
      <Table.Td>{t(`adminModels.levels.${VIP_LEVEL_NAMES[model.minVipLevel] ?? 'Free'}`)}</Table.Td>
      <Table.Td>{modelCostLabel(t, model)}</Table.Td>
      <Table.Td>
        <ModelTypeBadges types={model.types} />
      </Table.Td>
      <Table.Td>{model.modelMap.fileTypes.length > 0 ? <Text size="xs">{model.modelMap.fileTypes.join(', ')}</Text> : null}</Table.Td>
      <Table.Td>{model.webSearch ? <IconCheck size={16} aria-label={t('adminModels.yes')} /> : null}</Table.Td>
      <Table.Td>
        <Badge variant="light" color={model.deploymentCount > 0 ? 'blue' : 'red'}>
          {model.deploymentCount}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Switch
          aria-label={t('adminModels.onlineSwitch', { name: model.name })}
          checked={model.online}
          disabled={onlineBusy}
          onChange={(e) => onOnline(e.currentTarget.checked)}
        />
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Tooltip label={t('adminModels.moveUp')}>
            <ActionIcon variant="subtle" aria-label={t('adminModels.moveUpNamed', { name: model.name })} disabled={index === 0 || busy} onClick={() => onMove(model.aiModelId, index - 1)}>
              <IconArrowUp size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('adminModels.moveDown')}>
            <ActionIcon
              variant="subtle"
              aria-label={t('adminModels.moveDownNamed', { name: model.name })}
              disabled={index === count - 1 || busy}
              onClick={() => onMove(model.aiModelId, index + 1)}
            >
              <IconArrowDown size={16} />
            </ActionIcon>
          </Tooltip>
          <ActionIcon variant="subtle" aria-label={t('adminModels.editNamed', { name: model.name })} onClick={onEdit}>
            <IconPencil size={16} />
          </ActionIcon>
          <ActionIcon variant="subtle" color="red" aria-label={t('adminModels.deleteNamed', { name: model.name })} onClick={onDelete}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      </Table.Td>
    </SortableRow>
  );
}
