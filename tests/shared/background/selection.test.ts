import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handleSelectionMessage, menuDefinition } from '../../../entrypoints/background/selection.ts';
import { pinnedSelectionTools } from '../../../entrypoints/background/selection-tools.ts';
import type { QuickFunctionNode } from '../../../shared/contracts/quick-function.ts';
import { PENDING_ACTION_KEY, PENDING_ACTION_TTL_MS, type PendingAction, type PendingActionEnvelope } from '../../../shared/contracts/selection-action.ts';
import { queuePendingAction, watchPendingActions } from '../../../shared/messaging/pending-action.ts';
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

describe('the hand-off to the side panel', () => {
  const stops: (() => void)[] = [];
  beforeEach(() => {
    fakeBrowser.reset();
    vi.spyOn(fakeBrowser.windows, 'getCurrent').mockResolvedValue({ id: 7 } as Awaited<ReturnType<typeof fakeBrowser.windows.getCurrent>>);
  });
  afterEach(() => {
    stops.splice(0).forEach((stop) => stop());
    vi.restoreAllMocks();
  });
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
