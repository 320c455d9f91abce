import './answer-extras.css';
import { ActionIcon, Button, Group, Loader, Popover, Stack, Text, Tooltip } from '@mantine/core';
import { memo, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plugin } from '../../shared/contracts/plugin.ts';
import { deferred } from '../ui/deferred.tsx';
import { IconPuzzle } from '../ui/icons.tsx';
import type { PluginOptionsProps } from './plugin-options.tsx';

export interface PluginPickerProps {
  plugins: readonly Plugin[];
  /** The ids a message would send now (switched on and available). */
  enabledIds: readonly string[];
  onToggle: (pluginId: string, on: boolean) => void;
  loading: boolean;
  /** The list could not be loaded. */
  failed: boolean;
  onRetry: () => void;
}

/** The checkboxes show only in the open popover: a chunk fetched once the button shows. */
const Options = deferred<PluginOptionsProps>(() => import('./plugin-options.tsx').then((module) => module.PluginOptions));

/**
 * The composer's plugin button: a popover with a checkbox per function plugin of the scene. A plugin
 * the server cannot run now is shown disabled with the reason. The button shows how many are on.
 * Hidden once the list is known to be empty.
 */
export const PluginPicker = memo(function PluginPicker({ plugins, enabledIds, onToggle, loading, failed, onRetry }: PluginPickerProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const shown = loading || failed || plugins.length > 0;
  useEffect(() => {
    if (shown) void Options.preload();
  }, [shown]);
  if (!shown) return null;
  const label = t('chat.plugins.label');
  const count = enabledIds.length;
  const hint = count > 0 ? t('chat.plugins.labelActive', { count }) : label;

  return (
    // hideDetached off: the composer never scrolls away, and a page without layout (tests) would hide it.
    <Popover opened={opened} onChange={setOpened} position="top-start" withArrow shadow="md" trapFocus returnFocus hideDetached={false} width={300}>
      <Popover.Target>
        {/* The hint would cover the open popover: it stays closed meanwhile. */}
        <Tooltip label={hint} withArrow opened={opened ? false : undefined}>
          <ActionIcon
            variant={count > 0 ? 'light' : 'default'}
            size={30}
            pos="relative"
            aria-label={label}
            aria-description={count > 0 ? hint : undefined}
            aria-expanded={opened}
            data-testid="plugin-picker"
            onClick={() => setOpened((o) => !o)}
          >
            <IconPuzzle size={16} />
            {count > 0 && (
              <span className="plugin-picker-count" aria-hidden="true">
                {count}
              </span>
            )}
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown aria-label={label}>
        <Text size="sm" fw={600}>
          {t('chat.plugins.title')}
        </Text>
        <Text size="xs" c="dimmed" mb={8}>
          {t('chat.plugins.hint')}
        </Text>
        {loading ? (
          <Group gap={6}>
            <Loader size={14} aria-hidden="true" />
            <Text size="xs" c="dimmed">
              {t('chat.plugins.loading')}
            </Text>
          </Group>
        ) : failed ? (
          <Stack gap={4} align="flex-start">
            <Text size="xs" c="red" role="alert">
              {t('chat.plugins.loadFailed')}
            </Text>
            <Button size="compact-xs" variant="subtle" onClick={onRetry}>
              {t('chat.plugins.retry')}
            </Button>
          </Stack>
        ) : (
          <Options.Component plugins={plugins} enabledIds={enabledIds} onToggle={onToggle} label={label} />
        )}
      </Popover.Dropdown>
    </Popover>
  );
});
