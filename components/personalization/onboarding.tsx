import './strings.ts';
import { Button, CloseButton, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { personalizationQuery } from '../../shared/api/personalization.ts';
import { tokenAtom } from '../../shared/atoms/auth.ts';
import { notifySuccess } from '../ui/notify.ts';
import { AnswerLanguageField, OccupationField, OtherInfoField, TraitsField, type PersonalizationDraft } from './fields.tsx';
import { useSavePersonalization } from './personalization-section.tsx';

const STEPS = ['occupation', 'traits', 'otherInfo', 'language'] as const;
type Step = (typeof STEPS)[number];

const EMPTY: PersonalizationDraft = { occupation: '', traits: '', otherInfo: '', answerLanguage: '' };

/**
 * The memory onboarding: shown once to a signed-in user whose onboarding is pending (new accounts),
 * a few skippable steps of the personalization form, in the empty chat a new user lands on (a card
 * under the welcome, not a dialog: the chat stays usable). Finishing or skipping is kept on the
 * server, so it never shows again, on any surface.
 */
export function OnboardingGate() {
  const token = useAtomValue(tokenAtom);
  const form = useQuery({ ...personalizationQuery(token), staleTime: Infinity });
  const [closed, setClosed] = useState(false);
  const opened = !closed && form.data?.onboarding === 'pending';
  return opened ? <Onboarding onClose={() => setClosed(true)} /> : null;
}

export interface OnboardingProps {
  /** After it was finished or skipped (and saved). */
  onClose: () => void;
}

export function Onboarding({ onClose }: OnboardingProps) {
  const { t } = useTranslation();
  const [step, setStep] = useState(0);
  const [draft, setDraft] = useState<PersonalizationDraft>(EMPTY);
  const save = useSavePersonalization();
  const set = (patch: Partial<PersonalizationDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const last = step === STEPS.length - 1;

  const skipAll = () => save.mutate({ onboarding: 'skipped' }, { onSettled: onClose });
  const finish = () =>
    save.mutate(
      { ...draft, answerLanguage: draft.answerLanguage.trim() || null, onboarding: 'done' },
      {
        onSuccess: () => {
          notifySuccess(t('personalization.onboarding.done'));
          onClose();
        },
      },
    );
  const next = () => (last ? finish() : setStep((s) => s + 1));
  const skip = (field: keyof PersonalizationDraft) => {
    set({ [field]: '' });
    if (last) save.mutate({ ...draft, answerLanguage: null, onboarding: 'done' }, { onSettled: onClose });
    else setStep((s) => s + 1);
  };

  const fields: Record<Step, { field: keyof PersonalizationDraft; body: ReactNode }> = {
    occupation: {
      field: 'occupation',
      body: <OccupationField label={t('personalization.onboarding.occupation')} value={draft.occupation} onChange={(occupation) => set({ occupation })} autoFocus />,
    },
    traits: {
      field: 'traits',
      body: (
        <TraitsField
          label={t('personalization.onboarding.traits')}
          hint={t('personalization.onboarding.traitsHint')}
          value={draft.traits}
          onChange={(traits) => set({ traits })}
        />
      ),
    },
    otherInfo: {
      field: 'otherInfo',
      body: <OtherInfoField label={t('personalization.onboarding.otherInfo')} value={draft.otherInfo} onChange={(otherInfo) => set({ otherInfo })} autoFocus />,
    },
    language: {
      field: 'answerLanguage',
      body: <AnswerLanguageField label={t('personalization.onboarding.language')} value={draft.answerLanguage} onChange={(answerLanguage) => set({ answerLanguage })} />,
    },
  };
  const current = fields[STEPS[step]];

  return (
    <Paper withBorder radius={8} p="md" mt="md" w="100%" maw={560} mx="auto" ta="left" component="section" aria-labelledby="onboarding-title">
      <Stack gap="sm" data-testid="onboarding" data-step={STEPS[step]}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} id="onboarding-title">
            {t('personalization.onboarding.title')}
          </Text>
          <CloseButton size="sm" aria-label={t('personalization.onboarding.close')} onClick={skipAll} disabled={save.isPending} />
        </Group>
        <Text size="sm" c="dimmed">
          {t('personalization.onboarding.intro')}
        </Text>
        <Stack gap={4}>
          <Text size="xs" c="dimmed">
            {t('personalization.onboarding.stepOf', { n: step + 1, total: STEPS.length })}
          </Text>
          <Progress value={((step + 1) / STEPS.length) * 100} size="sm" aria-hidden="true" />
        </Stack>
        {current.body}
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Button variant="subtle" color="gray" onClick={skipAll} disabled={save.isPending}>
            {t('personalization.onboarding.skipAll')}
          </Button>
          <Group gap="xs">
            {step > 0 && (
              <Button variant="default" onClick={() => setStep((s) => s - 1)} disabled={save.isPending}>
                {t('personalization.onboarding.back')}
              </Button>
            )}
            <Button variant="default" onClick={() => skip(current.field)} disabled={save.isPending}>
              {t('personalization.onboarding.skip')}
            </Button>
            <Button onClick={next} loading={save.isPending}>
              {last ? t('personalization.onboarding.finish') : t('personalization.onboarding.next')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}
