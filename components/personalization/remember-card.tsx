import './strings.ts';
import { Button, Group, Paper, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { memoryListQuery, personalizationKey, saveMemory } from '../../shared/api/personalization.ts';
import { tokenAtom } from '../../shared/atoms/auth.ts';
import type { ChatToolCall } from '../../shared/contracts/chat.ts';
import { RememberToolInputSchema } from '../../shared/contracts/personalization.ts';
import { IconCheck } from '../ui/icons.tsx';
import { onMutationError } from '../ui/notify.ts';

export interface RememberCardProps {
  /** The answer's call of the remember tool: its input holds the fact proposed. */
  call: ChatToolCall;
  /** The answer that proposed it (kept with the fact as its source). */
  chatMessageId?: string;
  streaming: boolean;
}

/** The fact a remember call proposes, or null when its input is not one. */
export function proposedFact(call: ChatToolCall): string | null {
  try {
    const parsed = RememberToolInputSchema.safeParse(JSON.parse(call.input));
    return parsed.success ? parsed.data.fact : null;
  } catch {
    return null;
  }
}

/**
 * "Remember: <fact>? Save / Dismiss" under an answer whose model proposed a fact. The server saved
 * nothing: only Save does (POST /api/Memory/Save, with the answer as its source). A fact already
 * kept from this answer shows as saved; a dismissal lasts while the chat is open.
 */
export function RememberCard({ call, chatMessageId, streaming }: RememberCardProps) {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const queryClient = useQueryClient();
  const fact = proposedFact(call);
  const memories = useQuery({ ...memoryListQuery(token), enabled: token !== null && fact !== null });
  const [dismissed, setDismissed] = useState(false);
  const save = useMutation({
    mutationFn: () => saveMemory(fact!, chatMessageId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personalizationKey }),
    onError: onMutationError((message) => message || t('personalization.remember.failed')),
  });
  if (!fact) return null;
  const saved = save.isSuccess || !!memories.data?.list.some((m) => m.fact === fact && (!chatMessageId || m.sourceMessageId === chatMessageId));
  const pending = streaming && call.status === 'running';

  return (
    <Paper withBorder radius={6} p="xs" my={6} className="remember-card" data-testid="remember-card" data-state={saved ? 'saved' : dismissed ? 'dismissed' : 'proposed'}>
      <Text size="xs" fw={600} c="dimmed">
        {t('personalization.remember.title')}
      </Text>
      <Text size="sm" my={4} style={{ overflowWrap: 'anywhere' }}>
        {fact}
      </Text>
      {saved ? (
        <Group gap={4} c="green">
          <IconCheck size={14} />
          <Text size="xs" c="green">
            {t('personalization.remember.saved')}
          </Text>
        </Group>
      ) : dismissed ? (
        <Text size="xs" c="dimmed">
          {t('personalization.remember.dismissed')}
        </Text>
      ) : (
        <Group gap="xs">
          <Button size="compact-sm" onClick={() => save.mutate()} loading={save.isPending} disabled={pending}>
            {t('personalization.remember.save')}
          </Button>
          <Button size="compact-sm" variant="default" onClick={() => setDismissed(true)} disabled={save.isPending}>
            {t('personalization.remember.dismiss')}
          </Button>
        </Group>
      )}
    </Paper>
  );
}
