import { eq, inArray } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AdminSetting, SaveSetting, Setting } from '../../../shared/contracts/system.ts';
import { allowedExtensionIds, type Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { aiModels } from '../../db/schema/models.ts';
import { systemSettings } from '../../db/schema/system.ts';
import { AppError } from '../../core/errors.ts';
import { searchProviderName } from '../../providers/web-search.ts';

type SettingType = AdminSetting['valueType'];

type SettingDefinition = {
  key: string;
  /** Listed to every client; private settings are only visible to operators. */
  public: boolean;
  description: string;
  /** The description in Chinese, for the console. */
  descriptionZh?: string;
  /** How the value is read (default: url for keys ending in _url, else text); SaveSetting checks it. */
  type?: SettingType;
  /** Bounds of an integer setting. */
  min?: number;
  max?: number;
  defaultValue: (config: Config) => string;
  /** Set by the environment only: a stored row neither overrides it nor may be saved. */
  fromEnvironment?: boolean;
};

/**
 * The settings the server knows. A row in system_settings overrides the default; deleting the row
 * brings the default back. Keys not listed here may be stored by operators and stay private.
 */
export const SETTINGS: readonly SettingDefinition[] = [
  { key: 'product_name', public: true, description: 'Product name shown to users.', descriptionZh: '向用户显示的产品名称。', defaultValue: () => 'Tandem' },
  {
    key: 'login_page_url',
    public: true,
    description: 'The login page the client opens in its login dialog.',
    descriptionZh: '客户端登录对话框打开的登录页面。',
    defaultValue: (c) => `${c.publicUrl}/login`,
  },
  {
    key: 'vip_url',
    public: true,
    description: 'The plans page the VIP upgrade dialog opens.',
    descriptionZh: 'VIP 升级对话框打开的套餐页面。',
    defaultValue: (c) => `${c.publicUrl}/pricing`,
  },
  {
    key: 'web_search_provider',
    public: true,
    description:
      'The web search provider the server uses (searxng, tavily, brave), from its environment; empty when web search is not set up (the client then disables its toggle).',
    descriptionZh: '服务器使用的网页搜索服务（searxng、tavily、brave），来自其环境变量；未设置网页搜索时为空（客户端随即禁用其开关）。',
    defaultValue: (c) => searchProviderName(c) ?? '',
  },
  {
    key: 'extension_ids',
    public: true,
    fromEnvironment: true,
    description:
      'The extension ids this server trusts, comma-separated (the unpacked build and EXTENSION_IDS): the login page hands sign-ins only to these and to the web app.',
    descriptionZh: '此服务器信任的扩展 ID，以逗号分隔（未打包版本与 EXTENSION_IDS）：登录页仅将登录交给这些扩展和网页应用。',
    type: 'list',
    defaultValue: (c) => allowedExtensionIds(c).join(','),
  },
  {
    key: 'monitoring_url',
    public: true,
    type: 'url',
    description:
      'An address (e.g. a CDN file) the client asks for anonymously once in about a thousand starts: a GET with no cookie, no referrer and no identifier, to measure reach. Empty: never.',
    descriptionZh: '客户端大约每一千次启动匿名请求一次的地址（例如 CDN 上的文件）：不带 Cookie、来源和任何标识的 GET，用于衡量覆盖面。留空则从不请求。',
    defaultValue: () => '',
  },
  {
    key: 'chrome_download_url',
    public: true,
    description: 'Download of the Chrome extension.',
    descriptionZh: 'Chrome 扩展的下载地址。',
    defaultValue: (c) => `${c.publicUrl}/downloads/tandem-chrome.zip`,
  },
  {
    key: 'edge_download_url',
    public: true,
    description: 'Download of the Edge extension.',
    descriptionZh: 'Edge 扩展的下载地址。',
    defaultValue: (c) => `${c.publicUrl}/downloads/tandem-edge.zip`,
  },
  {
    key: 'firefox_download_url',
    public: true,
    description: 'Download of the Firefox add-on (the package `wxt zip -b firefox` builds).',
    descriptionZh: 'Firefox 附加组件的下载地址（`wxt zip -b firefox` 构建的包）。',
    defaultValue: (c) => `${c.publicUrl}/downloads/tandem-firefox.zip`,
  },
  {
    key: 'chrome_store_url',
    public: true,
    description: "The extension's Chrome Web Store page. When set, the home page's Chrome button opens it instead of the package download.",
    descriptionZh: '扩展在 Chrome 应用商店的页面。设置后，首页的 Chrome 按钮打开它而不是下载安装包。',
    defaultValue: () => '',
  },
  {
    key: 'edge_store_url',
    public: true,
    description: "The extension's Microsoft Edge Add-ons page. When set, the home page's Edge button opens it instead of the package download.",
    descriptionZh: '扩展在 Microsoft Edge 加载项的页面。设置后，首页的 Edge 按钮打开它而不是下载安装包。',
    defaultValue: () => '',
  },
  {
    key: 'firefox_store_url',
    public: true,
    description: "The add-on's addons.mozilla.org page. When set, the home page's Firefox button opens it instead of the package download.",
    descriptionZh: '附加组件在 addons.mozilla.org 的页面。设置后，首页的 Firefox 按钮打开它而不是下载安装包。',
    defaultValue: () => '',
  },
  {
    key: 'invite_points',
    public: true,
    description:
      'Points an inviter earns per invited account, once that account has spent invite_min_spend points of its own (docs/economy.md#invites): a whole number; 0 turns the credit off.',
    descriptionZh: '每邀请一个账号（在该账号花费 invite_min_spend 积分后）邀请人获得的积分：整数；0 表示关闭奖励。',
    type: 'integer',
    min: 0,
    max: 999_999_999,
    defaultValue: () => '100',
  },
  {
    key: 'invite_daily_cap',
    public: false,
    description: 'Invite credits one inviter can earn per UTC day (docs/economy.md#invites); later invitees are credited on a later day.',
    descriptionZh: '每个邀请人每个 UTC 日最多获得的邀请奖励次数；超出的被邀请人在之后的日子计入。',
    type: 'integer',
    min: 0,
    max: 999_999_999,
    defaultValue: () => '20',
  },
  {
    key: 'invite_min_spend',
    public: false,
    description:
      "Points an invitee must spend from their own balance (beyond the free daily allowance, refunds deducted) before their inviter is credited (docs/economy.md#invites); 0 credits at the invitee's first message.",
    descriptionZh: '被邀请人须从自己的余额（免费每日额度之外，扣除退款）花费的积分，达到后邀请人才获得奖励；0 表示在被邀请人第一条消息后即奖励。',
    type: 'integer',
    min: 0,
    max: 999_999_999,
    defaultValue: () => '50',
  },
  {
    key: 'require_verified_email_for_invite_reward',
    public: false,
    description:
      "'true': an inviter's reward waits until the invitee has verified their e-mail (docs/api.md#verified-e-mail); it is then credited at verification, or later once invite_min_spend is met. Needs SMTP_URL, or no invitee can verify. 'false' (the default) does not look at verification.",
    descriptionZh:
      "'true'：邀请奖励须等被邀请人验证邮箱后才发放（在验证时发放，若尚未达到 invite_min_spend 则在达到后发放）。需要设置 SMTP_URL，否则无人能验证。'false'（默认）不考虑邮箱验证。",
    type: 'boolean',
    defaultValue: () => 'false',
  },
  {
    key: 'checkin_points',
    public: true,
    description: 'Points a daily check-in gives (docs/economy.md#check-in): a whole number from 1 to 1000000; any other value counts as the default.',
    descriptionZh: '每日签到获得的积分：1 到 1000000 的整数。',
    type: 'integer',
    min: 1,
    max: 1_000_000,
    defaultValue: () => '10',
  },
  {
    key: 'checkin_streak_bonus',
    public: true,
    description: 'Extra points a check-in gives on every 7th consecutive day (docs/economy.md#check-in); 0, or a value that is not a whole number up to 1000000, turns the bonus off.',
    descriptionZh: '连续签到每第 7 天额外获得的积分；0 表示关闭。',
    type: 'integer',
    min: 0,
    max: 1_000_000,
    defaultValue: () => '0',
  },
  {
    key: 'plan_points_expire',
    public: false,
    description:
      "'true': when a paid period ends, the unspent part of the points it granted expires (docs/economy.md#plans); anything else keeps them.",
    descriptionZh: "'true'：付费周期结束时，其赠送积分中未用完的部分过期；其他值则保留。",
    type: 'boolean',
    defaultValue: () => 'false',
  },
  {
    key: 'translation_model',
    public: false,
    description:
      'The catalogue model that translates (POST /api/System/TransText, docs/api.md#translation): a model id. Empty (the default), or a model that is offline, has no enabled deployment or is not a chat model: the cheapest basic (Free-plan) chat model.',
    descriptionZh:
      '负责翻译的模型（POST /api/System/TransText）：填写模型 ID。留空（默认），或该模型已下线、没有启用的部署、不是对话模型时：使用最便宜的基础（免费套餐）对话模型。',
    type: 'model',
    defaultValue: () => '',
  },
  {
    key: 'translation_points_per_1k_chars',
    public: false,
    description:
      'Points a translation costs per 1,000 characters translated (placeholder tags and blank segments not counted), rounded up, at least 1 for any text (docs/api.md#translation); 0 makes translation free.',
    descriptionZh: '翻译每 1000 个字符收取的积分（不计占位标签和空白段落），向上取整，有文字时至少 1 分；0 表示免费翻译。',
    type: 'integer',
    min: 0,
    max: 1_000_000,
    defaultValue: () => '1',
  },
];

const definitionOf = (key: string) => SETTINGS.find((d) => d.key === key);

const typeOf = (d: SettingDefinition): SettingType => d.type ?? (d.key.endsWith('_url') ? 'url' : 'text');

/** What the console needs to show a known setting and check a value before saving it. */
const metaOf = (d: SettingDefinition) => ({
  descriptionZh: d.descriptionZh ?? '',
  valueType: typeOf(d),
  min: d.min ?? null,
  max: d.max ?? null,
  readOnly: !!d.fromEnvironment,
});

/** Refuses a value its setting cannot read (a typing mistake would otherwise silently mean the default). */
function checkValue(d: SettingDefinition, value: string): void {
  const type = typeOf(d);
  if (type === 'integer') {
    const min = d.min ?? 0;
    const max = d.max ?? Number.MAX_SAFE_INTEGER;
    if (Number.isNaN(wholeNumberSetting(value, min, max, NaN))) {
      throw new AppError(Codes.BadRequest, 'settingIntegerInvalid', { key: d.key, min, max });
    }
  }
  if (type === 'boolean' && value !== 'true' && value !== 'false') throw new AppError(Codes.BadRequest, 'settingBooleanInvalid', { key: d.key });
}

/** A model setting names a model of the catalogue (online or not), or is empty (the server chooses). */
async function checkModel(ctx: AppContext, d: SettingDefinition, value: string): Promise<void> {
  if (typeOf(d) !== 'model' || value === '') return;
  const [found] = await ctx.db.select({ id: aiModels.id }).from(aiModels).where(eq(aiModels.id, value));
  if (!found) throw new AppError(Codes.BadRequest, 'settingModelUnknown', { key: d.key, id: value });
}

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
      ...metaOf(d),
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
      descriptionZh: '',
      valueType: 'text',
      min: null,
      max: null,
      readOnly: false,
      defaultValue: null,
      updateTime: r.updatedAt.toISOString(),
    }));
  return [...known, ...custom];
}

/** One setting as operators see it; 10404 for a key that is neither known nor stored. */
export async function getAdminSetting(ctx: AppContext, key: string): Promise<AdminSetting> {
  const found = (await listAllSettings(ctx)).find((s) => s.settingKey === key);
  if (!found) throw new AppError(Codes.NotFound, 'settingNotFound', { key });
  return found;
}

export async function saveSetting(ctx: AppContext, input: SaveSetting): Promise<AdminSetting> {
  const def = definitionOf(input.settingKey);
  if (def?.fromEnvironment) throw new AppError(Codes.BadRequest, 'settingFromEnvironment', { key: input.settingKey });
  if (def) {
    checkValue(def, input.settingValue);
    await checkModel(ctx, def, input.settingValue);
  }
  const now = new Date();
  await ctx.db
    .insert(systemSettings)
    .values({ settingKey: input.settingKey, settingValue: input.settingValue, updatedAt: now })
    .onConflictDoUpdate({ target: systemSettings.settingKey, set: { settingValue: input.settingValue, updatedAt: now } });
  return getAdminSetting(ctx, input.settingKey);
}

/** Removes the stored value: a known key falls back to its default, an unknown one disappears. */
export async function deleteSetting(ctx: AppContext, key: string): Promise<AdminSetting | null> {
  const deleted = await ctx.db.delete(systemSettings).where(eq(systemSettings.settingKey, key)).returning();
  if (!definitionOf(key)) {
    if (!deleted.length) throw new AppError(Codes.NotFound, 'settingNotFound', { key });
    return null;
  }
  return getAdminSetting(ctx, key);
}
