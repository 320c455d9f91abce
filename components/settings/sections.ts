/**
 * The settings' sections, in the order the list shows them; each is a page of its own at
 * /setting/<id> (components/layout/settings-routes.tsx). Kept apart from the page so the routes can
 * check an address without fetching the page's chunk.
 */
export const SETTINGS_SECTIONS = ['general', 'account', 'points', 'prompts', 'privacy', 'extension'] as const;

export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number];

export function isSettingsSection(slug: string | undefined): slug is SettingsSectionId {
  return (SETTINGS_SECTIONS as readonly string[]).includes(slug ?? '');
}

/** The address of a section, or of the list (`null`: /setting). */
export function settingsPath(section: SettingsSectionId | null): string {
  return section ? `/setting/${section}` : '/setting';
}
