import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useIsFetching } from '@tanstack/react-query';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AdminRoutes } from '../../admin/admin-routes.tsx';
import { AdminLayout } from '../../admin/shell/admin-layout.tsx';
import { PlanCard } from '../../components/chat-history/plan-card.tsx';
import { ChatView } from '../../components/chat/chat-view.tsx';
import { ChatSidebar } from '../../components/chat-history/chat-sidebar.tsx';
import { FavouritesPage } from '../../components/favourites/favourites-page.tsx';
import { InvitePage } from '../../components/invite/invite-page.tsx';
import { LoginPage } from '../../components/login/login-page.tsx';
import { SharedChatPage } from '../../components/share/shared-chat-page.tsx';
import { NotificationBell } from '../../components/notifications/notification-bell.tsx';
import { PointsHistory } from '../../components/points/points-history.tsx';
import { QuickActions } from '../../components/popup/quick-actions.tsx';
import { SubscriptionPage } from '../../components/plans/subscription-page.tsx';
import { LedgerKindSchema } from '../../shared/contracts/points.ts';
import type { UserInfo } from '../../shared/contracts/user.ts';
import { PricingPage } from '../../components/plans/pricing-page.tsx';
import { SettingsPage } from '../../components/settings/settings-page.tsx';
import { SETTINGS_SECTIONS } from '../../components/settings/sections.ts';
import { AppRouter } from '../../components/app-shell/router.tsx';
import { AppRoutes } from '../../components/layout/app-routes.tsx';
import { setLanguage } from '../../shared/i18n/i18n.ts';
import { dashboardStats } from '../helpers/dashboard.ts';
import { answer, fakeApi, serveTheseTests, type Route } from '../helpers/fake-api.ts';
import { listedMessage } from '../helpers/messages.ts';
import { testModel } from '../helpers/models.ts';
import { renderInApp, testUser } from '../helpers/render-app.tsx';
import { prepareDataTables } from '../admin/shell/datatable-env.ts';
import { packageList, packageModelsRoute } from './plans/fake-plans.ts';

/**
 * The main screens in Chinese: no run of Latin words that is not a product or model name. The
 * server's default plan and model-level names (Standard, Advanced, the Auto model's English
 * description) come as they are, and must be shown in the reader's language.
 */
const ALLOWED = new Set([
  // The product, and the language chooser's own name for English.
  'Tandem',
  'English',
  // The fake catalogue's model names.
  'Mini',
  'Pro',
  'Ultra',
  // Abbreviations Chinese interfaces write in Latin letters: AI, a currency's country, an identifier, a time zone.
  'AI',
  'US',
  'ID',
  'UTC',
  // The payment provider, by its name.
  'Stripe',
  // Keys' names as printed on the keyboard.
  'Esc',
  'Enter',
  'Shift',
  'Ctrl',
  // Browsers, by their names.
  'Chrome',
  'Edge',
  'Firefox',
  // The unit models count text in, which Chinese AI products write in Latin letters.
  'Token',
  // Image formats, by their names (the picture in Settings → Account).
  'PNG',
  'JPEG',
  'WebP',
]);
const MODELS = [
  { ...testModel('auto', 0, { name: 'Auto', description: 'Picks a model for each message: your plan, attached images and the length of the chat decide.' }) },
  testModel('mini', 0, { name: 'Mini' }),
  testModel('pro', 1, { name: 'Pro', minVipLevelName: 'Standard', locked: true }),
  testModel('ultra', 2, { name: 'Ultra', minVipLevelName: 'Advanced', locked: true }),
];
const standardUser = { ...testUser, userName: '小明', vipOrder: { vipOrderId: 'o1', vipPackageLevel: 1, vipPackageName: 'Standard', endTime: '2027-11-25T00:00:00Z' } };

let signedIn: UserInfo = testUser;
const admin = { userId: 'a1', userName: '管理员', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };
const empty = answer({ list: [], total: 0 });

const plugin = (toolName: string, pluginName: string, description: string, available: boolean) => ({
  pluginId: toolName,
  pluginName,
  description,
  pluginType: 2,
  toolName,
  icon: '',
  pointsCost: 1,
  available,
  online: true,
  scenes: '',
  sort: 0,
  updateTime: '2026-11-25T10:00:00.000Z',
});

const auditEntry = (n: number, action: string, targetType: string, targetId: string | null) => ({
  id: `e${n}`,
  actorId: 'a1',
  actorEmail: 'admin@example.com',
  action,
  targetType,
  targetId,
  before: null,
  after: null,
  createTime: '2026-11-25T10:00:00.000Z',
});

/** Console rows where names come from the server: plans by their levels' default names, models by theirs. */
const consoleModel = (aiModelId: string, name: string, minVipLevel: number, minVipLevelName: string) => ({
  aiModelId,
  name,
  description: '',
  minVipLevel,
  minVipLevelName,
  modelMap: { isImage: minVipLevel > 0, fileTypes: [] },
  webSearch: true,
  pointsCost: minVipLevel + 1,
  tokenPrice: null,
  contextWindow: 8192,
  sort: minVipLevel,
  online: minVipLevel < 2,
  source: 'admin',
  deploymentCount: 1,
  createTime: '2026-11-01T00:00:00.000Z',
  updateTime: '2026-11-01T00:00:00.000Z',
});
const consoleUser = (n: number, role: 'user' | 'admin', status: 'active' | 'closed', planLevel: number) => ({
  userId: `${n}`,
  email: `user${n}@example.com`,
  userName: '小明',
  role,
  status,
  planLevel,
  planEndTime: planLevel ? '2027-11-25T00:00:00.000Z' : null,
  balance: 120,
  sessionCount: 3,
  lastActiveTime: '2026-11-25T10:00:00.000Z',
  createTime: '2026-11-01T00:00:00.000Z',
});
const consolePackage = (level: number, name: string, period: 'month' | 'year') => ({
  vipPackageId: `${name.toLowerCase()}-${period}`,
  name,
  level,
  period,
  prices: { usd: 999 * level, cny: 6900 * level },
  stripePriceIds: {},
  monthlyPoints: 1000 * level,
  bestDeal: period === 'year',
  online: true,
  sort: level,
  createTime: '2026-11-01T00:00:00.000Z',
  updateTime: '2026-11-01T00:00:00.000Z',
});
const consoleOrder = (n: number, status: 'active' | 'refunded', source: string) => ({
  vipOrderId: `o${n}`,
  userId: `${n}`,
  userEmail: `user${n}@example.com`,
  userName: '小明',
  packageLevel: 1,
  packageName: 'Standard',
  packageId: 'standard-month',
  period: 'month',
  source,
  status,
  amount: 999,
  currency: 'usd',
  startTime: '2026-11-01T00:00:00.000Z',
  endTime: '2026-12-01T00:00:00.000Z',
  createTime: '2026-11-01T00:00:00.000Z',
  refundTime: status === 'refunded' ? '2026-11-02T00:00:00.000Z' : null,
  dispute: status === 'refunded' ? 'open' : null,
  stripeInvoiceId: null,
  stripeSubscriptionId: null,
  pointsGranted: 1000,
  pointsTaken: 0,
  hiddenByUser: false,
});

/** The dashboard over the days asked for: two busy days, two models, one deployment that failed over. */
const dashboard: Route = (req, res, url) => {
  const from = url.searchParams.get('from') ?? '2026-11-24';
  const to = url.searchParams.get('to') ?? '2026-11-25';
  return answer(dashboardStats(from, to, [{ aiModelId: 'pro', modelName: 'Pro' }, { aiModelId: 'mini', modelName: 'Mini' }], from))(req, res, url);
};

/** The console's calls: realistic rows where the issue found English, empty pages elsewhere. */
const CONSOLE_ROUTES: Record<string, Route> = {
  // The signed-in account as the server knows it: the console's administrator only in the console's tests.
  '/api/User/GetUserByLogin': (req, res, url) => answer(signedIn)(req, res, url),
  '/api/admin/Statistic/GetDashboard': dashboard,
  '/api/admin/Plugin/GetList': answer([
    plugin('web_search', 'Web search', 'Searches the web when a question needs current or outside information, and cites its sources.', true),
    plugin('read_url', 'Read web page', 'Opens a public web page by its address and reads it.', true),
    plugin('generate_image', 'Image generation', 'Draws a picture from a description.', false),
  ]),
  '/api/admin/AuditLog/GetList': answer({
    list: [auditEntry(1, 'RedeemCode/GenerateBatch', 'redeemBatch', null), auditEntry(2, 'AiModel/Save', 'aiModel', '42'), auditEntry(3, 'User/GrantPoints', 'user', '17')],
    total: 3,
  }),
  '/api/admin/QuickFunction/GetList': answer([]),
  '/api/admin/AiPrompWord/GetList': empty,
  '/api/admin/TagPrompt/GetList': answer([{ tagPromptId: 't1', nameEn: 'Email', nameZh: '邮件', sort: 10, createTime: '2026-11-01T00:00:00.000Z', promptCount: 2, userPromptCount: 0 }]),
  '/api/admin/System/GetSettingList': answer([]),
  '/api/admin/Feedback/GetList': empty,
  '/api/admin/Records/GetRequestTimes': empty,
  '/api/admin/Records/GetPageViews': empty,
  '/api/admin/Vip/GetPackageList': answer([consolePackage(1, 'Standard', 'month'), consolePackage(2, 'Advanced', 'year'), consolePackage(3, 'Super', 'month')]),
  '/api/admin/Vip/GetOrderList': answer({ list: [consoleOrder(1, 'active', 'stripe'), consoleOrder(2, 'refunded', 'stripe'), consoleOrder(3, 'active', 'redeem')], total: 3 }),
  '/api/admin/Vip/GetSubscriptionList': empty,
  '/api/admin/RedeemCode/GetBatchList': empty,
  '/api/admin/Coupons/GetList': empty,
  '/api/admin/User/GetList': answer({ list: [consoleUser(1, 'user', 'active', 2), consoleUser(2, 'admin', 'active', 0), consoleUser(3, 'user', 'closed', 1)], total: 3 }),
  '/api/admin/AiModel/GetList': answer({ list: [consoleModel('mini', 'Mini', 0, 'Free'), consoleModel('pro', 'Pro', 1, 'Standard'), consoleModel('ultra', 'Ultra', 2, 'Advanced')], total: 3 }),
  '/api/admin/AiModelMap/GetList': answer([]),
};

/** One notification of each kind the server sends, with the parameters it gives. */
/** An exchange whose answer is the second of two versions (Ask again), in a chat of one turn. */
const versionedExchange = listedMessage({
  chatMessageId: 'm2',
  chatSessionId: 's-versions',
  inputMessage: '为什么会有潮汐？',
  outputMessage: '月球和太阳的引力拉动海洋。',
  aiModelId: 'mini',
  modelName: 'Mini',
  versionIds: ['m1', 'm2'],
  versionIndex: 2,
  versionCount: 2,
});

const NOTIFICATIONS = ['paymentSucceeded', 'paymentFailed', 'paymentDisputed', 'paymentRefunded', 'planEnding', 'planRenewing', 'planResumed', 'planEnded', 'inviteCredited', 'invitedWelcome', 'checkinStreak', 'redeem'].map((key, i) => ({
  id: `n${i}`,
  kind: 'invite',
  titleKey: `notifications.${key}.title`,
  bodyKey: `notifications.${key}.body`,
  params: { plan: 'Advanced', level: 2, endDate: '2027-11-25T12:00:00.000Z', points: 100, name: '小*', days: 7, planDays: 30 },
  link: '',
  read: i > 1,
  createTime: '2026-11-26T09:30:00.000Z',
}));

/** A Chinese reader's own data, as the user's screens list it. */
const USER_ROUTES: Record<string, Route> = {
  '/api/Chat/GetChatSessionListBySelf': answer({
    list: [
      { chatSessionId: 's1', sessionTitle: '周报的写法', sessionDescribe: '', createTime: '2026-11-20T10:00:00.000Z', answering: false },
      { chatSessionId: 's2', sessionTitle: '翻译一段合同', sessionDescribe: '', createTime: '2026-11-19T10:00:00.000Z', answering: true },
    ],
    total: 2,
  }),
  '/api/User/GetUserIntegralLogList': answer({
    list: LedgerKindSchema.options.map((kind, i) => ({
      id: `e${i}`,
      kind,
      delta: kind === 'message' ? -1 : kind === 'expiry' ? -5 : 10,
      allowance: kind === 'message' ? 2 : 0,
      balanceAfter: kind === 'opening' ? null : 500 - i,
      note: kind === 'redeem' ? '春季活动' : kind === 'admin' ? '服务中断补偿' : '',
      refId: null,
      createTime: new Date(Date.UTC(2026, 10, 20, 12, 30 - i)).toISOString(),
    })),
    total: LedgerKindSchema.options.length,
  }),
  '/api/User/GetUserIntegralByLogin': answer([
    { integralType: 2, integralValue: 5, useIntegral: 0 },
    { integralType: 1, integralValue: 1234, useIntegral: 10 },
  ]),
  '/api/InviteCode/GetMyInviteCode': answer({ inviteCode: 'K7QX2M9P', inviteUrl: 'https://tandem.example/?inviteCode=K7QX2M9P', invitedCount: 2, creditedCount: 1, pointsEarned: 100, pointsPerInvite: 100, disabled: false }),
  '/api/InviteCode/GetMyInviteList': answer({
    list: [
      { userName: '小*', createTime: '2026-11-20T10:00:00.000Z', credited: true, points: 100 },
      { userName: '阿*', createTime: '2026-11-21T10:00:00.000Z', credited: false, points: 0 },
    ],
    total: 2,
  }),
  '/api/Save/GetList': answer({
    list: [
      {
        favouriteId: 'f1',
        question: '怎样写一份周报？',
        answer: '先写**本周完成**的事，再写下周计划。',
        aiModelId: 'pro',
        modelName: 'Pro',
        answerTime: '2026-11-20T10:00:00.000Z',
        createTime: '2026-11-20T10:00:00.000Z',
        updateTime: '2026-11-20T10:00:00.000Z',
        chatSessionId: 's1',
        chatMessageId: 'm1',
        sourceExists: false,
        edited: true,
        answerTruncated: true,
      },
    ],
    total: 1,
  }),
  '/api/Share/GetShare': answer({
    title: '周报的写法',
    createTime: '2026-11-20T10:00:00.000Z',
    messages: [
      {
        inputMessage: '怎样写一份周报？',
        outputMessage: '先写**本周完成**的事[1]，再写下周计划。',
        modelName: 'Pro',
        citations: [{ index: 1, title: '周报模板', url: 'https://example.com/weekly' }],
        images: [],
        createTime: '2026-11-20T10:00:00.000Z',
      },
    ],
  }),
  '/api/UserNotification/GetUnreadCount': answer({ unread: 2 }),
  '/api/Chat/GetChatMessageListBySelfSessionId': answer({ list: [versionedExchange], total: 1 }),
  '/api/UserNotification/GetList': answer({ list: NOTIFICATIONS, total: NOTIFICATIONS.length, unread: 2 }),
  '/api/Vip/GetVipOrderList': answer({
    list: (['paid', 'refunded', 'granted'] as const).map((status, i) => ({
      vipOrderId: `o${i}`,
      vipPackageId: 'advanced-year',
      packageName: 'Advanced',
      level: 2,
      period: 'year',
      source: status === 'granted' ? 'redeem' : 'stripe',
      status,
      amount: 19190,
      currency: 'usd',
      points: 240000,
      startTime: '2026-11-25T12:00:00.000Z',
      endTime: '2027-11-25T12:00:00.000Z',
      active: i === 0,
      createTime: '2026-11-25T12:00:00.000Z',
    })),
    total: 3,
  }),
};

const server = serveTheseTests(
  fakeApi({
    ...CONSOLE_ROUTES,
    ...USER_ROUTES,
    '/api/Chat/GetModelListAll': answer(MODELS),
    '/api/AiModel/GetModelListByVipPackageId': packageModelsRoute(() => MODELS.filter((m) => m.aiModelId !== 'auto')),
    '/api/Vip/GetVipPackageList': (_req, res, url) => answer(packageList(url.searchParams.get('currency') ?? 'usd'))(_req, res, url),
    '/api/Vip/GetSubscription': answer(null),
  }),
);

/** Runs of Latin letters (words joined by spaces or hyphens) in `text` that are not allowed. */
function latinRuns(text: string): string[] {
  // The user's own data (e-mail addresses) and the app's paths (/pricing) are not words.
  const ui = text.replace(/\S+@\S+\.\w+/g, ' ').replace(/(?<![\w/])\/[\w/-]+/g, ' ');
  return (ui.match(/[A-Za-z][A-Za-z'-]*(?:\s+[A-Za-z][A-Za-z'-]*)*/g) ?? []).filter((run) => run.length >= 2 && !run.split(/\s+/).every((word) => ALLOWED.has(word)));
}

/**
 * Identifiers an operator types or copies (an audit action's id, a tool's name) are marked
 * translate="no", as a browser's translator leaves them: left out of the check.
 */
const RAW = '[translate="no"]';

/** The text a reader sees in `root`: without style sheets, scripts and raw identifiers. */
function shownText(root: HTMLElement = document.body): string {
  const copy = root.cloneNode(true) as HTMLElement;
  for (const element of copy.querySelectorAll(`style, script, ${RAW}`)) element.remove();
  return copy.textContent ?? '';
}

/** What a reader meets besides the text: placeholders, labels for assistive technology, tooltips. */
function shownAttributes(root: HTMLElement = document.body): string[] {
  const attributes = ['placeholder', 'aria-label', 'title', 'alt'];
  return [...root.querySelectorAll<HTMLElement>(attributes.map((name) => `[${name}]`).join(','))]
    // A hidden measuring copy (Mantine's autosize textarea) is met by no one. mantine-datatable's sort
    // icons carry fixed English labels the library gives no way to change (reported, not hidden).
    .filter((element) => !element.closest(`${RAW}, [aria-hidden="true"], [class*="mantine-datatable-header-cell-sortable"][role="img"]`))
    .flatMap((element) => attributes.map((name) => element.getAttribute(name) ?? ''));
}

/** Stray Latin runs in the text and the attributes, and Chinese followed by a half-width colon. */
function findings(root: HTMLElement = document.body): string[] {
  const texts = [shownText(root), ...shownAttributes(root)];
  const colons = texts.flatMap((text) => text.match(/[\u3400-\u9fff]\s*:.{0,12}/g) ?? []);
  return [...texts.flatMap(latinRuns), ...colons];
}

async function inChinese(ui: React.ReactElement, user: UserInfo | null = standardUser) {
  signedIn = user ?? testUser;
  const result = await renderInApp(ui, { apiBase: server.url, user });
  await setLanguage('zh');
  return result;
}

describe('the main screens in Chinese', () => {
  it('pricing: plan names and what each unlocks', async () => {
    await inChinese(<PricingPage onBack={vi.fn()} onNavigate={vi.fn()} />);
    await waitFor(() => expect(screen.getAllByTestId('plan-models')).toHaveLength(4));
    expect(shownText()).toContain('标准版');
    expect(findings()).toEqual([]);
  });

  it('the model picker: Auto, its description, the group headers and the lock text', async () => {
    await inChinese(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />);
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('自动'));
    await userEvent.click(screen.getByTestId('model-picker'));
    const menu = await screen.findByRole('menu');
    expect(await within(menu).findByText('高级版')).toBeInTheDocument();
    expect(menu).toHaveTextContent('需要标准版');
    expect(findings(menu)).toEqual([]);
  });

  it('settings and the sidebar badge: the plan by its Chinese name, with a full-width colon', async () => {
    await inChinese(
      <>
        <SettingsPage section="account" onOpen={vi.fn()} onBack={vi.fn()} />
        <PlanCard user={standardUser} />
      </>,
    );
    await screen.findByText('套餐：标准版');
    expect(screen.getByText('邮箱：alice@example.com')).toBeInTheDocument();
    expect(screen.getAllByText(/标准版/).length).toBeGreaterThanOrEqual(2);
    expect(findings()).toEqual([]);
  });
});

describe('the user\'s screens in Chinese', () => {
  it('settings: the list and each section, with what other features add to it', async () => {
    window.history.replaceState(null, '', '/setting');
    await renderInApp(
      <AppRouter platform={{ isExtension: false }}>
        <AppRoutes />
      </AppRouter>,
      { apiBase: server.url, user: standardUser, platform: { isH5: true, scene: 'h5' } },
    );
    await setLanguage('zh');
    const list = await screen.findByTestId('settings-list');
    expect(list).toHaveTextContent('隐私与记忆');
    expect(findings()).toEqual([]);
    for (const section of SETTINGS_SECTIONS) {
      await userEvent.click(await screen.findByTestId(`settings-row-${section}`));
      await screen.findByTestId(`settings-section-${section}`);
      await waitFor(() => expect(document.querySelector('.mantine-Loader-root')).toBeNull());
      expect(findings(), section).toEqual([]);
      await userEvent.click(screen.getByRole('button', { name: '返回设置' }));
    }
  });

  it('a chat whose answer has two versions, and the edit box of its question', async () => {
    await inChinese(<ChatView sessionId="s-versions" onSessionCreated={vi.fn()} />);
    const versions = await screen.findByTestId('answer-versions');
    expect(versions).toHaveAttribute('aria-label', '第 2 个版本，共 2 个');
    await userEvent.click(screen.getByRole('button', { name: '编辑消息' }));
    await screen.findByTestId('question-editor');
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('自动'));
    expect(findings()).toEqual([]);
  });

  it('history: the sidebar with chats', async () => {
    await inChinese(<ChatSidebar onNavigate={vi.fn()} />);
    await screen.findByText('翻译一段合同');
    expect(findings()).toEqual([]);
  });

  it('points: every kind of entry in the history', async () => {
    await inChinese(<PointsHistory />);
    await screen.findByText(/服务中断补偿/);
    expect(findings()).toEqual([]);
  });

  it('invite: the link, the counts and the invited accounts', async () => {
    await inChinese(<InvitePage onBack={vi.fn()} />);
    await screen.findByText('阿*');
    expect(findings()).toEqual([]);
  });

  it('favourites: a saved answer, edited, its chat gone', async () => {
    await inChinese(<FavouritesPage onBack={vi.fn()} onEdit={vi.fn()} onOpenSource={vi.fn()} />);
    await screen.findByText('怎样写一份周报？');
    expect(findings()).toEqual([]);
  });

  it('notifications: each kind the server sends', async () => {
    await inChinese(<NotificationBell onNavigate={vi.fn()} />);
    await userEvent.click(await screen.findByTestId('notification-bell'));
    await waitFor(() => expect(screen.getAllByTestId('notification-item')).toHaveLength(NOTIFICATIONS.length));
    expect(findings()).toEqual([]);
  });

  it('the popup: plan and points', async () => {
    await inChinese(<QuickActions onOpenSidePanel={vi.fn()} onOpenWebApp={vi.fn()} onSignIn={vi.fn()} onOpenHelp={vi.fn()} />);
    await screen.findByText(/1,?2\d\d/);
    expect(findings()).toEqual([]);
  });

  it('the login page: sign in and create an account', async () => {
    window.history.replaceState(null, '', '/login');
    await inChinese(<LoginPage navigate={vi.fn()} />, null);
    await screen.findByRole('tab', { name: '注册账号' });
    expect(findings()).toEqual([]);
    await userEvent.click(screen.getByRole('tab', { name: '注册账号' }));
    await screen.findByRole('button', { name: '注册账号' });
    expect(findings()).toEqual([]);
  });

  it('a shared chat, for anyone with the link', async () => {
    await inChinese(<SharedChatPage shareId="abc" onStart={vi.fn()} />, null);
    await screen.findByText('怎样写一份周报？');
    expect(findings()).toEqual([]);
  });

  it('subscription: the plan and the orders (paid, refunded, granted)', async () => {
    await inChinese(<SubscriptionPage onBack={vi.fn()} onNavigate={vi.fn()} />);
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(3));
    expect(screen.getAllByTestId('order-row')[0]).toHaveTextContent('高级版');
    expect(findings()).toEqual([]);
  });
});

prepareDataTables();

/** The console's Chinese strings, added as the console's entry (admin/main.tsx) adds them. */
const adminZh = import.meta.glob<Record<string, unknown>>('../../locales/features/admin-*.zh.json', { eager: true, import: 'default' });

/** Says whether any query is still under way (the page has settled when none is). */
function Fetching() {
  return <span hidden data-testid="fetching" data-count={useIsFetching()} />;
}

/** Renders the console at `path` in Chinese; settled once `call` was asked and no query is under way. */
async function consoleInChinese(path: string, call: string | null) {
  signedIn = admin;
  const location = memoryLocation({ path });
  await renderInApp(
    <Router hook={location.hook}>
      <AdminLayout>
        <AdminRoutes />
      </AdminLayout>
      <Fetching />
    </Router>,
    { apiBase: server.url, user: admin },
  );
  // As admin/main.tsx does: once the shared Chinese bundle is there, before the page re-renders.
  const addAdminZh = (language: string) => {
    if (language === 'zh') for (const strings of Object.values(adminZh)) i18next.addResourceBundle('zh', 'translation', strings, true, false);
  };
  i18next.on('languageChanged', addAdminZh);
  try {
    await setLanguage('zh');
  } finally {
    i18next.off('languageChanged', addAdminZh);
  }
  await waitFor(() => {
    expect(screen.getAllByRole('heading', { level: 2 }).length).toBeGreaterThan(0);
    if (call) expect(server.requests.some((r) => r.url.startsWith(call))).toBe(true);
    expect(screen.getByTestId('fetching')).toHaveAttribute('data-count', '0');
  });
}

describe('the console in Chinese', () => {
  it('plugins: the names and descriptions the user side shows', async () => {
    await consoleInChinese('/admin/content/plugins', '/api/admin/Plugin/GetList');
    const table = await screen.findByRole('table', { name: '插件' });
    expect(table).toHaveTextContent('联网搜索');
    expect(findings()).toEqual([]);
  });

  it('the audit log: each action and target type by its name, the raw id kept for operators', async () => {
    await consoleInChinese('/admin/audit', '/api/admin/AuditLog/GetList');
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(4));
    const row = screen.getByText('生成兑换码批次').closest('tr')!;
    // The id stays beside the name: it is what the action filter takes.
    expect(within(row).getByText('RedeemCode/GenerateBatch')).toHaveAttribute('translate', 'no');
    expect(row).toHaveTextContent('兑换码批次');
    expect(findings()).toEqual([]);
  });

  it.each([
    ['/admin', '/api/admin/Statistic/GetDashboard'],
    ['/admin/users', '/api/admin/User/GetList'],
    ['/admin/models', '/api/admin/AiModel/GetList'],
    ['/admin/money/plans', '/api/admin/Vip/GetPackageList'],
    ['/admin/money/orders', '/api/admin/Vip/GetOrderList'],
    ['/admin/money/subscriptions', '/api/admin/Vip/GetSubscriptionList'],
    ['/admin/money/redeem', '/api/admin/RedeemCode/GetBatchList'],
    ['/admin/money/coupons', '/api/admin/Coupons/GetList'],
    ['/admin/content/quick-functions', '/api/admin/QuickFunction/GetList'],
    ['/admin/content/prompts', '/api/admin/AiPrompWord/GetList'],
    ['/admin/content/tags', '/api/admin/TagPrompt/GetList'],
    ['/admin/content/settings', '/api/admin/System/GetSettingList'],
    ['/admin/content/notifications', null],
    ['/admin/content/feedback', '/api/admin/Feedback/GetList'],
    ['/admin/content/records', '/api/admin/Records/'],
  ])(
    '%s',
    async (path, call) => {
      await consoleInChinese(path, call);
      if (path === '/admin') expect(shownText()).toMatch(/1,234.*Pro.*Mini/);
      if (path === '/admin/users' || path === '/admin/money/orders') expect(screen.getAllByText('user1@example.com').length).toBeGreaterThan(0);
      if (path === '/admin/models') expect(screen.getByText('Ultra')).toBeInTheDocument();
      expect(findings()).toEqual([]);
    },
  );
});
