import './personalization.css';
import './strings.ts';
import { Button, Collapse, Group, Skeleton, Stack, Switch, Text, UnstyledButton } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { personalizationKey, personalizationQuery, savePersonalization, systemPromptQuery } from '../../shared/api/personalization.ts';
import { isLoggedInAtom, tokenAtom } from '../../shared/atoms/auth.ts';
import type { Personalization, SavePersonalizationBody } from '../../shared/contracts/personalization.ts';
import { notifySuccess, onMutationError } from '../ui/notify.ts';
import { SettingsSection } from '../ui/settings-section.tsx';
import { AnswerLanguageField, OccupationField, OtherInfoField, TraitsField, type PersonalizationDraft } from './fields.tsx';

const draftOf = (p: Personalization): PersonalizationDraft => ({
  occupation: p.occupation,
  traits: p.traits,
  otherInfo: p.otherInfo,
  answerLanguage: p.answerLanguage ?? '',
});

/** Saves, then reads again what depends on it (the form, the preview, the memory switch). */
export function useSavePersonalization() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (body: SavePersonalizationBody) => savePersonalization(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personalizationKey }),
    onError: onMutationError((message) => message || t('personalization.settings.failed')),
  });
}

/**
 * Settings' Personalization section: the form (occupation, traits, other info, answer language), the
 * switch, and exactly what the server adds to messages (GetSystemPrompt), so nothing is hidden.
 */
export function PersonalizationSection() {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const loggedIn = useAtomValue(isLoggedInAtom);
  const form = useQuery(personalizationQuery(token));
  const save = useSavePersonalization();
  const [draft, setDraft] = useState<PersonalizationDraft | null>(null);
  // The form starts from what the server has, and again after each save.
  useEffect(() => {
    if (form.data) setDraft(draftOf(form.data));
  }, [form.data]);

  if (!loggedIn) return null;
  const set = (patch: Partial<PersonalizationDraft>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  return (
    <SettingsSection
      title={t('personalization.settings.title')}
      testId="personalization-section"
      description={
        <Text size="xs" c="dimmed" mb="sm">
          {t('personalization.settings.hint')}
        </Text>
      }
    >
      {!form.data || !draft ? (
        <Skeleton h={160} />
      ) : (
        <Stack gap="sm">
          <Switch
            label={t('personalization.settings.enabled')}
            checked={form.data.enabled}
            disabled={save.isPending}
            onChange={(event) => save.mutate({ enabled: event.currentTarget.checked })}
          />
          <OccupationField value={draft.occupation} onChange={(occupation) => set({ occupation })} />
          <TraitsField value={draft.traits} onChange={(traits) => set({ traits })} />
          <OtherInfoField value={draft.otherInfo} onChange={(otherInfo) => set({ otherInfo })} />
          <AnswerLanguageField value={draft.answerLanguage} onChange={(answerLanguage) => set({ answerLanguage })} />
          <Group>
            <Button
              loading={save.isPending}
              onClick={() =>
                save.mutate(
                  { ...draft, answerLanguage: draft.answerLanguage.trim() || null },
                  { onSuccess: () => notifySuccess(t('personalization.settings.saved')) },
                )
              }
            >
              {t('personalization.settings.save')}
            </Button>
          </Group>
          <PromptPreview />
        </Stack>
      )}
    </SettingsSection>
  );
}

/** Exactly the text the server adds to the next message, as it answers GetSystemPrompt. */
export function PromptPreview() {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const [open, setOpen] = useState(false);
  const preview = useQuery({ ...systemPromptQuery(token), enabled: token !== null && open });
  return (
    <Stack gap={4}>
      <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={open} data-testid="prompt-preview-toggle">
        <Group gap={6}>
          <Text size="sm" fw={500}>
            {t('personalization.settings.preview')}
          </Text>
          <Text size="xs" c="blue">
            {open ? t('personalization.settings.previewHide') : t('personalization.settings.previewShow')}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={open}>
        {preview.data ? (
          <Stack gap={4}>
            {preview.data.text ? (
              <pre className="personalization-preview" data-testid="prompt-preview">
                {preview.data.text}
              </pre>
            ) : (
              <Text size="sm" c="dimmed" data-testid="prompt-preview-empty">
                {t('personalization.settings.previewEmpty')}
              </Text>
            )}
            <Text size="xs" c="dimmed">
              {t('personalization.settings.previewChars', { chars: preview.data.text.length, max: preview.data.maxChars })}
            </Text>
            {preview.data.omittedMemories > 0 && (
              <Text size="xs" c="orange">
                {t('personalization.settings.omitted', { count: preview.data.omittedMemories })}
              </Text>
            )}
          </Stack>
        ) : (
          <Skeleton h={60} />
        )}
      </Collapse>
    </Stack>
  );
}
