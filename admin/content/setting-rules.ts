import { MAX_SETTING_VALUE_CHARS, SaveSettingSchema, type AdminSetting } from '../../shared/contracts/system.ts';

/** How a setting's value is edited and checked: the type the server names for it. */
type SettingKind = AdminSetting['valueType'];

export function settingKind(setting: AdminSetting): SettingKind {
  return setting.valueType;
}

/**
 * What is wrong with `value` for this setting (a key of adminContent.settings.problems), or null.
 * The same rules the server applies: a value it would refuse is not sent.
 */
export function settingProblem(setting: AdminSetting, value: string): string | null {
  const trimmed = value.trim();
  if (trimmed.length > MAX_SETTING_VALUE_CHARS) return 'tooLong';
  if (value.includes('\u0000')) return 'invalidCharacters';
  // The contract's own check: a key ending in _url must hold an http(s) address.
  const url = setting.valueType === 'url' || setting.settingKey.endsWith('_url');
  if (url && !SaveSettingSchema.safeParse({ settingKey: setting.settingKey, settingValue: trimmed }).success) return 'url';
  if (setting.valueType === 'integer') {
    if (!/^\d{1,10}$/.test(trimmed)) return 'integer';
    const n = Number(trimmed);
    if ((setting.min !== null && n < setting.min) || (setting.max !== null && n > setting.max)) return 'range';
  }
  if (setting.valueType === 'boolean' && trimmed !== 'true' && trimmed !== 'false') return 'boolean';
  if (setting.valueType === 'list' && trimmed.split(',').some((item) => item.trim() === '') && trimmed !== '') return 'list';
  return null;
}

/** The description in the console's language (the English one when there is no Chinese). */
export function settingDescription(setting: AdminSetting, language: string): string {
  return language === 'zh' && setting.descriptionZh ? setting.descriptionZh : setting.description;
}
