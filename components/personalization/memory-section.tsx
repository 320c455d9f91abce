import './personalization.css';
import './strings.ts';
import { ActionIcon, Alert, Button, Group, Paper, Skeleton, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  deleteAllMemories,
  deleteMemory,
  memoryListQuery,
  personalizationKey,
  saveMemory,
  setMemoryEnabled,
  updateMemory,
} from '../../shared/api/personalization.ts';
import { isLoggedInAtom, tokenAtom } from '../../shared/atoms/auth.ts';
import { MAX_MEMORY_FACT_CHARS, type Memory } from '../../shared/contracts/personalization.ts';
import { IconTrash } from '../ui/icons.tsx';
import { onMutationError } from '../ui/notify.ts';

/** A change of the memory, then everything that depends on it read again (the list, the preview). */
function useMemoryChange<A>(change: (arg: A) => Promise<unknown>) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: change,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personalizationKey }),
    onError: onMutationError((message) => message || t('personalization.memory.failed')),
  });
}

function MemoryRow({ memory }: { memory: Memory }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<string | null>(null);
  const update = useMemoryChange((fact: string) => updateMemory(memory.memoryId, fact));
  const remove = useMemoryChange(() => deleteMemory(memory.memoryId));
  if (editing !== null) {
    return (
      <Group gap="xs" wrap="nowrap" data-testid="memory-item">
        <TextInput
          style={{ flex: 1 }}
          size="xs"
          aria-label={t('personalization.memory.edit')}
          value={editing}
          maxLength={MAX_MEMORY_FACT_CHARS}
          autoFocus
          onChange={(event) => setEditing(event.currentTarget.value)}
        />
        <Button size="xs" loading={update.isPending} disabled={!editing.trim()} onClick={() => update.mutate(editing.trim(), { onSuccess: () => setEditing(null) })}>
          {t('personalization.memory.save')}
        </Button>
        <Button size="xs" variant="default" onClick={() => setEditing(null)}>
          {t('personalization.memory.cancel')}
        </Button>
      </Group>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between" data-testid="memory-item">
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Text size="sm" className="memory-fact">
          {memory.fact}
        </Text>
        {memory.sourceMessageId && (
          <Text size="xs" c="dimmed">
            {t('personalization.memory.fromChat')}
          </Text>
        )}
      </Stack>
      <Group gap={2} wrap="nowrap" style={{ flex: 'none' }}>
        <Button size="compact-xs" variant="subtle" onClick={() => setEditing(memory.fact)}>
          {t('personalization.memory.edit')}
        </Button>
        <Tooltip label={t('personalization.memory.delete')}>
          <ActionIcon variant="subtle" color="red" size="sm" aria-label={t('personalization.memory.delete')} loading={remove.isPending} onClick={() => remove.mutate(undefined)}>
            <IconTrash size={14} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Group>
  );
}

function AddMemory() {
  const { t } = useTranslation();
  const [fact, setFact] = useState('');
  const add = useMemoryChange((text: string) => saveMemory(text));
  const submit = () => fact.trim() && add.mutate(fact.trim(), { onSuccess: () => setFact('') });
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      <TextInput
        style={{ flex: 1 }}
        size="sm"
        label={t('personalization.memory.addLabel')}
        placeholder={t('personalization.memory.addPlaceholder')}
        value={fact}
        maxLength={MAX_MEMORY_FACT_CHARS}
        onChange={(event) => setFact(event.currentTarget.value)}
        onKeyDown={(event) => event.key === 'Enter' && submit()}
      />
      <Button loading={add.isPending} disabled={!fact.trim()} onClick={submit}>
        {t('personalization.memory.add')}
      </Button>
    </Group>
  );
}

/** Settings' Memory section: the switch, the remembered facts (edit, delete, delete all) and adding one. */
export function MemorySection() {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const loggedIn = useAtomValue(isLoggedInAtom);
  const memories = useQuery(memoryListQuery(token));
  const toggle = useMemoryChange((enabled: boolean) => setMemoryEnabled(enabled));
  const clear = useMemoryChange(() => deleteAllMemories());
  const [confirming, setConfirming] = useState(false);
  if (!loggedIn) return null;
  const data = memories.data;
  return (
    <Paper withBorder p="md" radius={6} data-testid="memory-section">
      <Group justify="space-between" mb={4}>
        <Text fw={600}>{t('personalization.memory.title')}</Text>
        {data && (
          <Text size="xs" c="dimmed">
            {t('personalization.memory.count', { count: data.total, max: data.max })}
          </Text>
        )}
      </Group>
      <Text size="xs" c="dimmed" mb="sm">
        {t('personalization.memory.hint')}
      </Text>
      {!data ? (
        <Skeleton h={80} />
      ) : (
        <Stack gap="sm">
          <Switch label={t('personalization.memory.enabled')} checked={data.enabled} disabled={toggle.isPending} onChange={(event) => toggle.mutate(event.currentTarget.checked)} />
          {data.list.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('personalization.memory.empty')}
            </Text>
          ) : (
            <Stack gap={8} role="list" aria-label={t('personalization.memory.title')}>
              {data.list.map((m) => (
                <div role="listitem" key={m.memoryId}>
                  <MemoryRow memory={m} />
                </div>
              ))}
            </Stack>
          )}
          <AddMemory />
          {data.list.length > 0 &&
            (confirming ? (
              <Alert color="red" variant="light" p="xs">
                <Stack gap="xs">
                  <Text size="sm">{t('personalization.memory.confirmDeleteAll', { count: data.total })}</Text>
                  <Group gap="xs">
                    <Button size="xs" color="red" loading={clear.isPending} onClick={() => clear.mutate(undefined, { onSuccess: () => setConfirming(false) })}>
                      {t('personalization.memory.deleteAll')}
                    </Button>
                    <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                      {t('personalization.memory.cancel')}
                    </Button>
                  </Group>
                </Stack>
              </Alert>
            ) : (
              <Group>
                <Button size="xs" color="red" variant="subtle" onClick={() => setConfirming(true)}>
                  {t('personalization.memory.deleteAll')}
                </Button>
              </Group>
            ))}
        </Stack>
      )}
    </Paper>
  );
}
