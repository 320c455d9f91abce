import { Button, Menu, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AUTO_MODEL_ID, type ModelListItem } from '../../shared/contracts/model.ts';
import { planName } from '../../shared/utils/plan-level.ts';
import type { ChatAddons } from './chat-addons.ts';
import { groupModelsByLevel } from '../../shared/utils/default-model.ts';
import { IconChevronDown, IconLock } from '../ui/icons.tsx';

export interface ModelPickerProps {
  models: readonly ModelListItem[];
  selected: ModelListItem | undefined;
  onSelect: (model: ModelListItem) => void;
  disabled?: boolean;
  /** A locked model was picked (the upgrade prompt); without it, locked models cannot be picked. */
  onLockedSelect?: (model: ModelListItem) => void;
}

/** A model's name; the server's 'Auto' entry is named in the reader's language. */
function modelName(model: ModelListItem, t: (key: string) => string): string {
  return model.aiModelId === AUTO_MODEL_ID ? t('chat.model.auto') : model.name;
}

/**
 * Models open to everyone first, then the rest grouped by plan level, ascending. Models
 * above the user's plan stay listed, locked, saying which plan unlocks them.
 */
export function ModelPicker({ models, selected, onSelect, disabled, onLockedSelect }: ModelPickerProps) {
  const { t } = useTranslation();
  const { ungrouped, groups } = groupModelsByLevel(models);

  const item = (model: ModelListItem) => (
    <Menu.Item
      key={model.aiModelId}
      disabled={model.locked && !onLockedSelect}
      onClick={() => (model.locked ? onLockedSelect?.(model) : onSelect(model))}
      data-locked={model.locked || undefined}
      data-model-id={model.aiModelId}
      rightSection={model.locked ? <IconLock size={14} /> : undefined}
      aria-current={model.aiModelId === selected?.aiModelId ? 'true' : undefined}
    >
      <Text size="sm" fw={model.aiModelId === selected?.aiModelId ? 600 : 400} c={model.locked ? 'dimmed' : undefined}>
        {modelName(model, t)}
      </Text>
      {model.locked ? (
        <Text size="xs" c="dimmed">
          {t('chat.model.lockedHint', { plan: planName(model.minVipLevel, model.minVipLevelName, t) })}
        </Text>
      ) : (
        model.description && (
          <Text size="xs" c="dimmed" lineClamp={1}>
            {model.aiModelId === AUTO_MODEL_ID ? t('chat.model.autoDescription') : model.description}
          </Text>
        )
      )}
    </Menu.Item>
  );

  return (
    <Menu position="top-start" width={280} withinPortal shadow="md">
      <Menu.Target>
        <Button
          variant="default"
          size="xs"
          disabled={disabled || models.length === 0}
          rightSection={<IconChevronDown size={14} />}
          aria-label={t('chat.model.pick')}
          data-testid="model-picker"
        >
          {selected ? modelName(selected, t) : t('chat.model.none')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown mah={360} style={{ overflowY: 'auto' }}>
        {ungrouped.map(item)}
        {groups.map((group) => [
          <Menu.Label key={`label-${group.level}`}>{planName(group.level, group.levelName, t)}</Menu.Label>,
          ...group.models.map(item),
        ])}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * Picking a locked model opens the addons' upgrade prompt (naming the plan that unlocks it); without
 * that addon, locked models stay unpickable (`onLockedSelect` undefined).
 */
export function useLockedModelPrompt(addons: ChatAddons): { onLockedSelect?: (model: ModelListItem) => void; prompt: ReactNode } {
  const [state, setState] = useState<{ opened: boolean; model: ModelListItem | null }>({ opened: false, model: null });
  if (!addons.upgradePrompt) return { prompt: null };
  return {
    onLockedSelect: (model) => setState({ opened: true, model }),
    prompt: addons.upgradePrompt({ ...state, onClose: () => setState((s) => ({ ...s, opened: false })) }),
  };
}
