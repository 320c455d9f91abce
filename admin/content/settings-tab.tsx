import { Alert, Badge, Button, Group, Loader, Select, Stack, Switch, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminContentKey, adminSettingModelsQuery, adminSettingsQuery, resetAdminSetting, saveAdminSetting } from './api.ts';
import type { AdminSetting } from '../../shared/contracts/system.ts';
import { errorMessage } from '../../components/ui/error-message.ts';
import { notifySuccess, onMutationError } from '../../components/ui/notify.ts';
import { formatTime } from './content-format.ts';
import { settingDescription, settingKind, settingProblem } from './setting-rules.ts';
import './strings.ts';

/** Every system setting with its description, its value in force and an editor that checks the value before saving. */
export function SettingsTab() {
  const { t } = useTranslation();
  const settings = useQuery(adminSettingsQuery());
  if (settings.isPending) return <Loader />;
  if (settings.isError) return <Alert color="red">{errorMessage(settings.error)}</Alert>;
  return (
    <Table verticalSpacing="sm" aria-label={t('adminContent.tabs.settings')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="40%">{t('adminContent.settings.setting')}</Table.Th>
          <Table.Th>{t('adminContent.settings.value')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {settings.data.map((setting) => (
          <SettingRow key={`${setting.settingKey}:${setting.settingValue}:${setting.updateTime ?? ''}`} setting={setting} />
        ))}
      </Table.Tbody>
    </Table>
  );
}

function SettingRow({ setting }: { setting: AdminSetting }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(setting.settingValue);
  const [problem, setProblem] = useState<string | null>(null);
  const kind = settingKind(setting);
  const readOnly = setting.readOnly;
  const refresh = () => queryClient.invalidateQueries({ queryKey: [...adminContentKey, 'settings'] });
  const save = useMutation({
    mutationFn: () => saveAdminSetting(setting.settingKey, value.trim()),
    onSuccess: async () => {
      notifySuccess(t('adminContent.settings.saved', { key: setting.settingKey }));
      await refresh();
    },
    // The typed value stays in the field.
    onError: onMutationError(),
  });
  const reset = useMutation({
    mutationFn: () => resetAdminSetting(setting.settingKey),
    onSuccess: async () => {
      notifySuccess(t('adminContent.settings.resetDone', { key: setting.settingKey }));
      await refresh();
    },
    onError: onMutationError(),
  });
  const edit = (next: string) => {
    setValue(next);
    setProblem(null);
  };
  const submit = () => {
    const found = settingProblem(setting, value);
    setProblem(found);
    if (!found) save.mutate();
  };
  const label = setting.settingKey;
  const error = problem ? t(`adminContent.settings.problems.${problem}`, { min: setting.min ?? '', max: setting.max ?? '' }) : undefined;
  const editor =
    kind === 'model' ? (
      <ModelSelect label={label} value={value} readOnly={readOnly} onChange={edit} error={error} />
    ) : kind === 'boolean' ? (
      <Switch label={label} checked={value.trim() === 'true'} disabled={readOnly} onChange={(e) => setValue(e.currentTarget.checked ? 'true' : 'false')} />
    ) : value.length > 80 || kind === 'list' ? (
      <Textarea label={label} autosize minRows={2} value={value} readOnly={readOnly} onChange={(e) => edit(e.currentTarget.value)} error={error} />
    ) : (
      <TextInput label={label} inputMode={kind === 'integer' ? 'numeric' : undefined} value={value} readOnly={readOnly} onChange={(e) => edit(e.currentTarget.value)} error={error} />
    );
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="xs">
          <Text fw={600} size="sm" ff="monospace">
            {setting.settingKey}
          </Text>
          {setting.public && (
            <Badge size="xs" variant="light">
              {t('adminContent.settings.public')}
            </Badge>
          )}
          {readOnly && (
            <Badge size="xs" variant="light" color="gray">
              {t('adminContent.settings.fromEnvironment')}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {settingDescription(setting, i18n.language) || t('adminContent.settings.custom')}
        </Text>
      </Table.Td>
      <Table.Td>
        <Stack gap={4}>
          {editor}
          <Text size="xs" c="dimmed">
            {setting.isDefault
              ? t('adminContent.settings.isDefault')
              : t('adminContent.settings.stored', { when: formatTime(setting.updateTime), value: setting.defaultValue ?? '' })}
          </Text>
          {!readOnly && (
            <Group gap="xs">
              <Button size="compact-sm" onClick={submit} loading={save.isPending} disabled={value === setting.settingValue} aria-label={t('adminContent.settings.saveNamed', { key: label })}>
                {t('adminContent.save')}
              </Button>
              {!setting.isDefault && (
                <Button size="compact-sm" variant="default" onClick={() => reset.mutate()} loading={reset.isPending} aria-label={t('adminContent.settings.resetNamed', { key: label })}>
                  {setting.defaultValue === null ? t('adminContent.settings.remove') : t('adminContent.settings.reset')}
                </Button>
              )}
            </Group>
          )}
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

/** The option of the empty value (Select options need a non-empty value). */
const AUTOMATIC = '__automatic__';

/**
 * A setting that names a catalogue model (translation_model): the catalogue's models, offline ones
 * marked, and "automatic" for the empty value (the server's own choice).
 */
function ModelSelect(props: { label: string; value: string; readOnly: boolean; onChange: (value: string) => void; error?: string }) {
  const { t } = useTranslation();
  const models = useQuery(adminSettingModelsQuery());
  const listed = (models.data?.list ?? []).map((m) => ({
    value: m.aiModelId,
    label: m.online ? `${m.name} (${m.aiModelId})` : t('adminContent.settings.modelOffline', { name: `${m.name} (${m.aiModelId})` }),
  }));
  // A stored id the catalogue no longer has stays visible, so the operator sees what is in force.
  const known = props.value === '' || listed.some((o) => o.value === props.value);
  const data = [{ value: AUTOMATIC, label: t('adminContent.settings.modelAutomatic') }, ...listed, ...(known ? [] : [{ value: props.value, label: props.value }])];
  return (
    <Select
      label={props.label}
      data={data}
      value={props.value || AUTOMATIC}
      searchable
      allowDeselect={false}
      readOnly={props.readOnly}
      disabled={models.isPending}
      onChange={(next) => props.onChange(!next || next === AUTOMATIC ? '' : next)}
      error={props.error ?? (models.isError ? errorMessage(models.error) : undefined)}
    />
  );
}
