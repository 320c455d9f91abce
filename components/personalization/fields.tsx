import { Chip, Group, Input, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MAX_ANSWER_LANGUAGE_CHARS, MAX_PERSONALIZATION_FIELD_CHARS } from '../../shared/contracts/personalization.ts';
import { hasTrait, LANGUAGE_CHIPS, toggleTrait, TRAIT_CHIPS } from './strings.ts';

/** The personalization form's values as edited (answerLanguage '' = the language of the question). */
export type PersonalizationDraft = { occupation: string; traits: string; otherInfo: string; answerLanguage: string };

const counter = (value: string, max = MAX_PERSONALIZATION_FIELD_CHARS) => `${value.length} / ${max}`;

interface FieldProps {
  value: string;
  onChange: (value: string) => void;
  /** The question as a label (onboarding) instead of the settings' field name. */
  label?: string;
  autoFocus?: boolean;
}

export function OccupationField({ value, onChange, label, autoFocus }: FieldProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={label ?? t('personalization.settings.occupation')}
      placeholder={t('personalization.settings.occupationPlaceholder')}
      value={value}
      maxLength={MAX_PERSONALIZATION_FIELD_CHARS}
      description={counter(value)}
      inputWrapperOrder={['label', 'input', 'description']}
      data-autofocus={autoFocus || undefined}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** Chips for common traits, and the text itself (the chips add and remove their word in it). */
export function TraitsField({ value, onChange, label, hint, autoFocus }: FieldProps & { hint?: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      {/* The same label as the other fields' (Mantine's). */}
      <Input.Label htmlFor="personalization-traits">{label ?? t('personalization.settings.traits')}</Input.Label>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
      <Group gap={6} role="group" aria-label={label ?? t('personalization.settings.traits')}>
        {TRAIT_CHIPS.map((key) => {
          const word = t(`personalization.traitChips.${key}`);
          return (
            <Chip key={key} size="xs" checked={hasTrait(value, word)} onChange={() => onChange(toggleTrait(value, word))}>
              {word}
            </Chip>
          );
        })}
      </Group>
      <Textarea
        id="personalization-traits"
        placeholder={t('personalization.settings.traitsPlaceholder')}
        value={value}
        autosize
        minRows={2}
        maxRows={5}
        maxLength={MAX_PERSONALIZATION_FIELD_CHARS}
        description={counter(value)}
        inputWrapperOrder={['label', 'input', 'description']}
        data-autofocus={autoFocus || undefined}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    </Stack>
  );
}

export function OtherInfoField({ value, onChange, label, autoFocus }: FieldProps) {
  const { t } = useTranslation();
  return (
    <Textarea
      label={label ?? t('personalization.settings.otherInfo')}
      placeholder={t('personalization.settings.otherInfoPlaceholder')}
      value={value}
      autosize
      minRows={3}
      maxRows={8}
      maxLength={MAX_PERSONALIZATION_FIELD_CHARS}
      description={counter(value)}
      inputWrapperOrder={['label', 'input', 'description']}
      data-autofocus={autoFocus || undefined}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** "Same as my question", a few languages as chips, or any other typed in. */
export function AnswerLanguageField({ value, onChange, label }: FieldProps) {
  const { t } = useTranslation();
  const chips: string[] = ['', ...LANGUAGE_CHIPS];
  const other = value !== '' && !(LANGUAGE_CHIPS as readonly string[]).includes(value);
  return (
    <Stack gap={6}>
      <Input.Label labelElement="div" id="personalization-language-label">
        {label ?? t('personalization.settings.answerLanguage')}
      </Input.Label>
      <Chip.Group multiple={false} value={other ? '__other' : value || '__auto'} onChange={(next) => onChange(next === '__auto' ? '' : next === '__other' ? value : next)}>
        <Group gap={6} role="radiogroup" aria-labelledby="personalization-language-label">
          {chips.map((lang) => (
            <Chip key={lang || '__auto'} value={lang || '__auto'} size="xs">
              {lang || t('personalization.settings.answerLanguageAuto')}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      <TextInput
        aria-label={t('personalization.settings.answerLanguageOther')}
        placeholder={t('personalization.settings.answerLanguageOther')}
        size="xs"
        maw={240}
        value={other ? value : ''}
        maxLength={MAX_ANSWER_LANGUAGE_CHARS}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    </Stack>
  );
}
