import { Alert, Badge, Button, Checkbox, Group, NumberInput, PasswordInput, ScrollArea, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listUpstreamModels, syncModelMap } from './api.ts';
import { PROVIDERS, VIP_LEVEL_NAMES, type Provider, type UpstreamModelEntry } from '../../shared/contracts/model.ts';
import { notifySuccess, onMutationError } from '../../components/ui/notify.ts';
import { Modal } from '../../components/ui/overlays.tsx';
import './strings.ts';

interface ImportDialogProps {
  opened: boolean;
  onClose: () => void;
  onImported: () => void;
}

/**
 * "Import from provider": an upstream's address and key, its model list, the ones to import and the
 * terms the new catalogue models start with (offline by default, so they can be tested first).
 */
export function ImportDialog({ opened, onClose, onImported }: ImportDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('adminModels.import.title')} size="lg">
      {opened && <ImportBody onClose={onClose} onImported={onImported} />}
    </Modal>
  );
}

function ImportBody({ onClose, onImported }: Omit<ImportDialogProps, 'opened'>) {
  const { t } = useTranslation();
  const [provider, setProvider] = useState<Provider>('openai-compatible');
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [minVipLevel, setMinVipLevel] = useState(0);
  const [pointsCost, setPointsCost] = useState<number | string>(1);
  const [online, setOnline] = useState(false);
  const target = () => ({ provider, baseUrl: baseUrl.trim() || null, ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}) });

  const list = useMutation({
    mutationFn: () => listUpstreamModels(target()),
    onSuccess: () => setChosen([]),
    onError: onMutationError(),
  });
  const sync = useMutation({
    mutationFn: () => syncModelMap({ ...target(), upstreamModelIds: chosen, minVipLevel, pointsCost: Number(pointsCost) || 0, online }),
    onSuccess: (result) => {
      notifySuccess(t('adminModels.import.done', { created: result.created.length, skipped: result.skipped.length }));
      onImported();
      onClose();
    },
    onError: onMutationError(),
  });
  const toggle = (entry: UpstreamModelEntry, checked: boolean) =>
    setChosen((ids) => (checked ? [...ids, entry.upstreamModelId] : ids.filter((id) => id !== entry.upstreamModelId)));

  return (
    <Stack gap="sm">
      <Select
        label={t('adminModels.deployment.provider')}
        data={PROVIDERS.map((p) => ({ value: p, label: p }))}
        value={provider}
        onChange={(value) => value && setProvider(value as Provider)}
        allowDeselect={false}
      />
      <TextInput label={t('adminModels.deployment.baseUrl')} description={t('adminModels.deployment.baseUrlHint')} value={baseUrl} onChange={(e) => setBaseUrl(e.currentTarget.value)} />
      <PasswordInput label={t('adminModels.deployment.apiKey')} value={apiKey} onChange={(e) => setApiKey(e.currentTarget.value)} autoComplete="off" />
      <Group justify="flex-end">
        <Button variant="default" onClick={() => list.mutate()} loading={list.isPending}>
          {t('adminModels.import.list')}
        </Button>
      </Group>
      {list.data && list.data.length === 0 && <Alert color="gray">{t('adminModels.import.none')}</Alert>}
      {list.data && list.data.length > 0 && (
        <>
          <ScrollArea.Autosize mah={260}>
            <Stack gap={6} role="group" aria-label={t('adminModels.import.upstreamModels')}>
              {list.data.map((entry) => (
                <Group key={entry.upstreamModelId} gap="xs">
                  <Checkbox
                    label={entry.upstreamModelId}
                    checked={chosen.includes(entry.upstreamModelId)}
                    disabled={entry.imported}
                    onChange={(e) => toggle(entry, e.currentTarget.checked)}
                  />
                  {entry.imported && <Badge size="xs" variant="light">{t('adminModels.import.imported', { model: entry.aiModelId ?? '' })}</Badge>}
                  {entry.ownedBy && (
                    <Text size="xs" c="dimmed">
                      {entry.ownedBy}
                    </Text>
                  )}
                </Group>
              ))}
            </Stack>
          </ScrollArea.Autosize>
          <Group grow>
            <Select
              label={t('adminModels.form.level')}
              data={VIP_LEVEL_NAMES.map((name, level) => ({ value: String(level), label: t(`adminModels.levels.${name}`) }))}
              value={String(minVipLevel)}
              onChange={(value) => setMinVipLevel(Number(value ?? 0))}
              allowDeselect={false}
            />
            <NumberInput label={t('adminModels.form.pointsCost')} min={0} allowDecimal={false} value={pointsCost} onChange={setPointsCost} />
          </Group>
          <Switch label={t('adminModels.import.online')} checked={online} onChange={(e) => setOnline(e.currentTarget.checked)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('adminModels.cancel')}
            </Button>
            <Button disabled={chosen.length === 0} loading={sync.isPending} onClick={() => sync.mutate()}>
              {t('adminModels.import.submit', { count: chosen.length })}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
