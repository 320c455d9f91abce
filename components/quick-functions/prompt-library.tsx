import { Tabs } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserQuickFunction } from '../../shared/contracts/quick-function.ts';
import { CommunityPrompts } from './community-prompts.tsx';
import { RecommendedPrompts } from './recommended-prompts.tsx';

/**
 * The prompt library on /prompt_setting: the team's recommended prompts and the community's, one at a
 * time (a narrow panel need not scroll past one to reach the other; only the shown one is fetched).
 */
export function PromptLibrary({ own, onAdded }: { own: readonly UserQuickFunction[]; onAdded: (saved: UserQuickFunction) => void }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string | null>('recommended');
  return (
    <Tabs value={tab} onChange={setTab} keepMounted={false} variant="pills" radius="xl">
      <Tabs.List aria-label={t('quickFunctions.library.label')} mb="xs">
        <Tabs.Tab value="recommended">{t('quickFunctions.library.recommended')}</Tabs.Tab>
        <Tabs.Tab value="community">{t('quickFunctions.library.community')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="recommended">
        <RecommendedPrompts own={own} onAdded={onAdded} />
      </Tabs.Panel>
      <Tabs.Panel value="community">
        <CommunityPrompts own={own} onAdded={onAdded} />
      </Tabs.Panel>
    </Tabs>
  );
}
