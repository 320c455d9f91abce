import { Alert, Button, Checkbox, Group, NumberInput, Slider, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/chat-settings.en.json';
import { paramToolsKey, saveSessionParams, sessionParamsQuery } from '../../shared/api/param-tools.ts';
import type { SessionParams } from '../../shared/contracts/param-tools.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { notifySuccess, onMutationError } from '../ui/notify.ts';
import { Modal } from '../ui/overlays.tsx';

addEnglishStrings(en);

export interface ChatSettingsDialogProps {
  /** The open chat; null: the dialog is closed. */
  chatSessionId: string | null;
  /** The model the composer uses: the values are checked against its bounds. */
  aiModelId: string;
  onClose: () => void;
}

/** The form, once the chat's values and the model's bounds are known. */
function ChatSettingsForm({ data, aiModelId, onClose }: { data: SessionParams; aiModelId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { bounds, params, effective } = data;
  const [temperature, setTemperature] = useState<number | null>(params.temperature);
  const [maxTokens, setMaxTokens] = useState<number | null>(params.maxOutputTokens);
  const [systemPrompt, setSystemPrompt] = useState(params.systemPrompt);
  const save = useMutation({
    mutationFn: () =>
      saveSessionParams({
        chatSessionId: data.chatSessionId,
        aiModelId,
        temperature,
        maxOutputTokens: maxTokens,
        systemPrompt: bounds.systemPromptAllowed ? systemPrompt : '',
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(sessionParamsQuery(data.chatSessionId, aiModelId).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: [...paramToolsKey, data.chatSessionId] });
      notifySuccess(t('chatSettings.saved'));
      onClose();
    },
    onError: onMutationError(),
  });
  const middle = Math.round(((bounds.temperatureMin + bounds.temperatureMax) / 2) * 10) / 10;
  const clampedTemperature = params.temperature !== null && effective.temperature !== params.temperature;
  const clampedTokens = params.maxOutputTokens !== null && effective.maxOutputTokens !== params.maxOutputTokens;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('chatSettings.intro')}
        </Text>
        <Stack gap={4}>
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm" fw={500} id="chat-settings-temperature">
              {t('chatSettings.temperature')}
            </Text>
            <Text size="sm" data-testid="chat-settings-temperature-value">
              {temperature ?? '—'}
            </Text>
          </Group>
          <Checkbox
            size="xs"
            label={t('chatSettings.useDefault')}
            checked={temperature === null}
            onChange={(event) => setTemperature(event.currentTarget.checked ? null : (bounds.temperatureDefault ?? middle))}
          />
          <Slider
            aria-labelledby="chat-settings-temperature"
            min={bounds.temperatureMin}
            max={bounds.temperatureMax}
            step={0.1}
            value={temperature ?? bounds.temperatureDefault ?? middle}
            onChange={setTemperature}
            disabled={temperature === null}
            label={(value) => value.toFixed(1)}
          />
          <Text size="xs" c="dimmed">
            {t('chatSettings.temperatureHint', { min: bounds.temperatureMin, max: bounds.temperatureMax })}
          </Text>
          {clampedTemperature && (
            <Text size="xs" c="orange">
              {t('chatSettings.clamped', { value: effective.temperature })}
            </Text>
          )}
        </Stack>
        <NumberInput
          label={t('chatSettings.maxTokens')}
          description={t('chatSettings.maxTokensHint', { max: bounds.maxOutputTokensMax })}
          min={1}
          max={bounds.maxOutputTokensMax}
          allowDecimal={false}
          allowNegative={false}
          value={maxTokens ?? ''}
          onChange={(value) => setMaxTokens(typeof value === 'number' ? value : null)}
          error={clampedTokens ? t('chatSettings.clamped', { value: effective.maxOutputTokens }) : undefined}
        />
        {bounds.systemPromptAllowed ? (
          <Textarea
            label={t('chatSettings.systemPrompt')}
            description={t('chatSettings.systemPromptHint', { max: bounds.systemPromptMaxLength })}
            placeholder={t('chatSettings.systemPromptPlaceholder')}
            autosize
            minRows={3}
            maxRows={8}
            maxLength={bounds.systemPromptMaxLength}
            value={systemPrompt}
            onChange={(event) => setSystemPrompt(event.currentTarget.value)}
          />
        ) : (
          <Alert color="gray" variant="light" p="xs">
            <Text size="sm">{t('chatSettings.systemPromptNotAllowed')}</Text>
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('chatSettings.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('chatSettings.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * A chat's settings (docs/api.md#model-parameters): temperature, maximum answer length and a system
 * prompt, within the bounds the operator set for the model. Kept by the server per chat: another
 * surface opening the chat shows the same values.
 */
export function ChatSettingsDialog({ chatSessionId, aiModelId, onClose }: ChatSettingsDialogProps) {
  const { t } = useTranslation();
  const query = useQuery({ ...sessionParamsQuery(chatSessionId ?? '', aiModelId), enabled: !!chatSessionId });
  return (
    <Modal opened={!!chatSessionId} onClose={onClose} title={t('chatSettings.title')} size="md" centered>
      {query.isError && (
        <Alert color="red" variant="light">
          {t('chatSettings.loadFailed')}
        </Alert>
      )}
      {query.data && <ChatSettingsForm key={`${query.data.chatSessionId}:${aiModelId}`} data={query.data} aiModelId={aiModelId} onClose={onClose} />}
    </Modal>
  );
}
