import { z } from 'zod';
import { definePersisted } from '../../shared/storage/persisted.ts';
import {
  DEFAULT_SIDER_SETTINGS,
  SELECTION_TOOLS_KEY,
  SELECTION_TOOLS_VERSION,
  SIDER_SETTINGS_KEY,
  SIDER_SETTINGS_VERSION,
  normalizeSiderSettings,
  readSelectionTools,
  type SelectionTools,
  type SiderSettings,
} from '../../shared/utils/sider-settings.ts';
import { atomWithPersisted } from '../../shared/atoms/persisted.ts';

/**
 * The selection toolbar's and the floating icon's settings (/sider_setting). The content script on
 * every page reads the same key without zod (shared/utils/sider-settings.ts), so the check is that
 * file's normalizer in both places.
 */
export const siderSettingsPersisted = definePersisted<SiderSettings>({
  key: SIDER_SETTINGS_KEY,
  version: SIDER_SETTINGS_VERSION,
  schema: z.unknown().transform(normalizeSiderSettings) as unknown as z.ZodType<SiderSettings>,
  fallback: DEFAULT_SIDER_SETTINGS,
});
export const siderSettingsAtom = atomWithPersisted(siderSettingsPersisted);

/** The toolbar's tools as the background last stored them (read only here). */
export const selectionToolsPersisted = definePersisted<SelectionTools>({
  key: SELECTION_TOOLS_KEY,
  version: SELECTION_TOOLS_VERSION,
  schema: z.unknown().transform((value) => readSelectionTools({ v: SELECTION_TOOLS_VERSION, value })) as unknown as z.ZodType<SelectionTools>,
  fallback: { language: 'en', tools: [] },
});
export const selectionToolsAtom = atomWithPersisted(selectionToolsPersisted);
