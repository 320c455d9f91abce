import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import 'mantine-datatable/styles.css';
import { RoutedTabs } from '../../components/ui/routed-tabs.tsx';
import { ErrorLogTab } from './error-log-tab.tsx';
import { FeedbackTab } from './feedback-tab.tsx';
import { NotificationsTab } from './notifications-tab.tsx';
import { PluginsTab } from './plugins-tab.tsx';
import { PromptReviewTab } from './prompt-review-tab.tsx';
import { PromptTagsTab } from './prompt-tags-tab.tsx';
import { PromptsTab } from './prompts-tab.tsx';
import { QuickFunctionsTab } from './quick-functions-tab.tsx';
import { RecordsTab } from './records-tab.tsx';
import { SettingsTab } from './settings-tab.tsx';
import { SignInProvidersTab } from './sign-in-providers-tab.tsx';
import { TranslationsTab } from './translations-tab.tsx';
import './strings.ts';

const CONTENT_TABS = ['plugins', 'quick-functions', 'prompts', 'prompt-review', 'tags', 'settings', 'notifications', 'feedback', 'records', 'translations', 'error-log', 'sign-in'] as const;
type ContentTab = (typeof CONTENT_TABS)[number];

const PANELS: Record<ContentTab, () => React.ReactNode> = {
  plugins: () => <PluginsTab />,
  'quick-functions': () => <QuickFunctionsTab />,
  prompts: () => <PromptsTab />,
  'prompt-review': () => <PromptReviewTab />,
  tags: () => <PromptTagsTab />,
  settings: () => <SettingsTab />,
  notifications: () => <NotificationsTab />,
  feedback: () => <FeedbackTab />,
  records: () => <RecordsTab />,
  translations: () => <TranslationsTab />,
  'error-log': () => <ErrorLogTab />,
  'sign-in': () => <SignInProvidersTab />,
};

/** /admin/content/:tab — plugins, quick functions, recommended prompts, the review of prompts users share, prompt tags, settings, notifications, feedback, records, translations, the client error log, sign-in providers. */
export function ContentPage() {
  const { t } = useTranslation();
  const { tab: param } = useParams<{ tab?: string }>();
  const [, navigate] = useLocation();
  const tab: ContentTab = (CONTENT_TABS as readonly string[]).includes(param ?? '') ? (param as ContentTab) : 'plugins';
  return (
    <Stack>
      <Title order={2}>{t('adminContent.title')}</Title>
      <RoutedTabs tabs={CONTENT_TABS} value={tab} onChange={(next) => navigate(`/admin/content/${next}`)} label={(name) => t(`adminContent.tabs.${name}`)} panel={(name) => PANELS[name]()} />
    </Stack>
  );
}
