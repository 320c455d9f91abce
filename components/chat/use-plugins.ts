import { useQuery } from '@tanstack/react-query';
import { useAtom, useAtomValue } from 'jotai';
import { useCallback, useMemo } from 'react';
import { pluginListQuery } from '../../shared/api/plugin.ts';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import { chatPluginIdsAtom } from '../../shared/atoms/plugin.ts';
import type { Plugin } from '../../shared/contracts/plugin.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';

/** The picker's props (PluginPickerProps, same names), and whether it is shown. */
export interface ChatPlugins {
  /** Signed in: the choice is the user's own, so a visitor sees no picker. */
  visible: boolean;
  /** The function plugins offered in this scene (available or not). */
  plugins: readonly Plugin[];
  loading: boolean;
  /** The list could not be loaded (messages are then sent without plugins). */
  failed: boolean;
  onRetry: () => void;
  /** What a message sends as pluginIds: the user's choice among the plugins available now. */
  enabledIds: string[];
  onToggle: (pluginId: string, on: boolean) => void;
}

const NO_PLUGINS: readonly Plugin[] = [];

/**
 * The function plugins of the app's scene and the ones the user switched on. Only ids the server
 * lists as available are sent: it refuses a message naming one it cannot run, while a stored choice
 * it no longer offers comes back on its own when it is offered again.
 */
export function useChatPlugins(): ChatPlugins {
  const loggedIn = useAtomValue(isLoggedInAtom);
  const { scene } = usePlatform();
  const query = useQuery({ ...pluginListQuery(scene, loggedIn), enabled: loggedIn });
  const [chosen, setChosen] = useAtom(chatPluginIdsAtom);
  const plugins = query.data ?? NO_PLUGINS;

  const enabledIds = useMemo(
    () => plugins.filter((p) => p.available && chosen.includes(p.pluginId)).map((p) => p.pluginId),
    [plugins, chosen],
  );
  const onToggle = useCallback(
    (pluginId: string, on: boolean) => {
      void setChosen(on ? [...chosen, pluginId] : chosen.filter((id) => id !== pluginId));
    },
    [chosen, setChosen],
  );
  const { refetch } = query;
  const onRetry = useCallback(() => void refetch(), [refetch]);

  return {
    visible: loggedIn,
    plugins,
    loading: loggedIn && query.isPending,
    failed: query.isError,
    onRetry,
    enabledIds,
    onToggle,
  };
}
