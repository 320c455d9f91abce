import { z } from 'zod';

export const MAX_SETTING_VALUE_CHARS = 4000;

/** Setting keys are snake_case; a key ending in `_url` holds an http(s) address. */
export const SettingKeySchema = z.string().trim().regex(/^[a-z0-9_]{1,64}$/, 'settingKeyInvalid');

/** A system setting, as clients see it. */
export const SettingSchema = z.object({ settingKey: z.string(), settingValue: z.string() });
export type Setting = z.infer<typeof SettingSchema>;
export const SettingListSchema = z.array(SettingSchema);

export const SettingKeyQuerySchema = z.object({ settingKey: SettingKeySchema });
export const SettingKeyBodySchema = SettingKeyQuerySchema;

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

export const SaveSettingSchema = z
  .object({ settingKey: SettingKeySchema, settingValue: z.string().trim().max(MAX_SETTING_VALUE_CHARS) })
  .refine((s) => !s.settingKey.endsWith('_url') || isHttpUrl(s.settingValue), {
    message: 'settingUrlInvalid',
    path: ['settingValue'],
  });
export type SaveSetting = z.infer<typeof SaveSettingSchema>;

/** What operators see: every known key and every stored one, with where its value comes from. */
export const AdminSettingSchema = SettingSchema.extend({
  /** True when no row overrides the built-in default. */
  isDefault: z.boolean(),
  /** Public settings are listed to every client (GetSettingListAll); others only here. */
  public: z.boolean(),
  description: z.string(),
  /** The description in Chinese ('' for keys the server does not know). */
  descriptionZh: z.string(),
  /**
   * How the value is read, so the console can offer the right input and check it before saving:
   * text, url (http/https), integer (whole number within min..max), boolean ('true'/'false'), list
   * (comma-separated), model (a catalogue model's id, '' for the server's own choice: the console
   * offers the catalogue's models). Keys the server does not know are text.
   */
  valueType: z.enum(['text', 'url', 'integer', 'boolean', 'list', 'model']),
  /** Bounds of an integer setting. */
  min: z.number().int().nullable(),
  max: z.number().int().nullable(),
  /** Set by the environment: shown, but cannot be saved. */
  readOnly: z.boolean(),
  /** The built-in default; null for keys the server does not know. */
  defaultValue: z.string().nullable(),
  /** When the stored value was last saved; null while the default applies. */
  updateTime: z.string().nullable(),
});
export type AdminSetting = z.infer<typeof AdminSettingSchema>;
export const AdminSettingListSchema = z.array(AdminSettingSchema);

/** GET /api/health: what this instance depends on, each 'ok' or 'down'; draining while it shuts down. */
export const HealthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'down']),
  /** The cross-instance bus: Redis, PostgreSQL LISTEN/NOTIFY, or in-process ('local', always ok). */
  bus: z.enum(['ok', 'down']),
  busKind: z.enum(['redis', 'postgres', 'local']),
  draining: z.boolean(),
});
export type Health = z.infer<typeof HealthSchema>;

/** GET /api/System/IsChina: where the caller's address is (country: ISO 3166-1 alpha-2; null when unknown, e.g. a private address). */
export const VisitorCountrySchema = z.object({ isChina: z.boolean(), country: z.string().nullable() });
export type VisitorCountry = z.infer<typeof VisitorCountrySchema>;

/** GET /api/System/GetCountrieList: every country, named in the caller's language, in its alphabetical order. */
export const CountrySchema = z.object({ code: z.string(), name: z.string() });
export type Country = z.infer<typeof CountrySchema>;
export const CountryListSchema = z.array(CountrySchema);
