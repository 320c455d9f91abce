import { Checkbox, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Plugin } from '../../shared/contracts/plugin.ts';
import { pluginText } from '../../shared/i18n/plugin-text.ts';

export interface PluginOptionsProps {
  plugins: readonly Plugin[];
  enabledIds: readonly string[];
  onToggle: (pluginId: string, on: boolean) => void;
  /** The group's accessible name (the picker's). */
  label: string;
}

function PluginOption({ plugin, checked, onToggle }: { plugin: Plugin; checked: boolean; onToggle: PluginOptionsProps['onToggle'] }) {
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
 * The plugin picker's checkboxes (plugin-picker.tsx): shown only once the popover is open, so a chunk
 * of its own, fetched when the picker first shows.
 */
export function PluginOptions({ plugins, enabledIds, onToggle, label }: PluginOptionsProps) {
  return (
    <Stack gap={10} role="group" aria-label={label}>
      {plugins.map((plugin) => (
        <PluginOption key={plugin.pluginId} plugin={plugin} checked={enabledIds.includes(plugin.pluginId)} onToggle={onToggle} />
      ))}
    </Stack>
  );
}
