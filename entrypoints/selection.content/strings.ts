/**
 * The content script's few words. It runs on every page and must stay small, so it carries this
 * dictionary rather than i18next and the app's catalogues; the tools' names come translated from the
 * server through the background (shared/utils/sider-settings.ts SelectionTools.language).
 */
const STRINGS = {
  en: {
    toolbar: 'Tandem tools',
    ask: 'Ask',
    askTitle: 'Ask Tandem about the selection',
    more: 'More',
    toolbarOffSite: 'Turn off the toolbar on this site',
    toolbarOffAll: 'Turn off the toolbar everywhere',
    open: 'Open Tandem',
    hideMenu: 'Hide the icon',
    iconOffSite: 'Hide on this site',
    iconOffAll: 'Hide everywhere',
    translatePage: 'Translate page',
    translate: 'Translate',
    translateTitle: 'Translate the selection',
    translateInto: 'Translate into',
    translating: 'Translating…',
    copy: 'Copy',
    copied: 'Copied',
    replace: 'Replace',
    openInPanel: 'Open in side panel',
    close: 'Close',
    signInTip: 'Sign in to Tandem to translate.',
    signIn: 'Sign in',
    failed: 'The translation failed. Try again.',
  },
  zh: {
    toolbar: 'Tandem 工具',
    ask: '提问',
    askTitle: '就所选文字向 Tandem 提问',
    more: '更多',
    toolbarOffSite: '在此网站关闭工具栏',
    toolbarOffAll: '在所有网站关闭工具栏',
    open: '打开 Tandem',
    hideMenu: '隐藏图标',
    iconOffSite: '在此网站隐藏',
    iconOffAll: '在所有网站隐藏',
    translatePage: '翻译网页',
    translate: '翻译',
    translateTitle: '翻译所选文字',
    translateInto: '翻译为',
    translating: '正在翻译…',
    copy: '复制',
    copied: '已复制',
    replace: '替换',
    openInPanel: '在侧边栏中打开',
    close: '关闭',
    signInTip: '登录 Tandem 后即可翻译。',
    signIn: '登录',
    failed: '翻译失败，请重试。',
  },
} as const;

export type Strings = Record<keyof (typeof STRINGS)['en'], string>;

export function stringsFor(language: 'en' | 'zh'): Strings {
  return STRINGS[language];
}
