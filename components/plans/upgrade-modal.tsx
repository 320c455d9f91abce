import { Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/plans.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { planName } from '../../shared/utils/plan-level.ts';
import { IconCrown } from '../ui/icons.tsx';
import { Modal } from '../ui/overlays.tsx';

addEnglishStrings(en);

export interface UpgradeModalProps {
  opened: boolean;
  /** The model that needs a plan, and the plan's name as the server gives it (minVipLevelName). */
  model?: { name: string; minVipLevel: number; minVipLevelName: string } | null;
  onSeePlans: () => void;
  onClose: () => void;
}

/**
 * The VIP upgrade modal (332 px wide): a model (or anything else) needs a higher plan; "See plans"
 * leads to the plans (vip_url).
 */
export function UpgradeModal({ opened, model, onSeePlans, onClose }: UpgradeModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} size={332} centered withCloseButton={false} aria-label={t('plans.upgrade.title')}>
      <Stack align="center" gap="sm" ta="center" data-testid="upgrade-modal">
        <ThemeIcon size={48} radius={48} variant="light" color="violet">
          <IconCrown size={26} />
        </ThemeIcon>
        <Text fw={700} size="lg">
          {t('plans.upgrade.title')}
        </Text>
        <Text size="sm" c="dimmed">
          {model ? t('plans.upgrade.model', { model: model.name, plan: planName(model.minVipLevel, model.minVipLevelName, t) }) : t('plans.upgrade.generic')}
        </Text>
        <Group grow w="100%" gap="xs" mt={4}>
          <Button variant="default" onClick={onClose}>
            {t('plans.upgrade.later')}
          </Button>
          <Button
            color="violet"
            onClick={() => {
              onClose();
              onSeePlans();
            }}
          >
            {t('plans.upgrade.seePlans')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
