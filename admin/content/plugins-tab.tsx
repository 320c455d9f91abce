import { Alert, Badge, Loader, NumberInput, Stack, Switch, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminContentKey, adminPluginsQuery, saveAdminPlugin } from './api.ts';
import type { AdminPlugin } from '../../shared/contracts/plugin.ts';
import { pluginText } from '../../shared/i18n/plugin-text.ts';
import { errorMessage } from '../../components/ui/error-message.ts';
import { notifySuccess, onMutationError } from '../../components/ui/notify.ts';

import './strings.ts';

/** Plugins (the model's tools): on or off, and the points each call costs. */
export function PluginsTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const plugins = useQuery(adminPluginsQuery());
  const save = useMutation({
    mutationFn: saveAdminPlugin,
    onSuccess: async (plugin) => {
      notifySuccess(t('adminContent.plugins.saved', { name: pluginText(t, plugin).name }));
      await queryClient.invalidateQueries({ queryKey: adminContentKey });
    },
    onError: onMutationError(),
  });
  if (plugins.isPending) return <Loader />;
  if (plugins.isError) return <Alert color="red">{errorMessage(plugins.error)}</Alert>;
  if (plugins.data.length === 0) return <Text c="dimmed">{t('adminContent.empty')}</Text>;
  return (
    <Stack>
      <Table aria-label={t('adminContent.tabs.plugins')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('adminContent.plugins.name')}</Table.Th>
            <Table.Th>{t('adminContent.plugins.tool')}</Table.Th>
            <Table.Th>{t('adminContent.plugins.available')}</Table.Th>
            <Table.Th>{t('adminContent.plugins.pointsCost')}</Table.Th>
            <Table.Th>{t('adminContent.online')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {plugins.data.map((plugin) => (
            <Table.Tr key={plugin.pluginId}>
              <Table.Td>
                {pluginText(t, plugin).name}
                <Text size="xs" c="dimmed">
                  {pluginText(t, plugin).description}
                </Text>
              </Table.Td>
              {/* The name the model calls the tool by: an identifier, the same in every language. */}
              <Table.Td translate="no">{plugin.toolName}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={plugin.available ? 'teal' : 'gray'}>
                  {plugin.available ? t('adminContent.plugins.ready') : t('adminContent.plugins.notConfigured')}
                </Badge>
              </Table.Td>
              <Table.Td>
                <CostInput plugin={plugin} onSave={(pointsCost) => save.mutate({ pluginId: plugin.pluginId, pointsCost })} />
              </Table.Td>
              <Table.Td>
                <Switch
                  aria-label={t('adminContent.onlineNamed', { name: pluginText(t, plugin).name })}
                  checked={plugin.online}
                  disabled={save.isPending}
                  onChange={(e) => save.mutate({ pluginId: plugin.pluginId, online: e.currentTarget.checked })}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** The cost, saved when the field is left with a changed whole number. */
function CostInput({ plugin, onSave }: { plugin: AdminPlugin; onSave: (cost: number) => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState<number | string>(plugin.pointsCost);
  const valid = typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 1_000_000;
  return (
    <NumberInput
      w={120}
      size="xs"
      aria-label={t('adminContent.plugins.pointsCostNamed', { name: pluginText(t, plugin).name })}
      min={0}
      max={1_000_000}
      allowDecimal={false}
      value={value}
      onChange={setValue}
      error={valid ? undefined : t('adminContent.plugins.costInvalid')}
      onBlur={() => valid && value !== plugin.pointsCost && onSave(value)}
    />
  );
}
