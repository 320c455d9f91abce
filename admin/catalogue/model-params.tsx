import { Alert, Button, Group, NumberInput, Paper, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../components/ui/error-message.ts';
import { notifySuccess, onMutationError } from '../../components/ui/notify.ts';
import {
  MAX_OUTPUT_TOKENS_LIMIT,
  ParamBoundsSchema,
  SYSTEM_PROMPT_LIMIT,
  TEMPERATURE_LIMIT,
  type AdminModelParams,
  type ParamBounds,
} from '../../shared/contracts/param-tools.ts';
import { adminModelParamsQuery, saveAdminModelParams } from './api.ts';
import './strings.ts';

/** The form's values: NumberInput gives '' for an empty field (a default left unset). */
type Values = { [K in keyof ParamBounds]: ParamBounds[K] extends boolean ? boolean : number | string };

const toValues = (b: ParamBounds): Values => ({
  ...b,
  temperatureDefault: b.temperatureDefault ?? '',
  maxOutputTokensDefault: b.maxOutputTokensDefault ?? '',
});

const num = (v: number | string) => (v === '' ? Number.NaN : Number(v));
const toBounds = (v: Values): ParamBounds => ({
  temperatureMin: num(v.temperatureMin),
  temperatureMax: num(v.temperatureMax),
  temperatureDefault: v.temperatureDefault === '' ? null : num(v.temperatureDefault),
  maxOutputTokensMax: num(v.maxOutputTokensMax),
  maxOutputTokensDefault: v.maxOutputTokensDefault === '' ? null : num(v.maxOutputTokensDefault),
  systemPromptAllowed: v.systemPromptAllowed,
  systemPromptMaxLength: num(v.systemPromptMaxLength),
});

function ParamsForm({ aiModelId, current }: { aiModelId: string; current: AdminModelParams }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => toValues(current.bounds));
  const [invalid, setInvalid] = useState<string | null>(null);
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));
  const save = useMutation({
    mutationFn: (bounds: ParamBounds | null) => saveAdminModelParams(aiModelId, bounds),
    onSuccess: (saved) => {
      queryClient.setQueryData(adminModelParamsQuery(aiModelId).queryKey, saved);
      setValues(toValues(saved.bounds));
      notifySuccess(t('adminModels.params.saved'));
    },
    onError: onMutationError(),
  });
  const submit = () => {
    const parsed = ParamBoundsSchema.safeParse(toBounds(values));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setInvalid(t(`adminModels.params.invalid.${issue?.message ?? ''}`, { defaultValue: t('adminModels.form.invalid.generic') }));
      return;
    }
    setInvalid(null);
    save.mutate(parsed.data);
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      aria-label={t('adminModels.params.title')}
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <NumberInput label={t('adminModels.params.temperatureMin')} min={0} max={TEMPERATURE_LIMIT} step={0.1} decimalScale={2} value={values.temperatureMin} onChange={(v) => set('temperatureMin', v)} />
          <NumberInput label={t('adminModels.params.temperatureMax')} min={0} max={TEMPERATURE_LIMIT} step={0.1} decimalScale={2} value={values.temperatureMax} onChange={(v) => set('temperatureMax', v)} />
          <NumberInput
            label={t('adminModels.params.temperatureDefault')}
            description={t('adminModels.params.emptyDefault')}
            min={0}
            max={TEMPERATURE_LIMIT}
            step={0.1}
            decimalScale={2}
            value={values.temperatureDefault}
            onChange={(v) => set('temperatureDefault', v)}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NumberInput label={t('adminModels.params.maxTokensMax')} min={1} max={MAX_OUTPUT_TOKENS_LIMIT} allowDecimal={false} value={values.maxOutputTokensMax} onChange={(v) => set('maxOutputTokensMax', v)} />
          <NumberInput
            label={t('adminModels.params.maxTokensDefault')}
            description={t('adminModels.params.emptyDefault')}
            min={1}
            max={MAX_OUTPUT_TOKENS_LIMIT}
            allowDecimal={false}
            value={values.maxOutputTokensDefault}
            onChange={(v) => set('maxOutputTokensDefault', v)}
          />
        </SimpleGrid>
        <Switch label={t('adminModels.params.systemPromptAllowed')} checked={values.systemPromptAllowed} onChange={(e) => set('systemPromptAllowed', e.currentTarget.checked)} />
        <NumberInput
          label={t('adminModels.params.systemPromptMaxLength')}
          min={0}
          max={SYSTEM_PROMPT_LIMIT}
          allowDecimal={false}
          disabled={!values.systemPromptAllowed}
          value={values.systemPromptMaxLength}
          onChange={(v) => set('systemPromptMaxLength', v)}
        />
        {invalid && <Alert color="red">{invalid}</Alert>}
        <Group justify="flex-end" gap="xs">
          {current.custom && (
            <Button variant="default" onClick={() => save.mutate(null)} loading={save.isPending && save.variables === null}>
              {t('adminModels.params.reset')}
            </Button>
          )}
          <Button type="submit" loading={save.isPending && save.variables !== null}>
            {t('adminModels.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The model page's Parameters section (docs/api.md#model-parameters): the bounds within which users
 * set a chat's temperature, maximum answer length and system prompt. Chats keep their values when the
 * bounds narrow: what is sent is clamped to the bounds in force.
 */
export function ModelParamsSection({ aiModelId }: { aiModelId: string }) {
  const { t } = useTranslation();
  const params = useQuery(adminModelParamsQuery(aiModelId));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="model-params-title">
      <Stack gap="sm">
        <div>
          <Title order={3} id="model-params-title">
            {t('adminModels.params.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {params.data?.custom === false ? t('adminModels.params.introDefaults') : t('adminModels.params.intro')}
          </Text>
        </div>
        {params.isError && <Alert color="red">{errorMessage(params.error)}</Alert>}
        {params.data && <ParamsForm key={JSON.stringify(params.data)} aiModelId={aiModelId} current={params.data} />}
      </Stack>
    </Paper>
  );
}
