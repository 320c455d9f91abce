import { eq, inArray } from 'drizzle-orm';
import { Codes } from '../../shared/contracts/envelope.ts';
import type { AdminSetting, SaveSetting, Setting } from '../../shared/contracts/system.ts';
import { allowedExtensionIds, type Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { systemSettings } from '../db/schema/system.ts';
import { AppError } from '../http/errors.ts';
import { searchProviderName } from '../providers/web-search.ts';

type SettingDefinition = {
  key: string;
  /** Listed to every client; private settings are only visible to operators. */
  public: boolean;
  description: string;
  defaultValue: (config: Config) => string;
  /** Set by the environment only: a stored row neither overrides it nor may be saved. */
  fromEnvironment?: boolean;
};

/**
 * The settings the server knows. A row in system_settings overrides the default; deleting the row
 * brings the default back. Keys not listed here may be stored by operators and stay private.
 */
export const SETTINGS: readonly SettingDefinition[] = [
  { key: 'product_name', public: true, description: 'Product name shown to users.', defaultValue: () => 'Tandem' },
  {
    key: 'login_page_url',
    public: true,
    description: 'The login page the client opens in its login dialog.',
    defaultValue: (c) => `${c.publicUrl}/login`,
  },
  {
    key: 'vip_url',
    public: true,
    description: 'The plans page the VIP upgrade dialog opens.',
    defaultValue: (c) => `${c.publicUrl}/pricing`,
  },
  {
    key: 'web_search_provider',
    public: true,
    description:
      'The web search provider the server uses (searxng, tavily, brave), from its environment; empty when web search is not set up (the client then disables its toggle).',
    defaultValue: (c) => searchProviderName(c) ?? '',
  },
  {
    key: 'extension_ids',
    public: true,
    fromEnvironment: true,
    description:
      'The extension ids this server trusts, comma-separated (the unpacked build and EXTENSION_IDS): the login page hands sign-ins only to these and to the web app.',
    defaultValue: (c) => allowedExtensionIds(c).join(','),
  },
  {
    key: 'chrome_download_url',
    public: true,
    description: 'Download of the Chrome extension.',
    defaultValue: (c) => `${c.publicUrl}/downloads/tandem-chrome.zip`,
  },
  {
    key: 'edge_download_url',
    public: true,
    description: 'Download of the Edge extension.',
    defaultValue: (c) => `${c.publicUrl}/downloads/tandem-edge.zip`,
  },
  {
    key: 'firefox_download_url',
    public: true,
    description: 'Download of the Firefox add-on (the package `wxt zip -b firefox` builds).',
    defaultValue: (c) => `${c.publicUrl}/downloads/tandem-firefox.zip`,
  },
  {
    key: 'chrome_store_url',
    public: true,
    description: "The extension's Chrome Web Store page. When set, the home page's Chrome button opens it instead of the package download.",
    defaultValue: () => '',
  },
  {
    key: 'edge_store_url',
    public: true,
    description: "The extension's Microsoft Edge Add-ons page. When set, the home page's Edge button opens it instead of the package download.",
    defaultValue: () => '',
  },
  {
    key: 'firefox_store_url',
    public: true,
    description: "The add-on's addons.mozilla.org page. When set, the home page's Firefox button opens it instead of the package download.",
    defaultValue: () => '',
  },
  {
    key: 'invite_points',
    public: true,
    description:
      "Points an inviter earns per invited account, after that account's first message (docs/economy.md#invites): a whole number; 0 turns the credit off.",
    defaultValue: () => '100',
  },
  {
    key: 'invite_daily_cap',
    public: false,
    description: 'Invite credits one inviter can earn per UTC day (docs/economy.md#invites); later invitees are credited on a later day.',
    defaultValue: () => '20',
  },
  {
    key: 'checkin_points',
    public: true,
    description: 'Points a daily check-in gives (docs/economy.md#check-in): a whole number from 1 to 1000000; any other value counts as the default.',
    defaultValue: () => '10',
  },
  {
    key: 'checkin_streak_bonus',
    public: true,
    description: 'Extra points a check-in gives on every 7th consecutive day (docs/economy.md#check-in); 0, or a value that is not a whole number up to 1000000, turns the bonus off.',
    defaultValue: () => '0',
  },
  {
    key: 'plan_points_expire',
    public: false,
    description:
      "'true': when a paid period ends, the unspent part of the points it granted expires (docs/economy.md#plans); anything else keeps them.",
    defaultValue: () => 'false',
  },
];

const definitionOf = (key: string) => SETTINGS.find((d) => d.key === key);

const valueOf = (d: SettingDefinition, stored: string | undefined, config: Config) =>
  d.fromEnvironment ? d.defaultValue(config) : (stored ?? d.defaultValue(config));

/**
 * The values in force of known settings (stored, else the default), read in one query: for services
 * that act on settings (check-in points, invite rewards, plan points expiry).
 */
export async function settingValues<K extends string>(ctx: AppContext, keys: readonly K[]): Promise<Record<K, string>> {
  const rows = await ctx.db.select().from(systemSettings).where(inArray(systemSettings.settingKey, [...keys]));
  const stored = new Map(rows.map((r) => [r.settingKey, r.settingValue]));
  const out = {} as Record<K, string>;
  for (const key of keys) {
    const def = definitionOf(key);
    out[key] = def ? valueOf(def, stored.get(key), ctx.config) : (stored.get(key) ?? '');
  }
  return out;
}

/** A setting's value as a whole number in [min, max]; anything else (a typing mistake) counts as `fallback`. */
export function wholeNumberSetting(value: string, min: number, max: number, fallback: number): number {
  const n = /^\s*\d{1,10}\s*$/.test(value) ? Number(value) : NaN;
  return n >= min && n <= max ? n : fallback;
}

async function storedSettings(ctx: AppContext) {
  const rows = await ctx.db.select().from(systemSettings);
  return new Map(rows.map((r) => [r.settingKey, r]));
}

export async function listPublicSettings(ctx: AppContext): Promise<Setting[]> {
  const stored = await storedSettings(ctx);
  return SETTINGS.filter((d) => d.public).map((d) => ({
    settingKey: d.key,
    settingValue: valueOf(d, stored.get(d.key)?.settingValue, ctx.config),
  }));
}

/** A public setting; private and unknown keys are answered as not found alike. */
export async function getPublicSetting(ctx: AppContext, key: string): Promise<Setting> {
  const def = definitionOf(key);
  if (!def?.public) throw new AppError(Codes.NotFound, 'settingNotFound', { key });
  const [row] = await ctx.db.select().from(systemSettings).where(eq(systemSettings.settingKey, key));
  return { settingKey: key, settingValue: valueOf(def, row?.settingValue, ctx.config) };
}

export async function listAllSettings(ctx: AppContext): Promise<AdminSetting[]> {
  const stored = await storedSettings(ctx);
  const known = SETTINGS.map((d): AdminSetting => {
    const row = stored.get(d.key);
    const defaultValue = d.defaultValue(ctx.config);
    return {
      settingKey: d.key,
      settingValue: valueOf(d, row?.settingValue, ctx.config),
      isDefault: !row || !!d.fromEnvironment,
      public: d.public,
      description: d.description,
      defaultValue,
      updateTime: row ? row.updatedAt.toISOString() : null,
    };
  });
  const custom = [...stored.values()]
    .filter((r) => !definitionOf(r.settingKey))
    .sort((a, b) => a.settingKey.localeCompare(b.settingKey))
    .map((r): AdminSetting => ({
      settingKey: r.settingKey,
      settingValue: r.settingValue,
      isDefault: false,
      public: false,
      description: '',
      defaultValue: null,
      updateTime: r.updatedAt.toISOString(),
    }));
  return [...known, ...custom];
}

async function adminSetting(ctx: AppContext, key: string): Promise<AdminSetting> {
  const found = (await listAllSettings(ctx)).find((s) => s.settingKey === key);
  if (!found) throw new AppError(Codes.NotFound, 'settingNotFound', { key });
  return found;
}

export async function saveSetting(ctx: AppContext, input: SaveSetting): Promise<AdminSetting> {
  if (definitionOf(input.settingKey)?.fromEnvironment) throw new AppError(Codes.BadRequest, 'settingFromEnvironment', { key: input.settingKey });
  const now = new Date();
  await ctx.db
    .insert(systemSettings)
    .values({ settingKey: input.settingKey, settingValue: input.settingValue, updatedAt: now })
    .onConflictDoUpdate({ target: systemSettings.settingKey, set: { settingValue: input.settingValue, updatedAt: now } });
  return adminSetting(ctx, input.settingKey);
}

/** Removes the stored value: a known key falls back to its default, an unknown one disappears. */
export async function deleteSetting(ctx: AppContext, key: string): Promise<AdminSetting | null> {
  const deleted = await ctx.db.delete(systemSettings).where(eq(systemSettings.settingKey, key)).returning();
  if (!definitionOf(key)) {
    if (!deleted.length) throw new AppError(Codes.NotFound, 'settingNotFound', { key });
    return null;
  }
  return adminSetting(ctx, key);
}
