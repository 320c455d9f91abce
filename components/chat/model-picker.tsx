import { Button, Menu } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelListItem } from '../../shared/contracts/model.ts';
import type { ChatAddons } from './chat-addons.ts';
import './model-picker.css';
import type { ModelMenuItemsProps } from './model-menu-items.tsx';
import { modelName } from './model-name.ts';
import { deferred } from '../ui/deferred.tsx';
import { IconChevronDown } from '../ui/icons.tsx';

export interface ModelPickerProps {
  models: readonly ModelListItem[];
  selected: ModelListItem | undefined;
  onSelect: (model: ModelListItem) => void;
  disabled?: boolean;
  /** A locked model was picked (the upgrade prompt); without it, locked models cannot be picked. */
  onLockedSelect?: (model: ModelListItem) => void;
}

/** The menu's items show only once it is open: a chunk fetched once the picker shows. */
const Items = deferred<ModelMenuItemsProps>(() => import('./model-menu-items.tsx').then((module) => module.ModelMenuItems));

/** The button's name: one line, cut with an ellipsis when the toolbar has no room for all of it. */
const NAME_CUT = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 } as const;

/**
 * Models open to everyone first, then the rest grouped by plan level, ascending. Each says what it
 * is (the operator's description), what it reads, whether it searches the web, its plan and what a
 * message costs. Models above the user's plan stay listed, locked, saying which plan unlocks them.
 * The button gives way to the composer's other buttons down to a few letters of the model's name,
 * which it then cuts with an ellipsis (the full name is its tooltip).
 */
export function ModelPicker({ models, selected, onSelect, disabled, onLockedSelect }: ModelPickerProps) {
  const { t } = useTranslation();
  useEffect(() => void Items.preload(), []);
  const name = selected ? modelName(selected, t) : t('chat.model.none');

  return (
    <Menu position="top-start" width="clamp(200px, 300px, calc(100vw - 16px))" withinPortal shadow="md">
      <Menu.Target>
        <Button
          variant="default"
          size="xs"
          px={8}
          style={{ minWidth: 0, maxWidth: '100%' }}
          disabled={disabled || models.length === 0}
          rightSection={<IconChevronDown size={14} />}
          aria-label={selected ? t('chat.model.pickCurrent', { model: name }) : t('chat.model.pick')}
          title={name}
          data-testid="model-picker"
          styles={{ label: { minWidth: 0 }, section: { marginInlineStart: 4, flexShrink: 0 } }}
        >
          <span style={NAME_CUT}>{name}</span>
        </Button>
      </Menu.Target>
      <Menu.Dropdown style={{ maxHeight: 'min(440px, 70vh)', overflowY: 'auto' }} data-testid="model-menu">
        <Items.Component models={models} selected={selected} onSelect={onSelect} onLockedSelect={onLockedSelect} />
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
