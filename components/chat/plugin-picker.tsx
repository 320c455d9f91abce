import './answer-extras.css';
import { ActionIcon, Button, Checkbox, Group, Loader, Popover, Stack, Text, Tooltip } from '@mantine/core';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plugin } from '../../shared/contracts/plugin.ts';
import { pluginText } from '../../shared/i18n/plugin-text.ts';
import { IconPuzzle } from '../ui/icons.tsx';

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

function PluginOption({ plugin, checked, onToggle }: { plugin: Plugin; checked: boolean; onToggle: PluginPickerProps['onToggle'] }) {
  const { t } = useTranslation();
  const { name, description } = pluginText(t, plugin);
  return (
    <Checkbox
      size="xs"
      checked={checked}
      disabled={!plugin.available}
      onChange={(event) => onToggle(plugin.pluginId, event.currentTarget.checked)}
      label={name}
      data-testid="plugin-option"
      data-plugin-id={plugin.pluginId}
      description={
        <>
          {description && <span style={{ display: 'block' }}>{description}</span>}
          {plugin.pointsCost > 0 && <span style={{ display: 'block' }}>{t('chat.plugins.pointsCost', { count: plugin.pointsCost })}</span>}
          {!plugin.available && (
            <Text span size="xs" c="orange.8" style={{ display: 'block' }}>
              {t('chat.plugins.unavailable')}
            </Text>
          )}
        </>
      }
    />
  );
}

/**
 * The composer's plugin button: a popover with a checkbox per function plugin of the scene. A plugin
 * the server cannot run now is shown disabled with the reason. The button shows how many are on.
 * Hidden once the list is known to be empty.
 */
export const PluginPicker = memo(function PluginPicker({ plugins, enabledIds, onToggle, loading, failed, onRetry }: PluginPickerProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  if (!loading && !failed && plugins.length === 0) return null;
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
          <Stack gap={10} role="group" aria-label={label}>
            {plugins.map((plugin) => (
              <PluginOption key={plugin.pluginId} plugin={plugin} checked={enabledIds.includes(plugin.pluginId)} onToggle={onToggle} />
            ))}
          </Stack>
        )}
      </Popover.Dropdown>
    </Popover>
  );
});
