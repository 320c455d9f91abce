import { Badge, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { GUIDE_STEPS, guideScreenshot } from './guide-steps.ts';
import { NewcomerFrame } from './newcomer-frame.tsx';
import './strings.ts';

/** The offline installation guide (/guide): unzip, developer mode, load unpacked, pin; and Firefox. */
export function GuidePage({ onNavigate }: { onNavigate: (path: string) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <NewcomerFrame title={t('newcomers.guide.title')} onBack={() => onNavigate('/home')} backLabel={t('newcomers.back')}>
      <Stack gap="lg" data-testid="guide-page">
        <Text c="dimmed">{t('newcomers.guide.intro')}</Text>
        {GUIDE_STEPS.map((step, i) => {
          const title = t(`newcomers.guide.steps.${step}.title`);
          return (
            <Paper key={step} withBorder p="md" radius={8} data-testid={`guide-step-${step}`}>
              <Stack gap="sm">
                <Group gap="sm" wrap="nowrap">
                  <Badge size="lg" circle>
                    {i + 1}
                  </Badge>
                  <Title order={4}>{title}</Title>
                </Group>
                <Text size="sm">{t(`newcomers.guide.steps.${step}.text`)}</Text>
                <Image
                  src={guideScreenshot(step, i18n.language)}
                  alt={t('newcomers.guide.screenshotAlt', { step: title })}
                  radius={6}
                  loading="lazy"
                  style={{ border: '1px solid var(--mantine-color-default-border)' }}
                />
              </Stack>
            </Paper>
          );
        })}
        <Paper withBorder p="md" radius={8} bg="var(--tandem-surface)">
          <Stack gap={4}>
            <Title order={4}>{t('newcomers.guide.firefox.title')}</Title>
            <Text size="sm">{t('newcomers.guide.firefox.text')}</Text>
          </Stack>
        </Paper>
      </Stack>
    </NewcomerFrame>
  );
}
