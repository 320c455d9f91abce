/**
 * The in-page bar's few words. The engine runs inside the user's tab without i18next and the app's
 * catalogues (as the every-page content script, entrypoints/selection.content/strings.ts), so it
 * carries this small dictionary; the language is the app's, given by the background.
 */
const STRINGS = {
  en: {
    bar: 'Tandem page translation',
    translating: 'Translating this page…',
    translated: 'Page translated',
    estimate: '≈ {n} points for what is on screen',
    showOriginal: 'Show original',
    always: 'Always translate this site',
    never: 'Never translate this site',
    close: 'Close',
    signedOut: 'Sign in to Tandem to translate this page.',
    signIn: 'Open Tandem',
    noPoints: 'Not enough points to translate this page.',
    failed: 'The translation failed. Try again later.',
    alwaysDone: 'This site will be translated whenever you open it.',
    ask: 'Translate this page?',
    pricing: 'Working out the price of what is on screen…',
    translate: 'Translate',
    dontAsk: 'Don’t ask again',
    cancel: 'Cancel',
    spent: '{n} points spent so far',
  },
  zh: {
    bar: 'Tandem 网页翻译',
    translating: '正在翻译此页面…',
    translated: '页面已翻译',
    estimate: '屏幕上的内容约需 {n} 积分',
    showOriginal: '显示原文',
    always: '总是翻译此网站',
    never: '永不翻译此网站',
    close: '关闭',
    signedOut: '请登录 Tandem 后再翻译此页面。',
    signIn: '打开 Tandem',
    noPoints: '积分不足，无法翻译此页面。',
    failed: '翻译失败，请稍后再试。',
    alwaysDone: '以后打开此网站时都会自动翻译。',
    ask: '翻译此页面？',
    pricing: '正在计算屏幕上内容所需的积分…',
    translate: '翻译',
    dontAsk: '不再询问',
    cancel: '取消',
    spent: '已花费 {n} 积分',
  },
} as const;

export type PageStrings = Record<keyof (typeof STRINGS)['en'], string>;

export function pageStringsFor(language: 'en' | 'zh'): PageStrings {
  return STRINGS[language];
}
