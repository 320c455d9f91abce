import { Alert, Button, Checkbox, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addFeedback } from '../../shared/api/feedback.ts';
import { FEEDBACK_REASONS, FeedbackBrowserSchema, MAX_FEEDBACK_TEXT, type FeedbackReason } from '../../shared/contracts/feedback.ts';
import { currentBrowser } from '../../shared/platform/browser.ts';
import { IconCheck } from '../ui/icons.tsx';
import { orderedReasons, validateFeedback, type FeedbackFormError } from './feedback-form.ts';
import { NewcomerFrame } from './newcomer-frame.tsx';
import './strings.ts';

export interface FeedbackPageProps {
  onNavigate: (path: string) => void;
  /** The page's query: the extension's uninstall address carries `v` (its version) and `browser`. */
  search: string;
}

/** What the uninstall address says about the extension, else what this page sees. */
function sender(search: string, language: string) {
  const params = new URLSearchParams(search);
  const browser = FeedbackBrowserSchema.safeParse(params.get('browser'));
  const version = params.get('v') ?? '';
  return {
    browser: browser.success ? browser.data : currentBrowser(),
    version: /^[0-9A-Za-z.+-]{0,32}$/.test(version) ? version : '',
    language: language === 'zh' ? ('zh' as const) : ('en' as const),
  };
}

/**
 * Uninstall feedback (/feedback), the page the extension opens when it is removed: the reasons (at
 * least one; "other" needs words), sent signed out or in, then a thank-you.
 */
export function FeedbackPage({ onNavigate, search }: FeedbackPageProps) {
  const { t, i18n } = useTranslation();
  const [reasons, setReasons] = useState<FeedbackReason[]>([]);
  const [otherText, setOtherText] = useState('');
  const [error, setError] = useState<FeedbackFormError>(null);
  const send = useMutation({ mutationFn: () => addFeedback({ reasons: orderedReasons(reasons), otherText: otherText.trim(), ...sender(search, i18n.language) }) });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const problem = validateFeedback({ reasons, otherText });
    setError(problem);
    if (!problem) send.mutate();
  };

  if (send.isSuccess) {
    return (
      <NewcomerFrame title={t('newcomers.feedback.thanks')} onBack={() => onNavigate('/home')} backLabel={t('newcomers.back')} width={640}>
        <Paper withBorder p="xl" radius={8} data-testid="feedback-thanks">
          <Stack align="center" gap="sm" ta="center">
            <IconCheck size={36} style={{ color: '#7b7ddb' }} />
            <Title order={3}>{t('newcomers.feedback.thanks')}</Title>
            <Text c="dimmed">{t('newcomers.feedback.thanksText')}</Text>
            <Button variant="light" onClick={() => onNavigate('/home')}>
              {t('newcomers.feedback.reinstall')}
            </Button>
          </Stack>
        </Paper>
      </NewcomerFrame>
    );
  }

  const otherChosen = reasons.includes('other');
  return (
    <NewcomerFrame title={t('newcomers.feedback.title')} onBack={() => onNavigate('/home')} backLabel={t('newcomers.back')} width={640}>
      <Paper withBorder p="lg" radius={8} component="form" onSubmit={submit} noValidate data-testid="feedback-form">
        <Stack gap="md">
          <Text>{t('newcomers.feedback.intro')}</Text>
          <Checkbox.Group
            value={reasons}
            onChange={(value) => {
              setReasons(value as FeedbackReason[]);
              if (error === 'reasonRequired') setError(null);
            }}
            error={error === 'reasonRequired' ? t('newcomers.feedback.reasonRequired') : undefined}
          >
            <Stack gap="sm" mt={4}>
              {FEEDBACK_REASONS.map((reason) => (
                <Checkbox key={reason} value={reason} label={t(`newcomers.feedback.reasons.${reason}`)} data-testid={`reason-${reason}`} />
              ))}
            </Stack>
          </Checkbox.Group>
          {otherChosen && (
            <Textarea
              autosize
              minRows={3}
              maxLength={MAX_FEEDBACK_TEXT}
              placeholder={t('newcomers.feedback.otherPlaceholder')}
              aria-label={t('newcomers.feedback.otherPlaceholder')}
              value={otherText}
              onChange={(event) => {
                setOtherText(event.currentTarget.value);
                if (error === 'otherRequired') setError(null);
              }}
              error={error === 'otherRequired' ? t('newcomers.feedback.otherRequired') : undefined}
              data-testid="feedback-other-text"
            />
          )}
          {send.isError && (
            <Alert color="red" variant="light">
              {send.error instanceof Error && send.error.message ? send.error.message : t('newcomers.feedback.failed')}
            </Alert>
          )}
          <Button type="submit" loading={send.isPending} data-testid="feedback-submit">
            {t('newcomers.feedback.submit')}
          </Button>
        </Stack>
      </Paper>
    </NewcomerFrame>
  );
}
