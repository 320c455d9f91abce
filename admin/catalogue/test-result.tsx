import { Alert, Code, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TestDeploymentResult } from '../../shared/contracts/model.ts';
import './strings.ts';

/** What a test call gave: the first tokens and their timing, or what went wrong. A named region, so it can be found. */
export function TestResult({ result, label }: { result: TestDeploymentResult; label?: string }) {
  const { t } = useTranslation();
  return (
    <section aria-label={label ?? t('adminModels.test.region')} aria-live="polite">
      {result.ok ? (
        <Alert color="teal" title={t('adminModels.test.ok', { ms: result.firstTokenMs ?? result.totalMs })}>
          <Text size="sm" c="dimmed">
            {t('adminModels.test.firstTokens')}
          </Text>
          <Code block>{result.text}</Code>
        </Alert>
      ) : (
        <Alert color="red" title={t('adminModels.test.failed', { kind: result.errorKind ?? '' })}>
          {result.error ?? ''}
        </Alert>
      )}
    </section>
  );
}
