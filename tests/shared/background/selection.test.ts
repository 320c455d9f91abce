import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handleSelectionMessage, menuDefinition } from '../../../entrypoints/background/selection.ts';
import { pinnedSelectionTools } from '../../../entrypoints/background/selection-tools.ts';
import type { QuickFunctionNode } from '../../../shared/contracts/quick-function.ts';
import { keepingModelList } from '../../../shared/api/model-list-cache.ts';
import { visitorIdPersisted } from '../../../shared/api/driver-id.ts';
import { setApiBase } from '../../../shared/api/request.ts';
import { systemConfigPersisted, tokenPersisted, userInfoPersisted } from '../../../shared/atoms/auth.ts';
import { chatModelPersisted, webSearchPersisted } from '../../../shared/atoms/chat.ts';
import {
  PENDING_ACTION_KEY,
  PENDING_ACTION_TTL_MS,
  type PendingAction,
  type PendingActionEnvelope,
  type PreparedMessage,
} from '../../../shared/contracts/selection-action.ts';
import { languagePersisted } from '../../../shared/i18n/language.ts';
import { claimPendingAction, queuePendingAction, waitingMessage, watchPendingActions } from '../../../shared/messaging/pending-action.ts';
import { serverUrlPersisted } from '../../../shared/platform/server-url.ts';
import { installStorage, writePersisted } from '../../../shared/storage/active.ts';
import { createExtensionStorage } from '../../../shared/storage/extension.ts';
import { testModel } from '../../helpers/models.ts';
import { testUser } from '../../helpers/render-app.tsx';
import {
  DEFAULT_SIDER_SETTINGS,
  MAX_TOOLBAR_TOOLS,
  SELECTION_MESSAGE_SOURCE,
  normalizeSiderSettings,
  readSelectionTools,
  readSiderSettings,
  siteOf,
  toggleSite,
} from '../../../shared/utils/sider-settings.ts';

const node = (id: string, patch: Partial<QuickFunctionNode> = {}): QuickFunctionNode => ({
  quickFunctionId: id,
  userQuickFunctionId: null,
  parentId: null,
  name: id,
  icon: '',
  description: '',
  template: `Do ${id} on {selection}`,
  category: 'scoped',
  appliesTo: ['selection'],
  aiModelId: null,
  pinned: true,
  online: true,
  sort: 0,
  isGroup: false,
  children: [],
  ...patch,
});

describe('the toolbar tools', () => {
  it('are the pinned tools that work on a selection, groups walked into, in tree order, at most six', () => {
    const tree = [
      node('explain'),
      node('unpinned', { pinned: false }),
      node('input-only', { appliesTo: ['input'] }),
      node('translate', { isGroup: true, template: '', children: [node('to-french', { parentId: 'translate' }), node('to-german', { parentId: 'translate', pinned: false })] }),
      node('hidden', { online: false }),
      ...['a', 'b', 'c', 'd', 'e'].map((id) => node(id)),
    ];
    expect(pinnedSelectionTools(tree).map((t) => t.id)).toEqual(['explain', 'to-french', 'a', 'b', 'c', 'd']);
    expect(pinnedSelectionTools(tree)).toHaveLength(MAX_TOOLBAR_TOOLS);
  });

  it('keep the group’s verb in the label the chat, tooltips and menus show; the button keeps the short name', () => {
    const tree = [
      node('explain', { name: 'Explain' }),
      node('translate', { name: 'Translate to…', isGroup: true, template: '', children: [node('to-zh', { name: 'Chinese (Simplified)', parentId: 'translate' })] }),
      node('zh-group', { name: '翻译为…', isGroup: true, template: '', children: [node('to-en', { name: '英语', parentId: 'zh-group' })] }),
    ];
    expect(pinnedSelectionTools(tree).map((t) => [t.name, t.label])).toEqual([
      ['Explain', 'Explain'],
      ['Chinese (Simplified)', 'Translate to Chinese (Simplified)'],
      ['英语', '翻译为英语'],
    ]);
  });

  it('are read back from storage checked by hand (the content script has no zod)', () => {
    expect(readSelectionTools(undefined)).toEqual({ language: 'en', tools: [] });
    expect(readSelectionTools({ v: 2, value: { tools: [] } }).tools).toEqual([]);
    const stored = { v: 1, value: { language: 'zh', tools: [{ id: 'x', name: 'X', label: 'Do X', icon: '✨' }, { id: 'old', name: 'Old', icon: '' }, { id: 5, name: 'bad' }, null] } };
    expect(readSelectionTools(stored)).toEqual({
      language: 'zh',
      tools: [
        { id: 'x', name: 'X', label: 'Do X', icon: '✨' },
        // Stored by an older build: the name stands for the label.
        { id: 'old', name: 'Old', label: 'Old', icon: '' },
      ],
    });
  });
});

describe('the context menu', () => {
  it('has Ask and the pinned tools on a selection, summarize and chat on a page, ask on an image', () => {
    const items = menuDefinition({ language: 'en', tools: [{ id: 'qf-explain', name: 'Explain', label: 'Explain', icon: '💡' }, { id: 'qf-zh', name: 'Chinese', label: 'Translate to Chinese', icon: '' }] });
    expect(items.map((i) => [i.id, i.contexts[0]])).toEqual([
      ['tandem-ask', 'selection'],
      ['tandem-tool:qf-explain', 'selection'],
      ['tandem-tool:qf-zh', 'selection'],
      ['tandem-page-summarize', 'page'],
      ['tandem-page-chat', 'page'],
      ['tandem-page-translate', 'page'],
      ['tandem-image', 'image'],
    ]);
    expect(items[1].title).toBe('💡 Explain');
    expect(items[2].title).toBe('Translate to Chinese');
    expect(menuDefinition({ language: 'zh', tools: [] }).find((i) => i.id === 'tandem-page-summarize')?.title).toBe('总结此页面');
  });
});

describe('sider settings', () => {
  it('fill what is missing or invalid with the defaults', () => {
    expect(readSiderSettings(undefined)).toEqual(DEFAULT_SIDER_SETTINGS);
    expect(normalizeSiderSettings({ toolbar: false, iconTop: 7, toolbarOffSites: ['a.com', 3] })).toEqual({ ...DEFAULT_SIDER_SETTINGS, toolbar: false, iconTop: 1 });
  });

  it('turn a site off once and back on', () => {
    expect(toggleSite(toggleSite(['a.com'], 'b.com', true), 'b.com', true)).toEqual(['a.com', 'b.com']);
    expect(toggleSite(['a.com', 'b.com'], 'a.com', false)).toEqual(['b.com']);
    expect(siteOf('https://News.Example.com:8443/x?y')).toBe('news.example.com:8443');
    expect(siteOf('not a url')).toBe('');
  });
});

const selection = { text: 'Sea otters hold hands.', title: 'Otters', url: 'https://example.com/otters' };
const tab = { id: 3, windowId: 7, index: 0, highlighted: true, active: true, pinned: false, incognito: false } as chrome.tabs.Tab;
const fromContentScript = { id: fakeBrowser.runtime.id, tab, frameId: 0 };
const stored = async () => (await fakeBrowser.storage.session.get(PENDING_ACTION_KEY))[PENDING_ACTION_KEY] as PendingActionEnvelope | undefined;

describe("the content script's messages", () => {
  beforeEach(() => fakeBrowser.reset());

  it('leave the tool run for the side panel of the tab window', async () => {
    const taken = handleSelectionMessage({ source: SELECTION_MESSAGE_SOURCE, type: 'runTool', quickFunctionId: 'qf-explain', name: 'Explain', icon: '💡', selection }, fromContentScript);
    expect(taken).toBe(true);
    await vi.waitFor(async () => expect(await stored()).toBeDefined());
    const envelope = (await stored())!;
    expect(envelope.windowId).toBe(7);
    expect(envelope.action).toEqual({ kind: 'tool', quickFunctionId: 'qf-explain', name: 'Explain', icon: '💡', selection });
  });

  it('are refused from another extension, outside a tab, from a frame, or malformed', async () => {
    const message = { source: SELECTION_MESSAGE_SOURCE, type: 'ask', selection };
    expect(handleSelectionMessage(message, { ...fromContentScript, id: 'someone-else' })).toBe(false);
    expect(handleSelectionMessage(message, { id: fakeBrowser.runtime.id })).toBe(false);
    expect(handleSelectionMessage(message, { ...fromContentScript, frameId: 2 })).toBe(false);
    expect(handleSelectionMessage({ ...message, selection: { text: '' } }, fromContentScript)).toBe(false);
    expect(handleSelectionMessage({ type: 'ask', selection }, fromContentScript)).toBe(false);
    expect(await stored()).toBeUndefined();
  });
});

/** A side panel in window 7, on fresh fake storage for each test; the watchers it started, ended after each. */
function panelOfWindow7(): (() => void)[] {
  const stops: (() => void)[] = [];
  beforeEach(() => {
    fakeBrowser.reset();
    vi.spyOn(fakeBrowser.windows, 'getCurrent').mockResolvedValue({ id: 7 } as Awaited<ReturnType<typeof fakeBrowser.windows.getCurrent>>);
  });
  afterEach(() => {
    stops.splice(0).forEach((stop) => stop());
    vi.restoreAllMocks();
  });
  return stops;
}

describe('the hand-off to the side panel', () => {
  const stops = panelOfWindow7();
  const ask: PendingAction = { kind: 'ask', selection };

  it('runs an action left before the panel started, once, and removes it', async () => {
    const envelope = await queuePendingAction(7, ask);
    const seen: PendingAction[] = [];
    stops.push(watchPendingActions((action) => seen.push(action)).stop);
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect(await stored()).toBeUndefined();
    // The same action seen again (a replayed change) does not run again.
    await fakeBrowser.storage.session.set({ [PENDING_ACTION_KEY]: envelope });
    await vi.waitFor(async () => expect(await stored()).toBeDefined());
    await queuePendingAction(7, { kind: 'ask', selection: { ...selection, text: 'next' } });
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    expect(seen[1]).toMatchObject({ selection: { text: 'next' } });
  });

  it('runs actions arriving while the panel is open, and leaves another window its own', async () => {
    const seen: PendingAction[] = [];
    stops.push(watchPendingActions((action) => seen.push(action)).stop);
    await queuePendingAction(7, ask);
    await vi.waitFor(() => expect(seen).toEqual([ask]));
    await queuePendingAction(8, { kind: 'ask', selection: { ...selection, text: 'other window' } });
    await vi.waitFor(async () => expect((await stored())?.windowId).toBe(8));
    expect(seen).toHaveLength(1);
  });

  it('is ready once the action waiting at start has been handed over (the first screen of the panel runs it)', async () => {
    await queuePendingAction(7, ask);
    const seen: PendingAction[] = [];
    const watch = watchPendingActions((action) => seen.push(action));
    stops.push(watch.stop);
    await watch.ready;
    expect(seen).toEqual([ask]);
    expect(await stored()).toBeUndefined();
  });

  it('drops an action older than a minute', async () => {
    await fakeBrowser.storage.session.set({ [PENDING_ACTION_KEY]: { id: 'old', windowId: 7, createdAt: Date.now() - PENDING_ACTION_TTL_MS - 1, action: ask } });
    const seen: PendingAction[] = [];
    stops.push(watchPendingActions((action) => seen.push(action)).stop);
    await vi.waitFor(async () => expect(await stored()).toBeUndefined());
    expect(seen).toEqual([]);
  });
});

describe("a tool's message, made ready with the action (sent by a panel opened for it before its app loads)", () => {
  const SERVER = 'http://tandem.test';
  const runTool = { source: SELECTION_MESSAGE_SOURCE, type: 'runTool', quickFunctionId: 'qf-explain', name: 'Explain', icon: '💡', selection };
  beforeEach(async () => {
    fakeBrowser.reset();
    installStorage(createExtensionStorage());
    setApiBase(SERVER);
    await writePersisted(serverUrlPersisted, SERVER);
  });

  /** What an earlier page kept: the login, and the model list this server gave it at `planLevel`. */
  async function kept(list = [testModel('auto', 0), testModel('fast', 1, { webSearch: true })], planLevel = 0) {
    await writePersisted(tokenPersisted, 'token-a');
    await writePersisted(visitorIdPersisted, 'visitor-1');
    await keepingModelList(planLevel, async () => list);
  }
  const queued = async () => {
    expect(handleSelectionMessage(runTool, fromContentScript)).toBe(true);
    await vi.waitFor(async () => expect(await stored()).toBeDefined());
    return (await stored())!;
  };

  it('is the chat’s send from the kept list and settings: the model picked, web search where it is on and available, the login, the language', async () => {
    await kept();
    await writePersisted(chatModelPersisted, 'fast');
    await writePersisted(webSearchPersisted, true);
    await writePersisted(systemConfigPersisted, [{ settingKey: 'web_search_provider', settingValue: 'fake' }]);
    await writePersisted(languagePersisted, 'zh');
    const envelope = await queued();
    expect(envelope.send).toEqual({
      url: `${SERVER}/api/Chat/AddMessage`,
      headers: {
        accept: 'text/event-stream',
        'accept-language': 'zh',
        authorization: 'Bearer token-a',
        'content-type': 'application/json-patch+json',
        driverid: 'visitor-1',
        reqtarget: 'web',
      },
      body: { aiModelId: 'fast', inputMessage: '', chatMediaIds: [], webSearch: true, pluginIds: [], quickFunctionId: 'qf-explain', selection },
    });
  });

  it('goes to the default model without web search when nothing was picked or the server has no search', async () => {
    await kept();
    await writePersisted(webSearchPersisted, true);
    const { send } = await queued();
    expect(send?.body).toMatchObject({ aiModelId: 'fast', webSearch: false });
    expect(send?.headers['accept-language']).toBe('en');
  });

  it('is left out for a visitor, and without a list kept for this account and plan: the panel sends as before', async () => {
    await kept([testModel('auto', 0)], 2);
    expect((await queued()).send).toBeUndefined();
    await fakeBrowser.storage.session.clear();
    await writePersisted(userInfoPersisted, { ...testUser, vipOrder: { vipOrderId: 'o', vipPackageLevel: 2, vipPackageName: 'Advanced', endTime: '' } });
    expect((await queued()).send?.body).toMatchObject({ aiModelId: 'auto' });
    await fakeBrowser.storage.session.clear();
    await writePersisted(tokenPersisted, null);
    expect((await queued()).send).toBeUndefined();
  });
});

describe("the side panel's first script and its app", () => {
  const stops = panelOfWindow7();
  const tool: PendingAction = { kind: 'tool', quickFunctionId: 'qf-explain', name: 'Explain', icon: '', selection };
  const ask: PendingAction = { kind: 'ask', selection };
  const send: PreparedMessage = { url: 'http://tandem.test/api/Chat/AddMessage', headers: { reqtarget: 'web' }, body: { aiModelId: 'auto' } };

  it('the script takes a message ready for its window; the app then does not run that action again', async () => {
    const envelope = await queuePendingAction(7, tool, send);
    const waiting = await waitingMessage();
    expect(waiting).toEqual({ id: envelope.id, envelope, send });
    await claimPendingAction(envelope.id);
    expect(await stored()).toBeUndefined();
    const seen: PendingAction[] = [];
    const watch = watchPendingActions((action) => seen.push(action), { claimedBefore: Promise.resolve(envelope.id) });
    stops.push(watch.stop);
    await watch.ready;
    expect(seen).toEqual([]);
  });

  it('the app reads the waiting action only after the script, and never runs the one it claimed, even if its removal failed', async () => {
    const envelope = await queuePendingAction(7, tool, send);
    let claim!: (id: string) => void;
    const seen: PendingAction[] = [];
    const watch = watchPendingActions((action) => seen.push(action), { claimedBefore: new Promise<string>((resolve) => (claim = resolve)) });
    stops.push(watch.stop);
    // A turn of the event loop: every storage read and removal the app could start has settled.
    await new Promise((resolve) => setImmediate(resolve));
    // Still there: the app has not taken it while the script was deciding.
    expect((await stored())?.id).toBe(envelope.id);
    claim(envelope.id);
    await watch.ready;
    expect(seen).toEqual([]);
    // A newer click's action is the app's.
    await queuePendingAction(7, ask);
    await vi.waitFor(() => expect(seen).toEqual([ask]));
  });

  it('leaves to the app an action without a message ready, another window’s and an old one', async () => {
    await queuePendingAction(7, ask);
    expect(await waitingMessage()).toBeNull();
    await queuePendingAction(8, tool, send);
    expect(await waitingMessage()).toBeNull();
    await fakeBrowser.storage.session.set({ [PENDING_ACTION_KEY]: { id: 'old', windowId: 7, createdAt: Date.now() - PENDING_ACTION_TTL_MS - 1, action: tool, send } });
    expect(await waitingMessage()).toBeNull();
    expect((await stored())?.id).toBe('old');
  });

  it('claims only the action it sent: a newer click that replaced it stays for the app', async () => {
    const first = await queuePendingAction(7, tool, send);
    const newer = await queuePendingAction(7, ask);
    await claimPendingAction(first.id);
    expect((await stored())?.id).toBe(newer.id);
  });
});
